/* The rules of a whole game (engine/game.py, engine/state.py, engine/phases.py's lay-down
 * search and TableGroup): deal, turns, skips, moves, the end of a hand and of the game. */
#include "core.h"

const Phase PHASES[11] = {
    {0, {{0, 0}, {0, 0}}},
    {2, {{SET, 3}, {SET, 3}}}, {2, {{SET, 3}, {RUN, 4}}}, {2, {{SET, 4}, {RUN, 4}}}, {1, {{RUN, 7}, {0, 0}}},
    {1, {{RUN, 8}, {0, 0}}},   {1, {{RUN, 9}, {0, 0}}},   {2, {{SET, 4}, {SET, 4}}}, {1, {{COLOUR, 7}, {0, 0}}},
    {2, {{SET, 5}, {SET, 2}}}, {2, {{SET, 5}, {SET, 3}}},
};

int hand_points(const uint8_t *hand) {
    int total = 0;
    for (int k = 0; k < NUM_KINDS; k++) total += hand[k] * points_of(k);
    return total;
}

int phase_of(const Game *g, int seat) {
    int i = g->completed[seat] < g->rules.phases_to_win - 1 ? g->completed[seat] : g->rules.phases_to_win - 1;
    return g->rules.phases[i];
}

int next_seat(const Game *g, int seat) { /* seats.next_active */
    int n = g->num_players;
    seat = (seat + 1) % n;
    while (!g->active[seat]) seat = (seat + 1) % n;
    return seat;
}

int can_draw_discard(const Game *g) {
    return g->stage == STAGE_DRAW && g->num_discard && g->discard[g->num_discard - 1] != SKIP;
}

int skip_targets(const Game *g, uint8_t *out) {
    int me = g->current, count = 0;
    for (int s = 0; s < g->num_players; s++) {
        if (s == me || !g->active[s] || g->skip_pending[s]) continue;
        if (g->rules.skip_rule == SKIP_NOT_TWICE && g->lost_turn[s]) continue;
        if (g->rules.skip_rule == SKIP_ONCE_PER_HAND && g->skipped[s]) continue;
        out[count++] = (uint8_t)s;
    }
    return count;
}

/* ---------------------------------------------------------------- table groups */

int group_accepts(const Group *grp, int card, int low_end) {
    if (card == WILD) {
        if (grp->kind == RUN) return low_end ? grp->low > 1 : grp->high < NUM_NUMBERS;
        return !low_end;
    }
    if (low_end || card < 0 || card >= NUM_NATURALS) return 0;
    if (grp->kind == SET) return number_of(card) == grp->value;
    if (grp->kind == RUN) {
        int n = number_of(card);
        return n == grp->low - 1 || n == grp->high + 1;
    }
    return colour_of(card) == grp->value;
}

void group_add(Group *grp, int card, int low_end) {
    if (grp->kind == RUN && (low_end || (card != WILD && number_of(card) == grp->low - 1))) {
        memmove(grp->cards + 1, grp->cards, grp->n);
        grp->cards[0] = (uint8_t)card;
        grp->n++;
        grp->low--;
        grp->value = grp->low;
    } else {
        grp->cards[grp->n++] = (uint8_t)card;
        if (grp->kind == RUN) grp->high++;
    }
}

/* ---------------------------------------------------------------- hands */

static void add_to_hand(Game *g, int seat, int card) {
    g->hands[seat][card]++;
    g->hand_size[seat]++;
    if (card < NUM_NATURALS) g->supply[seat][card % NUM_NUMBERS + 1]++;
}

static void take_from_hand(Game *g, int seat, int card) {
    g->hands[seat][card]--;
    g->hand_size[seat]--;
    if (card < NUM_NATURALS) g->supply[seat][card % NUM_NUMBERS + 1]--;
    if (g->taken[seat][card]) g->taken[seat][card]--;
}

/* ---------------------------------------------------------------- flow */

static void deal(Game *g, Events *ev);
static void end_hand(Game *g, int went_out, Events *ev);

static void reshuffle(Game *g) { /* R7 */
    int rest = g->num_discard - 1;
    if (rest < 1 || rest >= DECK_SIZE) return; /* (a pile holds at most the 108 cards) */
    uint8_t old[DECK_SIZE], order[DECK_SIZE];
    memcpy(old, g->discard, (size_t)rest);
    g->discard[0] = g->discard[rest];
    g->num_discard = 1;
    for (int i = 0; i < rest; i++) g->discard_counts[old[i]]--;
    pcg_permutation(&g->rng, rest, order);
    for (int i = 0; i < rest; i++) g->draw[i] = old[order[i]];
    g->num_draw = (uint8_t)rest;
}

