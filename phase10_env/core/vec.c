/* One env slot: a game, its move in progress, the rewards each seat has not yet received and
 * the generators of the env and its random opponents, stepped as env.py's raw_env and
 * single_agent.py's Phase10Env step them (same seeds, same draws, same rewards). */
#include "core.h"

void slot_configure(Slot *s, int num_players, const Rules *rules, const EnvConfig *cfg) {
    memset(s, 0, sizeof *s);
    s->g.num_players = (uint8_t)num_players;
    s->g.rules = *rules;
    s->g.stage = STAGE_GAME_OVER; /* until the first reset */
    s->cfg = *cfg;
    s->terminated = 1;
}

int slot_status(const Slot *s) {
    if (s->terminated || s->truncated) return STATUS_DONE;
    int offset = (s->g.current - s->learner + s->g.num_players) % s->g.num_players;
    int c = s->cfg.controller[offset];
    return c == CTRL_LEARNER ? STATUS_LEARNER : c == CTRL_EXTERNAL ? STATUS_EXTERNAL : -1;
}

/* Phase10Env.reset, then raw_env.reset(seed=game_seed) (without the opponents' first moves). */
void slot_reset(Slot *s, int has_seed, uint64_t seed) {
    int n = s->g.num_players;
    Rules rules = s->g.rules;
    if (has_seed) pcg_seed(&s->env_rng, seed);
    uint64_t game_seed = pcg_seed63(&s->env_rng);
    s->episode_seed = game_seed;
    for (int i = 0; i < n - 1; i++) /* p.seed(game_seed + i + 1) for each opponent in turn */
        if (s->cfg.controller[i + 1] == CTRL_RANDOM) pcg_seed(&s->agent_rng[s->cfg.shared_random ? 1 : i + 1], game_seed + (uint64_t)i + 1);
    s->learner = (uint8_t)(s->cfg.learner_seat >= 0 ? s->cfg.learner_seat : (int)pcg_below32(&s->env_rng, (uint64_t)n));
    Pcg64 seeder;
    pcg_seed(&seeder, game_seed);
    uint64_t seed2 = pcg_seed63(&seeder);
    uint8_t phases[MAX_PLAYERS];
    if (s->cfg.random_start)
        for (int i = 0; i < n; i++) phases[i] = (uint8_t)pcg_below32(&seeder, rules.phases_to_win);
    game_new(&s->g, n, &rules, seed2, -1, s->cfg.random_start ? phases : NULL);
    memset(&s->p, 0, sizeof s->p);
    memset(&s->events, 0, sizeof s->events);
    s->events.went_out = -1;
    s->steps = 0;
    s->terminated = s->truncated = 0;
    for (int i = 0; i < MAX_PLAYERS; i++) {
        s->cumulative[i] = s->step_rewards[i] = 0.0;
        s->turns[i] = 0;
    }
}

void slot_reset_game(Slot *s, uint64_t aec_seed, int first_dealer, const uint64_t *agent_seeds) {
    int n = s->g.num_players;
    Rules rules = s->g.rules;
    Pcg64 seeder;
    pcg_seed(&seeder, aec_seed);
    uint64_t seed2 = pcg_seed63(&seeder);
    uint8_t phases[MAX_PLAYERS];
    if (s->cfg.random_start)
        for (int i = 0; i < n; i++) phases[i] = (uint8_t)pcg_below32(&seeder, rules.phases_to_win);
    s->learner = (uint8_t)(s->cfg.learner_seat >= 0 ? s->cfg.learner_seat : 0);
    for (int o = 0; o < n; o++) /* shared: one generator, agent_rng[1], seeded with agent_seeds[1] */
        if (s->cfg.controller[o] == CTRL_RANDOM) {
            int a = s->cfg.shared_random ? 1 : o;
            pcg_seed(&s->agent_rng[a], agent_seeds[a]);
        }
    s->episode_seed = aec_seed;
    game_new(&s->g, n, &rules, seed2, first_dealer, s->cfg.random_start ? phases : NULL);
    memset(&s->p, 0, sizeof s->p);
    memset(&s->events, 0, sizeof s->events);
    s->events.went_out = -1;
    s->steps = 0;
    s->terminated = s->truncated = 0;
    for (int i = 0; i < MAX_PLAYERS; i++) {
        s->cumulative[i] = s->step_rewards[i] = 0.0;
        s->turns[i] = 0;
    }
}

void slot_playout(Slot *s, int until_hand, int random_policy, Pcg64 *rng) {
    Game *g = &s->g;
    int hand = g->hand_number, actions = 0;
    while (g->stage != STAGE_GAME_OVER && (!until_hand || g->hand_number == hand)) {
        if (g->hand_number != hand) hand = g->hand_number, actions = 0;
        if (actions++ == PLAYOUT_HAND_ACTIONS) break;
        int action;
        if (random_policy) {
            uint8_t mask[NUM_ACTIONS];
            int legal[NUM_ACTIONS], count = 0;
            legal_mask(g, &s->p, mask);
            for (int a = 0; a < NUM_ACTIONS; a++)
                if (mask[a]) legal[count++] = a;
            action = legal[pcg_below32(rng, (uint64_t)count)];
        } else {
            action = heuristic_action(g, &s->p);
        }
        Move move;
        if (decode_action(g, &s->p, action, &move)) apply_move(g, &move, &s->events);
    }
}

