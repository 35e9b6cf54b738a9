/* The observation vector of one seat (phase10_env/observation.py) and the optional planning
 * features (phase10_env/planning.py). Layout offsets are those of observation.LAYOUT; the
 * binding checks them against the Python definitions when it loads. */
#include "core.h"

enum {
    O_HAND = 0, O_TOP = 50, O_DISCARDS = 100, O_TABLE = 150, O_SEATS = 200, SEAT_BLOCK = 68, SEAT_VALUES = 22,
    GROUP_VALUES = 23, O_PENDING_GROUPS = 608, O_PENDING_HIT = 654, O_PENDING_CARDS = 674, O_STAGE = 724, O_GAME = 728,
};

static void group_values(float *row, int kind, int value, int low, int high, int size) {
    row[0] = 1.0f;
    row[1 + kind] = 1.0f;
    if (kind == SET) {
        row[4 + value - 1] = 1.0f;
    } else if (kind == RUN) {
        for (int num = low; num <= high; num++) row[4 + num - 1] = 1.0f;
    } else {
        row[16 + value] = 1.0f;
    }
    row[20] = (float)((double)size / NUM_NUMBERS);
    row[21] = (float)(kind == RUN && low > 1);
    row[22] = (float)(kind != RUN || high < NUM_NUMBERS);
}

static void meld_values(float *row, Meld m) { group_values(row, m.kind, m.value, m.value, m.value + m.size - 1, m.size); }

void observe(const Game *g, const Pending *p, int seat, float *out) {
    memset(out, 0, OBS_SIZE * sizeof(float));
    int n = g->num_players;
    for (int k = 0; k < NUM_KINDS; k++) {
        out[O_HAND + k] = g->hands[seat][k];
        out[O_DISCARDS + k] = g->discard_counts[k];
        out[O_TABLE + k] = g->table_counts[k];
    }
    if (g->num_discard) out[O_TOP + g->discard[g->num_discard - 1]] = 1.0f;
    int to_win = g->rules.phases_to_win;
    for (int o = 0; o < n; o++) {
        int s = (seat + o) % n;
        float *row = out + O_SEATS + o * SEAT_BLOCK;
        row[0] = 1.0f;
        row[1] = g->active[s];
        row[2 + phase_of(g, s) - 1] = 1.0f;
        row[12] = (float)((double)g->completed[s] / to_win);
        row[13] = (float)((double)(to_win - g->completed[s]) / to_win);
        row[14] = g->laid[s];
        row[15] = g->hand_size[s];
        row[16] = (float)((double)(g->scores[s] < 10000 ? g->scores[s] : 10000) / 100);
        row[17] = g->skip_pending[s];
        row[18] = g->lost_turn[s];
        row[19] = g->skipped[s];
        row[20] = g->dealer == s;
        row[21] = g->current == s && g->stage != STAGE_GAME_OVER;
        for (int gi = 0; gi < g->num_groups[s]; gi++) {
            const Group *grp = &g->table[s][gi];
            group_values(row + SEAT_VALUES + gi * GROUP_VALUES, grp->kind, grp->value, grp->low, grp->high, grp->n);
        }
    }
    int groups = 0;
    if (p->kind == PENDING_LAYDOWN) {
        if (p->num_laid) meld_values(out + O_PENDING_GROUPS + GROUP_VALUES * groups++, p->laid);
        if (p->has_meld) meld_values(out + O_PENDING_GROUPS + GROUP_VALUES * groups++, p->meld);
        for (int k = 0; k < NUM_KINDS; k++) out[O_PENDING_CARDS + k] = (float)(p->laid_cards[k] + p->picked[k]);
    } else if (p->kind == PENDING_HIT) {
        out[O_PENDING_HIT + (p->hit_target - g->current + n) % n] = 1.0f;
        out[O_PENDING_HIT + MAX_PLAYERS + p->hit_group] = 1.0f;
        out[O_PENDING_HIT + MAX_PLAYERS + MAX_GROUPS + p->hit_number - 1] = 1.0f;
    }
    int choosing = p->kind == PENDING_HIT || (p->kind == PENDING_LAYDOWN && p->has_meld);
    out[O_STAGE] = g->stage == STAGE_DRAW;
    out[O_STAGE + 1] = g->stage == STAGE_PLAY && p->kind == PENDING_NONE;
    out[O_STAGE + 2] = p->kind != PENDING_NONE && !choosing;
    out[O_STAGE + 3] = choosing;
    out[O_GAME] = g->replay;
    out[O_GAME + 1] = (float)((double)g->num_draw / DECK_SIZE);
    out[O_GAME + 2] = (float)((double)g->num_discard / DECK_SIZE);
}

/* planning.planning_features */
enum { P_BELOW_TOP = 4 + 2 * NUM_KINDS, P_NEXT_TOOK = 4 + 3 * NUM_KINDS };

void planning_features(const Game *g, int seat, float *out) {
    memset(out, 0, PLANNING_SIZE * sizeof(float));
    if (g->num_discard >= 2) out[P_BELOW_TOP + g->discard[g->num_discard - 2]] = 1.0f;
    int next = next_seat(g, seat);
    for (int k = 0; k < NUM_KINDS; k++) out[P_NEXT_TOOK + k] = g->taken[next][k];
    if (g->laid[seat] || !g->active[seat]) return;
    uint8_t hand[NUM_KINDS];
    memcpy(hand, g->hands[seat], NUM_KINDS);
    const Phase *ph = &PHASES[phase_of(g, seat)];
    int per_group = g->rules.per_group, ways;
    int missing = phase_progress(hand, ph, per_group, &ways);
    out[0] = (float)(missing / 10.0);
    out[1] = (float)(ways / 12.0);
    if (g->num_discard && g->discard[g->num_discard - 1] != SKIP) {
        int top = g->discard[g->num_discard - 1];
        hand[top]++;
        int m = phase_progress(hand, ph, per_group, &ways);
        hand[top]--;
        out[2] = (float)(m / 10.0);
        out[3] = (float)(ways / 12.0);
    }
    int by_colour = ph->req[0].kind == COLOUR;
    int seen_m[NUM_KINDS + 1], seen_w[NUM_KINDS + 1], seen[NUM_KINDS + 1];
    memset(seen, 0, sizeof seen);
    for (int k = 0; k < NUM_KINDS; k++) {
        if (!hand[k]) continue;
        int key = k >= WILD ? k : (by_colour ? colour_of(k) : number_of(k));
        if (!seen[key]) {
            hand[k]--;
            seen_m[key] = phase_progress(hand, ph, per_group, &seen_w[key]);
            hand[k]++;
            seen[key] = 1;
        }
        out[4 + k] = (float)((seen_m[key] + 1) / 11.0);
        out[4 + NUM_KINDS + k] = (float)(seen_w[key] / 12.0);
    }
}