static void start_turn(Game *g, int seat, Events *ev) {
    g->current = (uint8_t)seat;
    g->lost_turn[seat] = 0;
    g->stage = STAGE_DRAW;
    if (!g->num_draw) {
        reshuffle(g);
        if (!g->num_draw && !can_draw_discard(g)) end_hand(g, -1, ev);
    }
}

static void next_turn(Game *g, Events *ev) {
    int seat = next_seat(g, g->current);
    while (g->skip_pending[seat]) {
        g->skip_pending[seat] = 0;
        g->lost_turn[seat] = 1;
        ev->turns_lost |= (uint8_t)(1u << seat);
        seat = next_seat(g, seat);
    }
    start_turn(g, seat, ev);
}

/* Deal a hand from ``deck`` (108 cards, dealt from its end): ten cards a seat in turn from the
 * dealer's left, then the discard pile's first card, the rest the draw pile. */
static void deal_deck(Game *g, const uint8_t *deck, Events *ev) {
    int n = g->num_players;
    g->hand_number++;
    for (int s = 0; s < n; s++) {
        memset(g->hands[s], 0, NUM_KINDS);
        memset(g->taken[s], 0, NUM_KINDS);
        memset(g->discarded[s], 0, NUM_KINDS);
        memset(g->passed[s], 0, NUM_KINDS);
        g->last_discard[s] = -1;
        memset(g->supply[s], 0, NUM_NUMBERS + 1);
        g->hand_size[s] = 0;
        g->num_groups[s] = 0;
        g->laid[s] = g->skip_pending[s] = g->lost_turn[s] = g->skipped[s] = 0;
    }
    memset(g->discard_counts, 0, NUM_KINDS);
    memset(g->table_counts, 0, NUM_KINDS);
    int left = DECK_SIZE, seats[MAX_PLAYERS], players = 0, seat = g->dealer;
    for (int s = 0; s < n; s++) players += g->active[s];
    for (int s = 0; s < players; s++) seats[s] = seat = next_seat(g, seat);
    for (int r = 0; r < HAND_SIZE; r++)
        for (int s = 0; s < players; s++) add_to_hand(g, seats[s], deck[--left]);
    int top = deck[--left];
    g->discard[0] = (uint8_t)top;
    g->num_discard = 1;
    g->discard_counts[top] = 1;
    memcpy(g->draw, deck, (size_t)left);
    g->num_draw = (uint8_t)left;
    int first = seats[0];
    if (top == SKIP) { /* R4 */
        g->lost_turn[first] = 1;
        g->skipped[first] = 1;
        ev->turns_lost |= (uint8_t)(1u << first);
        first = next_seat(g, first);
    }
    start_turn(g, first, ev);
}

static void deal(Game *g, Events *ev) {
    uint8_t order[DECK_SIZE], deck[DECK_SIZE], standard[DECK_SIZE];
    int i = 0;
    for (int k = 0; k < NUM_KINDS; k++)
        for (int c = 0; c < (k == WILD ? 8 : k == SKIP ? 4 : 2); c++) standard[i++] = (uint8_t)k;
    pcg_permutation(&g->rng, DECK_SIZE, order);
    for (i = 0; i < DECK_SIZE; i++) deck[i] = standard[order[i]];
    deal_deck(g, deck, ev);
}

void redeal(Game *g, const uint8_t *deck) {
    Events ev;
    memset(&ev, 0, sizeof ev);
    g->hand_number--;
    deal_deck(g, deck, &ev);
}

