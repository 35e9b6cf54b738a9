/* Leaf values: what a hand is expected to be worth to a seat from where it stands, read from a
 * table instead of played out to its end.
 *
 * The search's play-outs to the end of the hand are noisy (a hand's worth swings with every
 * draw to come), so small differences between moves drown. A play-out cut short after a few
 * turns and valued by the table keeps the near consequences of a move (the card it gave away,
 * what it drew) and averages the far ones over many heuristic hands played beforehand.
 *
 * The table is indexed by a coarse picture of a turn's start, leaf_key: the seat's standing
 * and its strongest opponent's (phase down: cards in hand that no group on the table takes;
 * not down: cards missing from the phase, how many cards in the draw pile would bring it one
 * nearer and whether one is near the top), whether the seat is to move, whether
 * either is on its last phase, and the number of players. It holds, per key, the mean of the
 * hand's worth (hand_value's two parts: phases made, points) over heuristic hands
 * (leaf_record, which the table's trainer, agents/training/leaf.py, sums). */
#include "core.h"

#define LAID_CODES 11   /* phase down: 0-10 cards in hand no group on the table takes (more counts as 10) */
#define MISSING_CODES 7 /* not down: 0-6 cards missing (more counts as 6) */
#define OUTS_CODES 4    /* cards in the draw pile that would bring the phase a card nearer: 0-3, 4-7, 8-11, 12 or more */
#define NEAR_CARDS 4    /* ... and whether one is among the pile's top NEAR_CARDS */
#define SEAT_CODES (LAID_CODES + MISSING_CODES * OUTS_CODES * 2)
_Static_assert(LEAF_KEYS == (MAX_PLAYERS - 1) * SEAT_CODES * SEAT_CODES * 2 * 2, "LEAF_KEYS in core.h");

static int takes(const Game *g, int card) {
    for (int s = 0; s < g->num_players; s++)
        for (int i = 0; i < g->num_groups[s]; i++)
            if (group_accepts(&g->table[s][i], card, 0) || group_accepts(&g->table[s][i], card, 1)) return 1;
    return 0;
}

/* The kinds of card one more of which would leave ``missing`` less than it is (kinds alike for
 * the phase, a number's or a colour's, are tried once). */
static void outs(const Game *g, int seat, int missing, uint8_t *out) {
    const Phase *ph = &PHASES[phase_of(g, seat)];
    uint8_t hand[NUM_KINDS];
    memcpy(hand, g->hands[seat], NUM_KINDS);
    memset(out, 0, NUM_KINDS);
    int colour = ph->req[0].kind == COLOUR, ways;
    for (int i = 0; i < (colour ? NUM_COLOURS : NUM_NUMBERS); i++) {
        int probe = colour ? i * NUM_NUMBERS : i;
        hand[probe]++;
        int nearer = phase_progress(hand, ph, g->rules.per_group, &ways) < missing;
        hand[probe]--;
        for (int k = 0; k < NUM_NATURALS && nearer; k++) out[k] |= colour ? colour_of(k) == i : number_of(k) == i + 1;
    }
    out[WILD] = missing > 0;
}

static int seat_code(const Game *g, int seat) {
    const uint8_t *hand = g->hands[seat];
    if (g->laid[seat]) {
        int loose = 0;
        for (int k = 0; k < NUM_KINDS; k++)
            if (hand[k] && !takes(g, k)) loose += hand[k];
        return loose < LAID_CODES ? loose : LAID_CODES - 1;
    }
    int ways, missing = phase_progress(hand, &PHASES[phase_of(g, seat)], g->rules.per_group, &ways);
    uint8_t out[NUM_KINDS];
    outs(g, seat, missing, out);
    int count = 0, near = 0;
    for (int i = 0; i < g->num_draw; i++)
        if (out[g->draw[i]]) count++, near |= i >= g->num_draw - NEAR_CARDS;
    if (missing >= MISSING_CODES) missing = MISSING_CODES - 1;
    int o = count / 4 < OUTS_CODES ? count / 4 : OUTS_CODES - 1;
    return LAID_CODES + (missing * OUTS_CODES + o) * 2 + near;
}

static int last_phase(const Game *g, int seat) { return g->completed[seat] >= g->rules.phases_to_win - 1; }

int leaf_key(const Game *g, int seat) {
    int mine = seat_code(g, seat), theirs = -1, last = last_phase(g, seat);
    for (int s = 0; s < g->num_players; s++) {
        if (s == seat || !g->active[s]) continue;
        int code = seat_code(g, s); /* the strongest: down with fewest cards, else fewest missing */
        if (theirs < 0 || code < theirs) theirs = code;
        last |= last_phase(g, s);
    }
    if (theirs < 0) theirs = 0;
    int players = g->num_players - 2;
    return (((players * SEAT_CODES + mine) * SEAT_CODES + theirs) * 2 + last) * 2 + (g->current == seat);
}

/* Heuristic play until the hand ends (1) or ``turns`` more turns have begun after the first
 * turn start (0: stops at the next turn's start). */
int playout_turns(Slot *s, int turns) {
    Game *g = &s->g;
    int hand = g->hand_number, begun = 0, was_draw = 0;
    for (int actions = 0; actions < PLAYOUT_HAND_ACTIONS; actions++) {
        if (g->stage == STAGE_GAME_OVER || g->hand_number != hand) return 1;
        int at_draw = g->stage == STAGE_DRAW && s->p.kind == PENDING_NONE;
        if (at_draw && !was_draw && begun++ == turns) return 0;
        was_draw = at_draw;
        Move move;
        if (decode_action(g, &s->p, heuristic_action(g, &s->p), &move)) apply_move(g, &move, &s->events);
    }
    return 1;
}

/* Play slot's game to its end with the heuristic, adding every turn start's (key, worth) for
 * each active seat to the sums: count[key] += 1, made[key] += phases part, points[key] +=
 * points part (hand_value with points weight 1, split). */
void leaf_record(Slot *s, int64_t *count, double *made, double *points) {
    Game *g = &s->g;
    int keys[PLAYOUT_HAND_ACTIONS][MAX_PLAYERS], phases[MAX_PLAYERS], scores[MAX_PLAYERS];
    while (g->stage != STAGE_GAME_OVER) {
        int n = g->num_players, hand = g->hand_number, records = 0, was_draw = 0;
        for (int p = 0; p < n; p++) phases[p] = g->completed[p], scores[p] = g->scores[p];
        for (int actions = 0; g->stage != STAGE_GAME_OVER && g->hand_number == hand; actions++) {
            if (actions == PLAYOUT_HAND_ACTIONS) return; /* a hand that never ends: its turns are not recorded */
            int at_draw = g->stage == STAGE_DRAW && s->p.kind == PENDING_NONE;
            if (at_draw && !was_draw) {
                for (int p = 0; p < n; p++) keys[records][p] = g->active[p] ? leaf_key(g, p) : -1;
                records++;
            }
            was_draw = at_draw;
            Move move;
            if (decode_action(g, &s->p, heuristic_action(g, &s->p), &move)) apply_move(g, &move, &s->events);
        }
        for (int p = 0; p < n; p++) {
            double phase_part = hand_value(g, p, phases, scores, 0), points_part = hand_value(g, p, phases, scores, 1) - phase_part;
            for (int r = 0; r < records; r++) {
                int k = keys[r][p];
                if (k < 0) continue;
                count[k]++;
                made[k] += phase_part;
                points[k] += points_part;
            }
        }
    }
}
