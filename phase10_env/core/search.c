/* Rollout search for one decision (agents/policies/mcts.py's method, in C): the candidates are
 * played in the same samples of what the seat to act cannot see (common random numbers), every
 * seat then plays the heuristic to the end of the hand, and each candidate's gain over the
 * heuristic's own choice is averaged sample by sample; candidates leave the race once clearly
 * worse, and a move other than the heuristic's is played only when its mean gain clears
 * ``confidence`` standard errors. The worth of a hand is hand_value (see module.c). */
#include <math.h>

#include "core.h"

double hand_value(const Game *g, int seat, const int *phases, const int *scores, double weight) {
    int n = g->num_players;
    if (g->stage == STAGE_GAME_OVER) return (g->winners >> seat) & 1 ? 2.0 : -2.0;
    int best = -1, best_made = 0, best_added = 0;
    for (int s = 0; s < n; s++) {
        if (s == seat || !g->active[s]) continue;
        int made = g->completed[s] - phases[s], added = g->scores[s] - scores[s];
        if (best < 0 || made > best_made || (made == best_made && added < best_added)) {
            best = s;
            best_made = made;
            best_added = added;
        }
    }
    int made = g->completed[seat] - phases[seat], added = g->scores[seat] - scores[seat];
    return (double)(made - best_made) + weight * (double)(best_added - added) / 100;
}

int win_model_size(int hidden) { return 3 * hidden + hidden + 2 * hidden * hidden + hidden + hidden + 1; }

/* The win chance of ``seat`` where a play-out stopped, as agents/training/win_model.py's
 * win_value (the reference): 2 won, -2 lost at the game's end; else 4p - 2 for p the monotone
 * network's: each other seat read alone by the first layer (the seat's phases, minus that
 * seat's, the lead over it; an inactive seat as 0 phases, 1,000 points behind), then the second
 * layer on those readings' sum and least. */
double win_value(const Game *g, int seat, const WinModel *model) {
    if (g->stage == STAGE_GAME_OVER) return (g->winners >> seat) & 1 ? 2.0 : -2.0;
    int h = model->hidden;
    const double *w0 = model->weights, *b0 = w0 + 3 * h, *w1 = b0 + h, *b1 = w1 + 2 * h * h, *w2 = b1 + h, *b2 = w2 + h;
    double pooled[2 * WIN_HIDDEN_MAX]; /* the sum over the other seats, then the least */
    for (int j = 0; j < h; j++) pooled[j] = 0, pooled[h + j] = INFINITY;
    for (int s = 0; s < g->num_players; s++) {
        if (s == seat) continue;
        double x[3] = {g->completed[seat] / 10.0, g->active[s] ? -g->completed[s] / 10.0 : 0.0,
                       (g->active[s] ? g->scores[s] - g->scores[seat] : 1000) / 300.0};
        for (int j = 0; j < h; j++) {
            double e = tanh(x[0] * w0[j] + x[1] * w0[h + j] + x[2] * w0[2 * h + j] + b0[j]);
            pooled[j] += e;
            if (e < pooled[h + j]) pooled[h + j] = e;
        }
    }
    double z = b2[0];
    for (int j = 0; j < h; j++) {
        double a = b1[j];
        for (int i = 0; i < 2 * h; i++) a += pooled[i] * w1[i * h + j];
        z += tanh(a) * w2[j];
    }
    return 4.0 / (1.0 + exp(-z)) - 2.0;
}

/* Deck streams (agents/policies/streams.py, the reference, says why the odds are unchanged):
 * each position of the draw pile belongs to a seat, in turn order from the next to draw where
 * the play-out starts, and a seat drawing from the pile takes the topmost card it owns (the top
 * card when it owns none), so two candidates' play-outs draw the same cards seat by seat even
 * where one seat takes a discard in one of them and draws in the other. */
typedef struct {
    uint8_t owner[DECK_SIZE]; /* by position in g->draw (top last) */
    int size;                 /* the pile's size when last drawn from (a reshuffle grows it) */
} Streams;

static void streams_assign(Streams *st, const Game *g, int first) {
    int seat = first;
    for (int i = g->num_draw - 1; i >= 0; i--) {
        st->owner[i] = (uint8_t)seat;
        seat = next_seat(g, seat);
    }
    st->size = g->num_draw;
}

/* The seat to act is about to draw from the pile: bring its topmost card to the top. A pile
 * reshuffled from the discards is owned afresh, from that seat on. */
static void streams_draw(Streams *st, Game *g) {
    int seat = g->current, top = g->num_draw - 1;
    if (g->num_draw > st->size) streams_assign(st, g, seat);
    for (int i = top; i >= 0; i--)
        if (st->owner[i] == seat) {
            uint8_t card = g->draw[i];
            memmove(g->draw + i, g->draw + i + 1, (size_t)(top - i));
            memmove(st->owner + i, st->owner + i + 1, (size_t)(top - i));
            g->draw[top] = card;
            st->owner[top] = (uint8_t)seat;
            break;
        }
    st->size = top;
}

static void act_streams(Slot *s, Streams *st, int action) {
    Move move;
    if (action == DRAW_DECK && s->p.kind == PENDING_NONE && s->g.stage == STAGE_DRAW) streams_draw(st, &s->g);
    if (decode_action(&s->g, &s->p, action, &move)) apply_move(&s->g, &move, &s->events);
}