static void end_hand(Game *g, int went_out, Events *ev) {
    int n = g->num_players, last = g->rules.phases_to_win - 1;
    int points[MAX_PLAYERS], completed[MAX_PLAYERS], num_completed = 0;
    for (int s = 0; s < n; s++) points[s] = g->active[s] ? hand_points(g->hands[s]) : 0;
    for (int s = 0; s < n; s++)
        if (g->laid[s] && g->completed[s] == last && !g->replay) completed[num_completed++] = s;
    ev->made_phase = 0;
    for (int s = 0; s < n; s++) {
        g->scores[s] += points[s];
        ev->points[s] = points[s];
        if (g->laid[s]) ev->made_phase |= (uint8_t)(1u << s);
        if (g->active[s] && !g->replay && (g->laid[s] || g->rules.advance_all)) g->completed[s]++;
    }
    ev->hand_ended = 1;
    ev->went_out = (int8_t)went_out;
    uint8_t winners = 0;
    if (g->replay) {
        if (went_out >= 0) winners = (uint8_t)(1u << went_out);
    } else if (g->rules.advance_all) {
        int most = 0, best = g->scores[0];
        for (int s = 0; s < n; s++) {
            if (g->completed[s] > most) most = g->completed[s];
            if (g->scores[s] < best) best = g->scores[s];
        }
        if (most >= g->rules.phases_to_win)
            for (int s = 0; s < n; s++)
                if (g->scores[s] == best) winners |= (uint8_t)(1u << s);
    } else if (num_completed) {
        int best = g->scores[completed[0]];
        for (int i = 1; i < num_completed; i++)
            if (g->scores[completed[i]] < best) best = g->scores[completed[i]];
        uint8_t tied = 0;
        int num_tied = 0;
        for (int i = 0; i < num_completed; i++)
            if (g->scores[completed[i]] == best) {
                tied |= (uint8_t)(1u << completed[i]);
                num_tied++;
            }
        if (num_tied == 1) {
            winners = tied;
        } else {
            g->replay = 1;
            for (int s = 0; s < n; s++) g->active[s] = (uint8_t)((tied >> s) & 1);
            ev->tie_replay = tied;
        }
    }
    if (winners) {
        g->winners = winners;
        g->stage = STAGE_GAME_OVER;
        ev->game_ended = 1;
        return;
    }
    g->dealer = (uint8_t)next_seat(g, g->dealer);
    deal(g, ev);
}

void game_new(Game *g, int num_players, const Rules *rules, uint64_t seed, int first_dealer, const uint8_t *start_phases) {
    memset(g, 0, sizeof *g);
    g->num_players = (uint8_t)num_players;
    g->rules = *rules;
    g->seed = seed;
    pcg_seed(&g->rng, seed);
    for (int s = 0; s < num_players && s < MAX_PLAYERS; s++) {
        g->active[s] = 1;
        g->completed[s] = start_phases ? start_phases[s] : 0;
    }
    g->dealer = (uint8_t)(first_dealer < 0 ? num_players - 1 : first_dealer);
    Events ev;
    memset(&ev, 0, sizeof ev);
    deal(g, &ev);
}

/* ---------------------------------------------------------------- moves (Game.unsafe_apply) */

static void arrange(Meld m, const uint8_t *counts, Group *grp) { /* phases.arrange */
    grp->kind = m.kind;
    grp->value = m.value;
    grp->n = 0;
    if (m.kind == RUN) {
        int wilds = counts[WILD];
        (void)wilds;
        for (int num = m.value; num < m.value + m.size; num++) {
            int card = WILD;
            for (int c = 0; c < NUM_COLOURS; c++)
                if (counts[c * NUM_NUMBERS + num - 1]) {
                    card = c * NUM_NUMBERS + num - 1; /* one natural per number: the only one */
                    break;
                }
            grp->cards[grp->n++] = (uint8_t)card;
        }
        grp->low = m.value;
        grp->high = (int8_t)(m.value + m.size - 1);
    } else {
        for (int k = 0; k < NUM_KINDS; k++)
            for (int c = 0; c < counts[k]; c++) grp->cards[grp->n++] = (uint8_t)k;
        grp->low = grp->high = 0;
    }
}

void apply_move(Game *g, const Move *m, Events *ev) {
    memset(ev, 0, sizeof *ev);
    ev->went_out = -1;
    int seat = g->current;
    if (m->type == MOVE_DRAW) {
        int card;
        if (m->from_discard) {
            card = g->discard[--g->num_discard];
            g->discard_counts[card]--;
            g->taken[seat][card]++;
        } else {
            if (g->num_discard) g->passed[seat][g->discard[g->num_discard - 1]]++;
            card = g->draw[--g->num_draw];
        }
        add_to_hand(g, seat, card);
        g->stage = STAGE_PLAY;
        return;
    }
    if (m->type == MOVE_DISCARD) {
        int card = m->card;
        take_from_hand(g, seat, card);
        g->discarded[seat][card]++;
        g->last_discard[seat] = (int8_t)(card == SKIP ? -1 : card);
        g->discard[g->num_discard++] = (uint8_t)card;
        g->discard_counts[card]++;
        if (m->target >= 0) {
            g->skip_pending[m->target] = 1;
            g->skipped[m->target] = 1;
        }
        if (g->hand_size[seat]) {
            next_turn(g, ev);
            return;
        }
    } else if (m->type == MOVE_HIT) {
        take_from_hand(g, seat, m->card);
        group_add(&g->table[m->target][m->group], m->card, m->low_end);
        g->table_counts[m->card]++;
    } else {
        for (int i = 0; i < m->num_melds; i++) {
            Group *grp = &g->table[seat][g->num_groups[seat]++];
            arrange(m->melds[i], m->cards[i], grp);
            for (int j = 0; j < grp->n; j++) {
                take_from_hand(g, seat, grp->cards[j]);
                g->table_counts[grp->cards[j]]++;
            }
        }
        g->laid[seat] = 1;
    }
    if (!g->hand_size[seat]) end_hand(g, seat, ev);
}

