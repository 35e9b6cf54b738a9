/* What one seat may infer about another's hidden cards: the features a belief model reads
 * (public information and the seat's own hand only), the cards it could not see (the model's
 * targets, for training), and determinization weighted by such a model's beliefs.
 *
 * The unseen pool of seat ``me``: every card but its own hand, the discard pile, the table and
 * the cards others were seen taking from the discard pile. Each other seat's hidden cards (its
 * hand less those it was seen taking) and the draw pile share it. */
#include "core.h"

void unseen_pool(const Game *g, int me, uint8_t *pool) {
    for (int k = 0; k < NUM_KINDS; k++) {
        int count = (k == WILD ? 8 : k == SKIP ? 4 : 2) - g->hands[me][k] - g->discard_counts[k] - g->table_counts[k];
        for (int p = 0; p < g->num_players; p++)
            if (p != me) count -= g->taken[p][k];
        pool[k] = (uint8_t)count;
    }
}

static void one_hot(float *out, int i) { out[i] = 1.0f; }

void belief_features(const Game *g, int me, int p, float *out) {
    memset(out, 0, BELIEF_FEATURES * sizeof(float));
    int n = g->num_players, hidden = g->hand_size[p];
    uint8_t pool[NUM_KINDS];
    unseen_pool(g, me, pool);
    float *o = out;
    for (int k = 0; k < NUM_KINDS; k++) {
        o[k] = g->hands[me][k];
        o[NUM_KINDS + k] = pool[k];
        o[2 * NUM_KINDS + k] = g->discard_counts[k];
        o[3 * NUM_KINDS + k] = g->table_counts[k];
        o[4 * NUM_KINDS + k] = g->taken[p][k];
        o[5 * NUM_KINDS + k] = g->discarded[p][k];
        o[6 * NUM_KINDS + k] = g->passed[p][k];
        hidden -= g->taken[p][k];
    }
    o += 7 * NUM_KINDS;
    for (int i = 0; i < BELIEF_PILE_TOP && i < g->num_discard; i++) one_hot(o + i * NUM_KINDS, g->discard[g->num_discard - 1 - i]);
    o += BELIEF_PILE_TOP * NUM_KINDS;
    one_hot(o, phase_of(g, p) - 1);
    one_hot(o + 10, phase_of(g, me) - 1);
    one_hot(o + 20, (p - me + n) % n - 1); /* 0-4: the other seat's offset */
    o += 25;
    o[0] = g->laid[p];
    o[1] = g->laid[me];
    o[2] = (float)hidden;
    o[3] = g->hand_size[p];
    o[4] = (float)((double)g->num_draw / DECK_SIZE);
    o[5] = (float)((double)g->completed[p] / 10);
    o[6] = (float)((double)g->completed[me] / 10);
    o[7] = (float)((double)(g->scores[p] < 10000 ? g->scores[p] : 10000) / 100);
    o[8] = g->skip_pending[p];
    o[9] = (float)n / MAX_PLAYERS;
}

void belief_targets(const Game *g, int me, int p, float *hidden, float *unseen) {
    uint8_t pool[NUM_KINDS];
    unseen_pool(g, me, pool);
    for (int k = 0; k < NUM_KINDS; k++) {
        hidden[k] = (float)(g->hands[p][k] - g->taken[p][k]);
        unseen[k] = pool[k];
    }
}

/* Deal again what ``seat`` cannot see, each other seat's hidden cards drawn from the unseen pool
 * one at a time with chances proportional to (cards of a kind left) x weights[p][kind]; the
 * draw pile is the rest, shuffled. With every weight equal this is slot_determinize's uniform
 * deal (in another order of draws). */
void slot_determinize_weighted(Slot *s, int seat, const double (*weights)[NUM_KINDS], Pcg64 *rng) {
    Game *g = &s->g;
    uint8_t pool[NUM_KINDS];
    unseen_pool(g, seat, pool);
    int n = g->num_players;
    for (int p = 0; p < n; p++) {
        if (p == seat) continue;
        int hidden = g->hand_size[p];
        memcpy(g->hands[p], g->taken[p], NUM_KINDS);
        for (int k = 0; k < NUM_KINDS; k++) hidden -= g->taken[p][k];
        for (int c = 0; c < hidden; c++) {
            double total = 0, weight[NUM_KINDS];
            for (int k = 0; k < NUM_KINDS; k++) total += weight[k] = pool[k] * (weights[p][k] > 0 ? weights[p][k] : 0);
            if (total <= 0) /* no weight on any card left: every card left alike */
                for (int k = 0; k < NUM_KINDS; k++) total += weight[k] = pool[k];
            double pick = (double)(pcg_next64(rng) >> 11) * (1.0 / 9007199254740992.0) * total;
            int kind = -1;
            for (int k = 0; k < NUM_KINDS; k++) {
                if (weight[k] <= 0) continue;
                kind = k;
                pick -= weight[k];
                if (pick < 0) break;
            }
            pool[kind]--;
            g->hands[p][kind]++;
        }
        count_numbers(g, p);
    }
    deal_counted_pile(g, pool, rng);
}

/* Whether a dealt world agrees with what the other seats threw away: each one's last discard
 * (but a Skip) is what the heuristic would discard from that seat's hand now with the card back
 * in it (the table and piles as they are now, an approximation where they changed since). */
int consistent_with_discards(const Slot *s, int seat) {
    for (int p = 0; p < s->g.num_players; p++) {
        int d = s->g.last_discard[p];
        if (p == seat || d < 0 || !s->g.active[p]) continue;
        Slot w = *s;
        Game *g = &w.g;
        g->hands[p][d]++;
        g->hand_size[p]++;
        if (d < NUM_NATURALS) g->supply[p][d % NUM_NUMBERS + 1]++;
        if (g->num_discard && g->discard[g->num_discard - 1] == d) {
            g->num_discard--;
            g->discard_counts[d]--;
        }
        g->current = (uint8_t)p;
        g->stage = STAGE_PLAY;
        memset(&w.p, 0, sizeof w.p);
        Move m;
        heuristic_choose(g, &w.p, &m);
        if (m.type != MOVE_DISCARD || m.card != d) return 0;
    }
    return 1;
}
