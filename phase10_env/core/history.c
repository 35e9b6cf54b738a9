/* What the other seats' moves this hand say of their hands, when they play like the heuristic.
 *
 * A world dealt for the search (each other seat's hidden cards and the draw pile) is unwound to
 * the hand's start: each seat's hand is walked back through its moves in the hand's public log
 * (a card it played goes back into its hand, a card it took from the discard pile comes out, and
 * a card it drew from the pile is one of those it holds then, chosen at random among those the
 * walk further back does not need). The hand is dealt
 * again from those starting hands and the pile's draws in their order, and replayed move by
 * move; at each move of another seat the heuristic is asked what it would have done with the
 * hand that seat holds in this world. A world in which a seat made m moves the heuristic would
 * not have keeps that seat's hand with weight slip^m: ``slip`` is the chance one allows that the
 * seat departed from the heuristic, a move at a time.
 *
 * Seats are weighed apart (a seat's moves depend only on its own hand and what is public), so a
 * set of replays gives each other seat its own weighed set of hands, and a sample of the search
 * deals each seat a hand drawn from its set (again if two seats' hands need more of a card than
 * is unseen), the draw pile being the rest. A hand whose draw pile was reshuffled from the
 * discards cannot be unwound (the reshuffle's order is lost); the search deals as before there.
 */
#include <math.h>
#include <stdlib.h>

#include "core.h"

static int same_move(const Move *a, const Move *b) {
    if (a->type != b->type) return 0;
    switch (a->type) {
    case MOVE_DRAW:
        return a->from_discard == b->from_discard;
    case MOVE_DISCARD:
        return a->card == b->card && a->target == b->target;
    case MOVE_HIT:
        return a->target == b->target && a->group == b->group && a->card == b->card &&
               (a->card != WILD || a->low_end == b->low_end);
    default:
        if (a->num_melds != b->num_melds) return 0;
        for (int i = 0; i < a->num_melds; i++)
            if (a->melds[i].kind != b->melds[i].kind || a->melds[i].value != b->melds[i].value ||
                a->melds[i].size != b->melds[i].size || memcmp(a->cards[i], b->cards[i], NUM_KINDS))
                return 0;
        return 1;
    }
}

/* For each draw from the pile in the log, what its seat's walk back must keep of each kind
 * there: the cards it took from the discard pile before, less those it played in between, at
 * the most (``need``, a row per move of the log; only draws' rows are written). */
static void needs_of(const LoggedMove *log, int n, uint8_t (*need)[NUM_KINDS]) {
    for (int i = 0; i < n; i++) {
        if (log[i].move.type != MOVE_DRAW || log[i].move.from_discard) continue;
        int run[NUM_KINDS] = {0}, most[NUM_KINDS] = {0}, seat = log[i].seat;
        for (int j = i - 1; j >= 0; j--) {
            const Move *e = &log[j].move;
            if (log[j].seat != seat || (e->type == MOVE_DRAW && !e->from_discard)) continue;
            if (e->type == MOVE_DRAW) {
                int c = log[j].top;
                if (++run[c] > most[c]) most[c] = run[c];
            } else if (e->type == MOVE_LAYDOWN) {
                for (int g = 0; g < e->num_melds; g++)
                    for (int k = 0; k < NUM_KINDS; k++) run[k] -= e->cards[g][k];
            } else {
                run[e->card]--;
            }
        }
        for (int k = 0; k < NUM_KINDS; k++) need[i][k] = (uint8_t)most[k];
    }
}

/* Walk ``hand`` (``seat``'s now) back to the hand's start; ``draws`` gets the cards it drew from
 * the pile, in order, each any card held then but what the walk further back needs (``need``).
 * -1: the log does not fit. */
