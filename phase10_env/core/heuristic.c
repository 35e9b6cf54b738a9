/* The heuristic player (phase10_env/heuristic.py, default HeuristicConfig), move for move.
 * It reads only what its seat may see: its own hand, the table, the discard pile and every
 * player's public counts (phases, scores, hand sizes, cards seen taken from the pile). */
#include "core.h"

int next_action(const Game *g, const Pending *p, const Move *m); /* codec.c */

/* ---------------------------------------------------------------- phase progress of a profile */

/* _profile: a hand counted by what a phase asks of it (Wilds, then per number or colour). */
static int profile_of(const uint8_t *hand, int colour, uint8_t *profile) {
    int slots = colour ? NUM_COLOURS + 1 : NUM_NUMBERS + 1;
    memset(profile, 0, (size_t)slots);
    profile[0] = hand[WILD];
    for (int k = 0; k < NUM_NATURALS; k++) profile[colour ? colour_of(k) + 1 : number_of(k)] += hand[k];
    return slots;
}

static int slot_of(int card, int colour) { return card == WILD ? 0 : colour ? colour_of(card) + 1 : number_of(card); }

static int is_colour(int phase) { return PHASES[phase].req[0].kind == COLOUR; }

/* _progress: phase_progress of the hand a profile stands for. */
static int progress(const uint8_t *profile, int phase, int per_group, int *ways) {
    uint8_t hand[NUM_KINDS] = {0};
    int colour = is_colour(phase), slots = colour ? NUM_COLOURS + 1 : NUM_NUMBERS + 1;
    hand[WILD] = profile[0];
    for (int s = 1; s < slots; s++) hand[colour ? (s - 1) * NUM_NUMBERS : s - 1] = profile[s];
    return phase_progress(hand, &PHASES[phase], per_group, ways);
}

static int run_naturals(unsigned present, int start, int size) {
    return __builtin_popcount((present >> (start - 1)) & ((1u << size) - 1));
}

/* _layouts: lay-downs (a value for every group) that ``missing`` more cards would complete. */
static int layouts(const uint8_t *profile, int phase, int missing) {
    const Phase *ph = &PHASES[phase];
    int size = 0;
    for (int i = 0; i < ph->count; i++) size += ph->req[i].size;
    int completes[32];
    for (int n = 0; n <= size; n++) {
        int m = size - n - profile[0], floor = n ? 0 : 1;
        completes[n] = (m > floor ? m : floor) == missing;
    }
    Requirement first = ph->req[0];
    int count = 0;
    if (first.kind == COLOUR) {
        for (int s = 1; s <= NUM_COLOURS; s++) count += completes[profile[s] < first.size ? profile[s] : first.size];
        return count;
    }
    unsigned present = 0;
    for (int n = 1; n <= NUM_NUMBERS; n++)
        if (profile[n]) present |= 1u << (n - 1);
    if (ph->count == 1) {
        for (int v = 1; v <= NUM_NUMBERS - first.size + 1; v++) count += completes[run_naturals(present, v, first.size)];
        return count;
    }
    Requirement second = ph->req[1];
    int same = first.kind == second.kind && first.size == second.size;
    for (int v1 = 1; v1 <= NUM_NUMBERS; v1++) {
        int n1 = profile[v1] < first.size ? profile[v1] : first.size, left = profile[v1] - n1;
        if (second.kind == SET) {
            count += completes[n1 + (left < second.size ? left : second.size)];
            for (int v2 = same ? v1 + 1 : 1; v2 <= NUM_NUMBERS; v2++)
                if (v2 != v1) count += completes[n1 + (profile[v2] < second.size ? profile[v2] : second.size)];
        } else {
            unsigned rest = left ? present : present & ~(1u << (v1 - 1));
            for (int v2 = 1; v2 <= NUM_NUMBERS - second.size + 1; v2++) count += completes[n1 + run_naturals(rest, v2, second.size)];
        }
    }
    return count;
}

/* _standing: (cards missing, lay-downs within that many). */
static void standing(const uint8_t *profile, int phase, int per_group, int *missing, int *ways) {
    int w;
    *missing = progress(profile, phase, per_group, &w);
    *ways = layouts(profile, phase, *missing);
}

/* ---------------------------------------------------------------- the table */

static int fits_anywhere(const Game *g, int card) {
    if (card == SKIP) return 0;
    for (int s = 0; s < g->num_players; s++)
        for (int i = 0; i < g->num_groups[s]; i++) {
            const Group *grp = &g->table[s][i];
            if (group_accepts(grp, card, 0) || (card == WILD && grp->kind == RUN && group_accepts(grp, card, 1))) return 1;
        }
    return 0;
}

typedef struct { int n; Group groups[MAX_PLAYERS * MAX_GROUPS + MAX_GROUPS]; } Table;