void deal_draw_pile(Game *g, const uint8_t *cards, int size, Pcg64 *rng) {
    uint8_t pile[DECK_SIZE], order[DECK_SIZE];
    memcpy(pile, cards, (size_t)size); /* cards may be g->draw itself */
    pcg_permutation(rng, size, order);
    for (int i = 0; i < size; i++) g->draw[i] = pile[order[i]];
    g->num_draw = (uint8_t)size;
    g->seed = pcg_seed63(rng);
    pcg_seed(&g->rng, g->seed);
}

void deal_counted_pile(Game *g, const uint8_t *counts, Pcg64 *rng) {
    uint8_t cards[DECK_SIZE];
    int size = 0;
    for (int k = 0; k < NUM_KINDS; k++)
        for (int c = 0; c < counts[k]; c++) cards[size++] = (uint8_t)k;
    deal_draw_pile(g, cards, size, rng);
}

void count_numbers(Game *g, int seat) {
    memset(g->supply[seat], 0, NUM_NUMBERS + 1);
    for (int k = 0; k < NUM_NATURALS; k++) g->supply[seat][k % NUM_NUMBERS + 1] += g->hands[seat][k];
}

void slot_determinize(Slot *s, int seat, Pcg64 *rng) {
    Game *g = &s->g;
    uint8_t pool[DECK_SIZE], order[DECK_SIZE];
    int size = 0, hidden[MAX_PLAYERS] = {0};
    for (int p = 0; p < g->num_players; p++) {
        if (p == seat) continue;
        for (int k = 0; k < NUM_KINDS; k++) {
            int unseen = g->hands[p][k] - g->taken[p][k];
            for (int c = 0; c < unseen; c++) pool[size++] = (uint8_t)k;
            hidden[p] += unseen;
        }
    }
    for (int i = 0; i < g->num_draw; i++) pool[size++] = g->draw[i];
    pcg_permutation(rng, size, order);
    int next = 0;
    for (int p = 0; p < g->num_players; p++) {
        if (p == seat) continue;
        memcpy(g->hands[p], g->taken[p], NUM_KINDS);
        for (int i = 0; i < hidden[p]; i++) g->hands[p][pool[order[next++]]]++;
        count_numbers(g, p);
    }
    for (int i = 0; next < size; i++) g->draw[i] = pool[order[next++]];
    g->seed = pcg_seed63(rng);
    pcg_seed(&g->rng, g->seed);
}


int slot_check(const Slot *s, int action) {
    if (s->terminated || s->truncated) return 3;
    if (action < 0 || action >= NUM_ACTIONS) return 1;
    uint8_t mask[NUM_ACTIONS];
    legal_mask(&s->g, &s->p, mask);
    return mask[action] ? 0 : 2;
}

/* raw_env._score_events: rewards.RewardConfig.hand_rewards and game_rewards. */
static void score_events(Slot *s) {
    const Events *ev = &s->events;
    const EnvConfig *c = &s->cfg;
    int n = s->g.num_players;
    if (ev->hand_ended && c->per_hand)
        for (int i = 0; i < n; i++)
            s->step_rewards[i] += c->phase_made * (double)((ev->made_phase >> i) & 1) + c->went_out * (double)(ev->went_out == i) +
                                  c->points * (double)ev->points[i];
    if (ev->game_ended) {
        int winners = __builtin_popcount(s->g.winners);
        for (int i = 0; i < n; i++) s->step_rewards[i] += (s->g.winners >> i) & 1 ? c->win / winners : c->loss;
    }
}

/* raw_env.step for the seat to act: its reward so far is cleared, the action decoded (a move
 * in progress, or the move made), the events scored, the episode ended or truncated. */
int slot_act(Slot *s, int action) {
    Game *g = &s->g;
    int seat = g->current, n = g->num_players;
    s->last_actor = (uint8_t)seat;
    for (int i = 0; i < n; i++) s->step_rewards[i] = 0.0;
    s->cumulative[seat] = 0.0;
    s->steps++;
    if (g->stage == STAGE_DRAW) s->turns[seat]++;
    Move move;
    memset(&s->events, 0, sizeof s->events);
    s->events.went_out = -1;
    if (decode_action(g, &s->p, action, &move)) {
        apply_move(g, &move, &s->events);
        score_events(s);
        if (g->stage == STAGE_GAME_OVER || (s->cfg.episode_hand && s->events.hand_ended)) s->terminated = 1;
    }
    if (s->cfg.max_steps && s->steps >= s->cfg.max_steps && !s->terminated) s->truncated = 1;
    for (int i = 0; i < n; i++) s->cumulative[i] += s->step_rewards[i];
    return slot_status(s);
}

/* Phase10Env._play_opponents for the built-in opponents (random, heuristic). */
int slot_advance(Slot *s) {
    for (;;) {
        int status = slot_status(s);
        if (status >= 0) return status;
        Game *g = &s->g;
        int offset = (g->current - s->learner + g->num_players) % g->num_players, action;
        if (s->cfg.controller[offset] == CTRL_HEURISTIC) {
            action = heuristic_action(g, &s->p);
        } else {
            uint8_t mask[NUM_ACTIONS];
            int legal[NUM_ACTIONS], count = 0;
            legal_mask(g, &s->p, mask);
            for (int a = 0; a < NUM_ACTIONS; a++)
                if (mask[a]) legal[count++] = a;
            action = legal[pcg_below32(&s->agent_rng[s->cfg.shared_random ? 1 : offset], (uint64_t)count)];
        }
        slot_act(s, action);
    }
}