static int unwind_seat(const LoggedMove *log, int n, const uint8_t (*need)[NUM_KINDS], int seat, uint8_t *hand,
                       uint8_t *draws, int *num_draws, Pcg64 *rng) {
    int d = 0;
    for (int i = 0; i < n; i++) d += log[i].seat == seat && log[i].move.type == MOVE_DRAW && !log[i].move.from_discard;
    if (d > DECK_SIZE) return -1;
    *num_draws = d;
    for (int i = n - 1; i >= 0; i--) {
        if (log[i].seat != seat) continue;
        const Move *m = &log[i].move;
        if (m->type == MOVE_DRAW && m->from_discard) {
            int c = log[i].top;
            if (!hand[c]) return -1;
            hand[c]--;
        } else if (m->type == MOVE_DRAW) {
            int weight[NUM_KINDS], total = 0;
            for (int k = 0; k < NUM_KINDS; k++) total += weight[k] = hand[k] > need[i][k] ? hand[k] - need[i][k] : 0;
            if (total <= 0) return -1;
            int pick = (int)pcg_below32(rng, (uint64_t)total), k = 0;
            while (pick >= weight[k]) pick -= weight[k++];
            hand[k]--;
            draws[--d] = (uint8_t)k;
        } else if (m->type == MOVE_LAYDOWN) {
            for (int g = 0; g < m->num_melds; g++)
                for (int k = 0; k < NUM_KINDS; k++) hand[k] = (uint8_t)(hand[k] + m->cards[g][k]);
        } else {
            hand[m->card]++;
        }
    }
    int size = 0;
    for (int k = 0; k < NUM_KINDS; k++) size += hand[k];
    return size == HAND_SIZE ? 0 : -1;
}

/* Whether ``m`` can be applied to ``g`` by the seat ``seat`` with the cards it holds (the
 * replay's guard against a log that does not fit, not a rules check). */
static int fits(const Game *g, int seat, int top, const Move *m) {
    if (g->stage == STAGE_GAME_OVER || g->current != seat) return 0;
    const uint8_t *hand = g->hands[seat];
    switch (m->type) {
    case MOVE_DRAW:
        if (g->stage != STAGE_DRAW) return 0;
        if (!m->from_discard) return g->num_draw > 0;
        return g->num_discard > 0 && g->discard[g->num_discard - 1] == top;
    case MOVE_DISCARD:
        return g->stage == STAGE_PLAY && hand[m->card] && m->target < g->num_players;
    case MOVE_HIT:
        return g->stage == STAGE_PLAY && hand[m->card] && m->target >= 0 && m->target < g->num_players &&
               m->group >= 0 && m->group < g->num_groups[m->target] &&
               group_accepts(&g->table[m->target][m->group], m->card, m->low_end);
    default:
        if (g->stage != STAGE_PLAY || g->laid[seat] || m->num_melds < 1 || m->num_melds > MAX_GROUPS) return 0;
        for (int k = 0; k < NUM_KINDS; k++) {
            int need = 0;
            for (int i = 0; i < m->num_melds; i++) need += m->cards[i][k];
            if (need > hand[k]) return 0;
        }
        return 1;
    }
}

/* Replay the hand in the world ``w`` (complete: every hand and the draw pile dealt) from its
 * start; ``unlike[s]`` counts the moves of each seat but ``me`` that the heuristic would not
 * have made. 0: done; 1: the hand's pile was reshuffled (cannot be unwound); -1: the log does
 * not fit the world. */
static int replay_hand(const Game *w, int me, const LoggedMove *log, int n, const uint8_t (*need)[NUM_KINDS], Pcg64 *rng,
                       int *unlike) {
    int players = 0, seats[MAX_PLAYERS], seat = w->dealer, total_draws = 0, num_draws[MAX_PLAYERS];
    uint8_t start[MAX_PLAYERS][NUM_KINDS], draws[MAX_PLAYERS][DECK_SIZE];
    if (log[0].top < 0) return -1; /* a hand begins with a card on the discard pile */
    for (int s = 0; s < w->num_players; s++) players += w->active[s];
    for (int s = 0; s < players; s++) seats[s] = seat = next_seat(w, seat);
    for (int s = 0; s < players; s++) {
        int p = seats[s];
        memcpy(start[p], w->hands[p], NUM_KINDS);
        if (unwind_seat(log, n, need, p, start[p], draws[p], &num_draws[p], rng)) return -1;
        total_draws += num_draws[p];
    }
    int pile = DECK_SIZE - HAND_SIZE * players - 1;
    if (total_draws + w->num_draw != pile) return total_draws + w->num_draw > pile ? 1 : -1; /* more: reshuffled */
    /* the deck, dealt from its end: the starting hands a card a seat at a time, the discard
     * pile's first card, then the pile's draws in the order they were made, the pile now last */
    uint8_t deck[DECK_SIZE];
    int at = DECK_SIZE, next[MAX_PLAYERS] = {0};
    for (int r = 0; r < HAND_SIZE; r++)
        for (int s = 0; s < players; s++) {
            int p = seats[s], k = 0;
            while (!start[p][k]) k++;
            start[p][k]--;
            deck[--at] = (uint8_t)k;
        }
    deck[--at] = (uint8_t)log[0].top;
    for (int i = 0; i < n; i++)
        if (log[i].move.type == MOVE_DRAW && !log[i].move.from_discard) {
            int p = log[i].seat;
            deck[--at] = draws[p][next[p]++];
        }
    memcpy(deck, w->draw, w->num_draw);
    int counts[NUM_KINDS] = {0};
    for (int i = 0; i < DECK_SIZE; i++) counts[deck[i]]++;
    for (int k = 0; k < NUM_KINDS; k++)
        if (counts[k] != (k == WILD ? 8 : k == SKIP ? 4 : 2)) return -1;
    Game g = *w;
    redeal(&g, deck);
    memset(unlike, 0, MAX_PLAYERS * sizeof *unlike);
    Pending none;
    memset(&none, 0, sizeof none);
    for (int i = 0; i < n; i++) {
        const Move *m = &log[i].move;
        int s = log[i].seat, hand = g.hand_number;
        if (!fits(&g, s, log[i].top, m)) return -1;
        if (s != me) {
            Move h;
            heuristic_choose(&g, &none, &h);
            unlike[s] += !same_move(&h, m);
        }
        Events ev;
        apply_move(&g, m, &ev);
        if (g.hand_number != hand) return -1;
    }
    if (g.current != w->current || g.stage != w->stage || g.num_discard != w->num_discard ||
        memcmp(g.discard, w->discard, g.num_discard) || memcmp(g.table_counts, w->table_counts, NUM_KINDS) ||
        memcmp(g.hands, w->hands, sizeof g.hands))
        return -1;
    return 0;
}