/* ---------------------------------------------------------------- the lay-down search (phases.laydowns) */

static int popcount(unsigned x) { return __builtin_popcount(x); }

static int most_naturals(Requirement r, const int *supply, unsigned present) { /* _most_naturals */
    int best = 0;
    if (r.kind == SET) {
        for (int v = 1; v <= NUM_NUMBERS; v++)
            if (supply[v] > best) best = supply[v];
        return best < r.size ? best : r.size;
    }
    unsigned window = (1u << r.size) - 1;
    for (int v = 1; v <= NUM_NUMBERS - r.size + 1; v++) {
        int nat = popcount((present >> (v - 1)) & window);
        if (nat > best) best = nat;
    }
    return best;
}

typedef struct { int value, naturals; } Option;

static int options(Requirement r, const int *supply, unsigned present, int wilds, int min_value, Option *out) { /* _options */
    int least = r.size - wilds, n = 0;
    if (r.kind == SET) {
        for (int v = min_value; v <= NUM_NUMBERS; v++)
            if (supply[v] >= least) {
                out[n].value = v;
                out[n++].naturals = supply[v] < r.size ? supply[v] : r.size;
            }
        return n;
    }
    if (least < 0) least = 0;
    unsigned window = (1u << r.size) - 1;
    for (int v = min_value; v <= NUM_NUMBERS - r.size + 1; v++) {
        int nat = popcount((present >> (v - 1)) & window);
        if (nat >= least) {
            out[n].value = v;
            out[n++].naturals = nat;
        }
    }
    return n;
}

/* Every lay-down (one or two melds) a hand can make of a phase, in the engine's order
 * (phases.laydowns: the colour enumeration, or search_laydowns). ``out`` holds 144 entries. */
int laydown_search(const uint8_t *hand, const Phase *ph, int per_group, Meld (*out)[2]) {
    int wilds = hand[WILD], count = 0;
    Requirement first = ph->req[0];
    if (first.kind == COLOUR) { /* _colour_laydowns */
        for (int c = 0; c < NUM_COLOURS; c++) {
            int num = 0;
            for (int k = c * NUM_NUMBERS; k < (c + 1) * NUM_NUMBERS; k++) num += hand[k];
            if (num && num + wilds >= first.size) out[count++][0] = (Meld){COLOUR, (int8_t)c, first.size};
        }
        return count;
    }
    int supply[NUM_NUMBERS + 1] = {0};
    unsigned present = 0;
    for (int k = 0; k < NUM_NATURALS; k++) supply[k % NUM_NUMBERS + 1] += hand[k];
    for (int num = 1; num <= NUM_NUMBERS; num++)
        if (supply[num]) present |= 1u << (num - 1);
    for (int i = 0; i < ph->count; i++)
        if (most_naturals(ph->req[i], supply, present) + wilds < ph->req[i].size) return 0;
    Option o1[NUM_NUMBERS], o2[NUM_NUMBERS];
    int n1 = options(first, supply, present, wilds, 1, o1);
    if (ph->count == 1) {
        for (int i = 0; i < n1; i++)
            if (o1[i].naturals) out[count++][0] = (Meld){first.kind, (int8_t)o1[i].value, first.size};
        return count;
    }
    Requirement second = ph->req[1];
    int same = first.kind == second.kind && first.size == second.size;
    for (int i = 0; i < n1; i++) {
        int v1 = o1[i].value, nat1 = o1[i].naturals;
        int lo1 = v1, hi1 = first.kind == SET ? v1 : v1 + first.size - 1;
        int left_supply[NUM_NUMBERS + 1];
        memcpy(left_supply, supply, sizeof supply);
        unsigned left = present, taken = 0;
        if (first.kind == SET) {
            if (nat1) taken = 1u << (v1 - 1);
            left_supply[v1] -= nat1;
        } else {
            for (int num = lo1; num <= hi1; num++)
                if (left_supply[num]) {
                    left_supply[num]--;
                    taken |= 1u << (num - 1);
                }
        }
        for (int num = lo1; num <= hi1; num++)
            if (!left_supply[num]) left &= ~(1u << (num - 1));
        int wilds_left = wilds - first.size + nat1;
        if (most_naturals(second, left_supply, left) + wilds_left < second.size) continue;
        int n2 = options(second, left_supply, left, wilds_left, same ? v1 : 1, o2);
        for (int j = 0; j < n2; j++) {
            int v2 = o2[j].value, nat2 = o2[j].naturals;
            if (per_group && !nat2) {
                int lo2 = v2, hi2 = second.kind == SET ? v2 : v2 + second.size - 1;
                int lo = lo1 > lo2 ? lo1 : lo2, hi = hi1 < hi2 ? hi1 : hi2;
                unsigned overlap = hi >= lo ? ((1u << (hi - lo + 1)) - 1) << (lo - 1) : 0;
                if (nat1 < 2 || !(taken & overlap)) continue;
            } else if (!(per_group ? nat1 : nat1 + nat2)) {
                continue;
            }
            out[count][0] = (Meld){first.kind, (int8_t)v1, first.size};
            out[count++][1] = (Meld){second.kind, (int8_t)v2, second.size};
        }
    }
    return count;
}