void slot_playout_streams(Slot *s, int action) {
    Game *g = &s->g;
    Streams st;
    streams_assign(&st, g, g->stage == STAGE_DRAW ? g->current : next_seat(g, g->current));
    int hand = g->hand_number;
    act_streams(s, &st, action);
    for (int actions = 0; g->stage != STAGE_GAME_OVER && g->hand_number == hand && actions < PLAYOUT_HAND_ACTIONS;
         actions++)
        act_streams(s, &st, heuristic_action(g, &s->p));
}

/* The candidates of a decision, the heuristic's first; 1 when there is nothing to search. With
 * ``plays``, a lay-down, a hit or a Skip of the heuristic's is searched too: against every
 * discard (holding the play back this turn) and every other Skip target. */
static int candidates(const Slot *root, const SearchSettings *cfg, int *out) {
    const Game *g = &root->g;
    int seat = g->current, h = heuristic_action(g, &root->p), count = 0;
    out[count++] = h;
    if ((g->laid[seat] && !cfg->after_down) || root->p.kind != PENDING_NONE) return count;
    uint8_t mask[NUM_ACTIONS];
    legal_mask(g, &root->p, mask);
    if (g->stage == STAGE_DRAW) {
        for (int a = DRAW_DECK; a <= DRAW_DISCARD; a++)
            if (mask[a] && a != h) out[count++] = a;
        return count;
    }
    if (!cfg->plays && (h < DISCARD_FIRST || h > DISCARD_WILD)) return count; /* a lay-down, a hit or a Skip */
    for (int a = DISCARD_FIRST; a <= (cfg->plays ? SKIP_NO_EFFECT : DISCARD_WILD); a++)
        if (mask[a] && a != h) out[count++] = a;
    return count;
}

int search_action(const Slot *root, const SearchSettings *cfg, const double (*weights)[NUM_KINDS],
                  const History *history, Pcg64 *rng, SearchStats *stats) {
    int cand[64], k = candidates(root, cfg, cand), seat = root->g.current, n = root->g.num_players;
    if (stats) {
        stats->candidates = k;
        stats->samples = 0;
    }
    if (k == 1) return cand[0];
    int phases[MAX_PLAYERS], scores[MAX_PLAYERS];
    for (int s = 0; s < n; s++) {
        phases[s] = root->g.completed[s];
        scores[s] = root->g.scores[s];
    }
    double sum[64] = {0}, squares[64] = {0};
    int live[64], alive = k - 1, zero[64];
    for (int i = 1; i < k; i++) live[i] = 1, zero[i] = 1;
    Slot sample, world;
    int drawn = 0;
    while (drawn < cfg->samples && alive) {
        for (int tries = 0;; tries++) {
            sample = *root;
            if (cfg->peek) { /* a search that sees every hand: the draw pile dealt anew, nothing else */
                deal_draw_pile(&sample.g, sample.g.draw, sample.g.num_draw, rng);
                break;
            }
            if (history && history->count) {
                if (!history_deal(&sample, seat, history, rng)) break;
                /* no fit among the weighed hands: dealt as without them */
            }
            if (weights)
                slot_determinize_weighted(&sample, seat, weights, rng);
            else
                slot_determinize(&sample, seat, rng);
            if (tries + 1 >= cfg->consistent_tries || consistent_with_discards(&sample, seat)) break;
        }
        uint64_t seed = pcg_next64(rng); /* the play-outs' own generator (random play-outs only) */
        double base = 0;
        for (int i = 0; i < k; i++) {
            if (i && !live[i]) continue;
            world = sample;
            if (cfg->streams) {
                slot_playout_streams(&world, cand[i]);
            } else {
                slot_act(&world, cand[i]);
                Pcg64 playout_rng;
                pcg_seed(&playout_rng, seed);
                slot_playout(&world, 1, 0, &playout_rng);
            }
            double v = cfg->win_model.weights ? win_value(&world.g, seat, &cfg->win_model)
                                      : hand_value(&world.g, seat, phases, scores, cfg->points_weight);
            if (!i) {
                base = v;
                continue;
            }
            double gain = v - base;
            sum[i] += gain;
            squares[i] += gain * gain;
            if (gain != 0) zero[i] = 0;
        }
        drawn++;
        if (drawn >= cfg->min_samples)
            for (int i = 1; i < k; i++) {
                if (!live[i]) continue;
                double mean = sum[i] / drawn, var = (squares[i] - drawn * mean * mean) / (drawn - 1);
                double upper = mean + cfg->confidence * sqrt(var > 0 ? var / drawn : 0);
                if (zero[i] || upper <= 0) {
                    live[i] = 0;
                    alive--;
                }
            }
    }
    if (stats) stats->samples = drawn;
    int best = 0;
    double best_lower = 0;
    for (int i = 1; i < k; i++) {
        if (!live[i] && zero[i]) continue;
        double mean = sum[i] / drawn, var = drawn > 1 ? (squares[i] - drawn * mean * mean) / (drawn - 1) : INFINITY;
        double lower = mean - cfg->confidence * sqrt(var > 0 ? var / drawn : 0);
        if (lower > best_lower) {
            best_lower = lower;
            best = i;
        }
    }
    return cand[best];
}