int history_build(const Slot *root, int seat, const LoggedMove *log, int n, int replays, double slip,
                  const double (*weights)[NUM_KINDS], Pcg64 *rng, History *out) {
    out->count = 0;
    if (n <= 0 || replays <= 0) return 1;
    if (replays > HISTORY_MAX) replays = HISTORY_MAX;
    uint8_t (*need)[NUM_KINDS] = malloc((size_t)n * NUM_KINDS);
    if (!need) return -2;
    needs_of(log, n, need);
    double total[MAX_PLAYERS] = {0};
    int done = 0;
    for (int r = 0; r < replays; r++) {
        Slot world = *root;
        if (weights)
            slot_determinize_weighted(&world, seat, weights, rng);
        else
            slot_determinize(&world, seat, rng);
        int unlike[MAX_PLAYERS];
        done = replay_hand(&world.g, seat, log, n, (const uint8_t (*)[NUM_KINDS])need, rng, unlike);
        if (done) break;
        memcpy(out->hands[r], world.g.hands, sizeof world.g.hands);
        for (int p = 0; p < root->g.num_players; p++) {
            out->unlike[r][p] = (int16_t)unlike[p];
            total[p] += pow(slip, unlike[p]);
            out->cumulative[p][r] = total[p];
        }
        out->count = r + 1;
    }
    free(need);
    if (done) out->count = 0;
    return done;
}

static int pick(const double *cumulative, int count, Pcg64 *rng) {
    double x = (double)(pcg_next64(rng) >> 11) * (1.0 / 9007199254740992.0) * cumulative[count - 1];
    int lo = 0, hi = count - 1;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (cumulative[mid] > x) hi = mid;
        else lo = mid + 1;
    }
    return lo;
}

int history_deal(Slot *s, int seat, const History *h, Pcg64 *rng) {
    Game *g = &s->g;
    uint8_t pool[NUM_KINDS];
    unseen_pool(g, seat, pool);
    for (int tries = 0; tries < HISTORY_DEAL_TRIES; tries++) {
        uint8_t left[NUM_KINDS];
        int chosen[MAX_PLAYERS], ok = 1;
        memcpy(left, pool, NUM_KINDS);
        for (int p = 0; p < g->num_players && ok; p++) {
            if (p == seat || !g->active[p]) continue;
            chosen[p] = pick(h->cumulative[p], h->count, rng);
            const uint8_t *hand = h->hands[chosen[p]][p];
            for (int k = 0; k < NUM_KINDS && ok; k++) {
                int hidden = hand[k] - g->taken[p][k];
                if (hidden > left[k]) ok = 0;
                else left[k] = (uint8_t)(left[k] - hidden);
            }
        }
        if (!ok) continue;
        for (int p = 0; p < g->num_players; p++) {
            if (p == seat || !g->active[p]) continue;
            memcpy(g->hands[p], h->hands[chosen[p]][p], NUM_KINDS);
            count_numbers(g, p);
        }
        deal_counted_pile(g, left, rng);
        return 0;
    }
    return 1;
}