/* Game.laydown_options: the lay-downs of the player to act (none once its phase is down). */
int laydown_options(const Game *g, Meld (*out)[2], int *melds_per) {
    int seat = g->current;
    const Phase *ph = &PHASES[phase_of(g, seat)];
    *melds_per = ph->count;
    if (g->stage != STAGE_PLAY || g->laid[seat]) return 0;
    return laydown_search(g->hands[seat], ph, g->rules.per_group, out);
}

/* phases.phase_progress: the fewest more cards that would complete the phase, and the number of
 * first groups that reach that minimum (*ways). */
int phase_progress(const uint8_t *hand, const Phase *ph, int per_group, int *ways) {
    int wilds = hand[WILD];
    Requirement first = ph->req[0];
    if (first.kind == COLOUR) {
        int counts[NUM_COLOURS] = {0}, best = 0;
        for (int k = 0; k < NUM_NATURALS; k++) counts[k / NUM_NUMBERS] += hand[k];
        for (int c = 0; c < NUM_COLOURS; c++)
            if (counts[c] > best) best = counts[c];
        int missing = first.size - wilds - best;
        if (missing < (best ? 0 : 1)) missing = best ? 0 : 1;
        int w = 0;
        for (int c = 0; c < NUM_COLOURS; c++) {
            int m = first.size - wilds - counts[c];
            if (m < (counts[c] ? 0 : 1)) m = counts[c] ? 0 : 1;
            w += m == missing;
        }
        *ways = w;
        return missing;
    }
    int supply[NUM_NUMBERS + 1] = {0};
    unsigned present = 0;
    for (int k = 0; k < NUM_NATURALS; k++) supply[k % NUM_NUMBERS + 1] += hand[k];
    for (int num = 1; num <= NUM_NUMBERS; num++)
        if (supply[num]) present |= 1u << (num - 1);
    Option o1[NUM_NUMBERS];
    int n1 = options(first, supply, present, first.size, 1, o1);
    int best = NUM_KINDS, w = 0;
    for (int i = 0; i < n1; i++) {
        int v1 = o1[i].value, nat1 = o1[i].naturals, missing;
        if (ph->count == 1) {
            int need = first.size - nat1 - wilds;
            missing = need > 0 ? need : (nat1 ? 0 : 1);
        } else {
            Requirement second = ph->req[1];
            int lo1 = v1, hi1 = first.kind == SET ? v1 : v1 + first.size - 1;
            int left_supply[NUM_NUMBERS + 1];
            memcpy(left_supply, supply, sizeof supply);
            unsigned left = present;
            if (first.kind == SET) {
                left_supply[v1] -= nat1;
            } else {
                for (int num = lo1; num <= hi1; num++)
                    if (left_supply[num]) left_supply[num]--;
            }
            for (int num = lo1; num <= hi1; num++)
                if (!left_supply[num]) left &= ~(1u << (num - 1));
            int nat2 = most_naturals(second, left_supply, left);
            int need = first.size + second.size - nat1 - nat2 - wilds;
            int without = (nat1 == 0) + (nat2 == 0);
            int floor = per_group ? without : (nat1 + nat2 == 0 ? 1 : 0);
            missing = need > floor ? need : floor;
        }
        if (missing < best) {
            best = missing;
            w = 1;
        } else if (missing == best) {
            w++;
        }
    }
    if (best == 0) {
        Meld found[144][2];
        if (!laydown_search(hand, ph, per_group, found)) best = 1;
    }
    *ways = w;
    return best;
}