static void table_of(const Game *g, Table *t) {
    t->n = 0;
    for (int s = 0; s < g->num_players; s++)
        for (int i = 0; i < g->num_groups[s]; i++) t->groups[t->n++] = g->table[s][i];
}

/* _hit_all: hit greedily until no card fits. */
static void hit_all(uint8_t *hand, Table *t) {
    int progress_made = 1;
    while (progress_made) {
        progress_made = 0;
        for (int card = 0; card < SKIP; card++) {
            if (!hand[card]) continue;
            for (int i = 0; i < t->n; i++) {
                Group *grp = &t->groups[i];
                int low = card == WILD && grp->kind == RUN && !group_accepts(grp, card, 0) && group_accepts(grp, card, 1);
                if (group_accepts(grp, card, low)) {
                    group_add(grp, card, low);
                    hand[card]--;
                    progress_made = 1;
                    break;
                }
            }
        }
    }
}

static int hand_cards(const uint8_t *hand) {
    int n = 0;
    for (int k = 0; k < NUM_KINDS; k++) n += hand[k];
    return n;
}

/* ---------------------------------------------------------------- lay-downs */

static void arrange_group(Meld m, const uint8_t *counts, Group *grp) { /* as apply_move lays it */
    grp->kind = m.kind;
    grp->value = m.value;
    grp->n = 0;
    if (m.kind == RUN) {
        for (int num = m.value; num < m.value + m.size; num++) {
            int card = WILD;
            for (int c = 0; c < NUM_COLOURS; c++)
                if (counts[c * NUM_NUMBERS + num - 1]) {
                    card = c * NUM_NUMBERS + num - 1;
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

/* _after_laydown: (points, cards) left after the lay-down and every hit it enables. */
static void after_laydown(const Game *g, int seat, const Move *m, int *points, int *cards) {
    uint8_t hand[NUM_KINDS];
    memcpy(hand, g->hands[seat], NUM_KINDS);
    Table t;
    table_of(g, &t);
    for (int i = 0; i < m->num_melds; i++) {
        for (int k = 0; k < NUM_KINDS; k++) hand[k] = (uint8_t)(hand[k] - m->cards[i][k]);
        arrange_group(m->melds[i], m->cards[i], &t.groups[t.n++]);
    }
    hit_all(hand, &t);
    *points = hand_points(hand);
    *cards = hand_cards(hand);
}

static int same_meld(Meld a, Meld b) { return a.kind == b.kind && a.value == b.value && a.size == b.size; }

/* _extends: whether the lay-down ``m`` is one the move in progress can still become. */
static int extends(const Move *m, const Pending *p) {
    int used = -1;
    if (p->num_laid) {
        for (int i = 0; i < m->num_melds && used < 0; i++)
            if (same_meld(m->melds[i], p->laid) && !memcmp(m->cards[i], p->laid_cards, NUM_KINDS)) used = i;
        if (used < 0) return 0;
    }
    if (!p->has_meld) return 1;
    for (int i = 0; i < m->num_melds; i++) {
        if (i == used || !same_meld(m->melds[i], p->meld)) continue;
        int holds = 1;
        for (int k = 0; k < NUM_KINDS && holds; k++) holds = m->cards[i][k] >= p->picked[k];
        if (holds) return 1;
    }
    return 0;
}

static _Thread_local Choices first_choices, second_choices;

/* The best lay-down (Game.laydown_moves order, min of _after_laydown) among those the move in
 * progress extends; returns 0 if there is none. */
static int best_laydown(const Game *g, int seat, const Pending *p, Move *best) {
    Meld found[144][2];
    int per, count = laydown_options(g, found, &per);
    const Phase *ph = &PHASES[phase_of(g, seat)];
    const uint8_t *hand = g->hands[seat];
    int per_group = g->rules.per_group, have = 0, best_points = 0, best_cards = 0;
    Move m;
    memset(&m, 0, sizeof m);
    m.type = MOVE_LAYDOWN;
    m.num_melds = (int8_t)per;
    for (int i = 0; i < count; i++) {
        int n1 = first_group_choices(hand, ph, per_group, found[i][0], &first_choices);
        for (int a = 0; a < n1; a++) {
            m.melds[0] = found[i][0];
            unpack_choice(first_choices.packed[a], found[i][0].size, m.cards[0]);
            int n2 = 1;
            if (per == 2) n2 = second_group_choices(hand, m.cards[0], m.cards[0][WILD] == found[i][0].size, per_group,
                                                    found[i][1], &second_choices);
            for (int b = 0; b < n2; b++) {
                if (per == 2) {
                    if (same_meld(found[i][0], found[i][1]) && first_choices.packed[a] > second_choices.packed[b]) continue;
                    m.melds[1] = found[i][1];
                    unpack_choice(second_choices.packed[b], found[i][1].size, m.cards[1]);
                }
                if (p->kind == PENDING_LAYDOWN && !extends(&m, p)) continue;
                int points, cards;
                after_laydown(g, seat, &m, &points, &cards);
                if (!have || points < best_points || (points == best_points && cards < best_cards)) {
                    *best = m;
                    best_points = points;
                    best_cards = cards;
                    have = 1;
                }
            }
        }
    }
    return have;
}

/* ---------------------------------------------------------------- hits */

typedef struct { int points, cards, wild, run; } HitCost;

static HitCost after_hit(const Game *g, int seat, const Move *h) {
    uint8_t hand[NUM_KINDS];
    memcpy(hand, g->hands[seat], NUM_KINDS);
    Table t;
    table_of(g, &t);
    int index = h->group;
    for (int s = 0; s < h->target; s++) index += g->num_groups[s];
    Group *target = &t.groups[index];
    group_add(target, h->card, h->low_end);
    hand[h->card]--;
    hit_all(hand, &t);
    return (HitCost){hand_points(hand), hand_cards(hand), h->card == WILD, target->kind == RUN};
}

static int cheaper(HitCost a, HitCost b) {
    if (a.points != b.points) return a.points < b.points;
    if (a.cards != b.cards) return a.cards < b.cards;
    if (a.wild != b.wild) return a.wild < b.wild;
    return a.run < b.run;
}

static void consider_hit(const Game *g, int seat, const Pending *p, Move *h, int *have, HitCost *best_cost, Move *best) {
    if (p->kind == PENDING_HIT && (h->target != p->hit_target || h->group != p->hit_group || number_of(h->card) != p->hit_number))
        return;
    HitCost c = after_hit(g, seat, h);
    if (!*have || cheaper(c, *best_cost)) {
        *best = *h;
        *best_cost = c;
        *have = 1;
    }
}

/* Game.hit_moves order, min of _after_hit. */
static int best_hit(const Game *g, int seat, const Pending *p, Move *best) {
    const uint8_t *hand = g->hands[seat];
    int have = 0;
    HitCost best_cost = {0, 0, 0, 0};
    Move h;
    memset(&h, 0, sizeof h);
    h.type = MOVE_HIT;
    for (int t = 0; t < g->num_players; t++)
        for (int gi = 0; gi < g->num_groups[t]; gi++) {
            const Group *grp = &g->table[t][gi];
            h.target = (int8_t)t;
            h.group = (int8_t)gi;
            if (hand[WILD]) {
                h.card = WILD;
                h.low_end = 0;
                if (group_accepts(grp, WILD, 0)) consider_hit(g, seat, p, &h, &have, &best_cost, best);
                h.low_end = 1;
                if (grp->kind == RUN && group_accepts(grp, WILD, 1)) consider_hit(g, seat, p, &h, &have, &best_cost, best);
            }
            h.low_end = 0;
            int numbers[NUM_NUMBERS], count = 0;
            if (grp->kind == SET) {
                numbers[count++] = grp->value;
            } else if (grp->kind == RUN) {
                if (grp->low - 1 >= 1) numbers[count++] = grp->low - 1;
                if (grp->high + 1 <= NUM_NUMBERS) numbers[count++] = grp->high + 1;
            } else {
                for (int num = 1; num <= NUM_NUMBERS; num++) numbers[count++] = num;
            }
            for (int i = 0; i < count; i++) {
                if (grp->kind == COLOUR) {
                    int k = grp->value * NUM_NUMBERS + numbers[i] - 1;
                    if (hand[k]) {
                        h.card = (int8_t)k;
                        consider_hit(g, seat, p, &h, &have, &best_cost, best);
                    }
                } else {
                    for (int k = numbers[i] - 1; k < NUM_NATURALS; k += NUM_NUMBERS)
                        if (hand[k]) {
                            h.card = (int8_t)k;
                            consider_hit(g, seat, p, &h, &have, &best_cost, best);
                        }
                }
            }
        }
    return have;
}

/* ---------------------------------------------------------------- discards */

typedef struct { int laid, colour; uint8_t wanted[NUM_NUMBERS + 1]; } NextPlayer; /* wanted: by key (number, or colour + 1) */

static int key_of(int card, int colour) { return card >= WILD ? -1 : colour ? colour_of(card) : number_of(card); }

static void next_player(const Game *g, int seat, NextPlayer *np) {
    int s = next_seat(g, seat);
    np->laid = g->laid[s];
    np->colour = is_colour(phase_of(g, s));
    memset(np->wanted, 0, sizeof np->wanted);
    for (int k = 0; k < WILD; k++)
        if (g->taken[s][k]) np->wanted[key_of(k, np->colour)] = 1;
}

static int64_t skip_priority(const Game *g, int seat, int target) { /* (-phases, score, offset) */
    int n = g->num_players;
    return ((int64_t)(100 - g->completed[target]) << 40) + ((int64_t)g->scores[target] << 8) + (target - seat + n) % n;
}

static void best_discard(const Game *g, int seat, Move *out) {
    const uint8_t *hand = g->hands[seat];
    int n = g->num_players;
    memset(out, 0, sizeof *out);
    out->type = MOVE_DISCARD;
    out->target = -1;
    if (hand[SKIP]) { /* Skips before every other card, aimed at the leader */
        uint8_t targets[MAX_PLAYERS];
        int count = skip_targets(g, targets), best = -1;
        int64_t best_priority = 0;
        for (int i = 0; i < count; i++) {
            int64_t pr = skip_priority(g, seat, targets[i]);
            if (best < 0 || pr < best_priority) {
                best = targets[i];
                best_priority = pr;
            }
        }
        out->card = SKIP;
        out->target = (int8_t)best;
        return;
    }
    NextPlayer np;
    next_player(g, seat, &np);
    int actives = 0;
    for (int s = 0; s < n; s++) actives += g->active[s];
    /* _thrown_away: numbers (colours) of the pile's top two cards the lone opponent let go */
    uint8_t safe[NUM_NUMBERS + 1] = {0};
    int reading = !np.laid && actives == 2;
    if (reading)
        for (int i = g->num_discard - 2; i < g->num_discard; i++) {
            if (i < 0) continue;
            int c = g->discard[i];
            if (c < WILD && !np.wanted[key_of(c, np.colour)]) safe[key_of(c, np.colour)] = 1;
        }
    int laid = g->laid[seat], phase = phase_of(g, seat), per_group = g->rules.per_group;
    int colour = is_colour(phase);
    uint8_t profile[NUM_NUMBERS + 1];
    if (!laid) profile_of(hand, colour, profile);
    int memo_m[NUM_NUMBERS + 1], memo_w[NUM_NUMBERS + 1], memo[NUM_NUMBERS + 1] = {0};
    int best = -1;
    int64_t best_cost[7] = {0};
    for (int card = 0; card < SKIP; card++) {
        if (!hand[card]) continue;
        int feeds = np.laid ? (fits_anywhere(g, card) ? 2 : 0) : (key_of(card, np.colour) >= 0 && np.wanted[key_of(card, np.colour)] ? 1 : 0);
        int is_safe = reading && card < WILD && safe[key_of(card, np.colour)];
        int64_t cost[7];
        if (!laid) {
            int slot = slot_of(card, colour);
            if (!memo[slot]) {
                profile[slot]--;
                standing(profile, phase, per_group, &memo_m[slot], &memo_w[slot]);
                profile[slot]++;
                memo[slot] = 1;
            }
            int64_t c[7] = {memo_m[slot], feeds, -memo_w[slot], card == WILD, -is_safe, -points_of(card), card};
            memcpy(cost, c, sizeof c);
        } else {
            int64_t c[7] = {card == WILD, feeds, -is_safe, -points_of(card), card, 0, 0};
            memcpy(cost, c, sizeof c);
        }
        int better = best < 0;
        for (int i = 0; i < 7 && !better; i++) {
            if (cost[i] != best_cost[i]) {
                better = cost[i] < best_cost[i];
                break;
            }
        }
        if (better) {
            best = card;
            memcpy(best_cost, cost, sizeof cost);
        }
    }
    out->card = (int8_t)best;
}

/* ---------------------------------------------------------------- the whole decision */

static int wants_discard(const Game *g, int seat) {
    int top = g->discard[g->num_discard - 1];
    if (g->laid[seat]) return top == WILD || fits_anywhere(g, top);
    int phase = phase_of(g, seat), colour = is_colour(phase), per_group = g->rules.per_group;
    uint8_t profile[NUM_NUMBERS + 1];
    profile_of(g->hands[seat], colour, profile);
    int before, after, ways;
    standing(profile, phase, per_group, &before, &ways);
    profile[slot_of(top, colour)]++;
    standing(profile, phase, per_group, &after, &ways);
    return after < before;
}

/* HeuristicAgent.choose_move for the player to act, given the move in progress. */
void heuristic_choose(const Game *g, const Pending *p, Move *out) {
    int seat = g->current;
    memset(out, 0, sizeof *out);
    out->target = -1;
    if (g->stage == STAGE_DRAW) {
        out->type = MOVE_DRAW;
        out->from_discard = (int8_t)(can_draw_discard(g) && wants_discard(g, seat));
        return;
    }
    if (!g->laid[seat] && best_laydown(g, seat, p, out)) return;
    if (g->laid[seat] && best_hit(g, seat, p, out)) return;
    best_discard(g, seat, out);
}

int heuristic_action(const Game *g, const Pending *p) {
    Move m;
    heuristic_choose(g, p, &m);
    return next_action(g, p, &m);
}
