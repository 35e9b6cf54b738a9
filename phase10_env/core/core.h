/* The native core: Phase 10's rules, the action codec, observations and the heuristic player
 * over plain C structs, so that many games step in one call with no Python object per step.
 *
 * The Python engine (phase10_env/engine) is the specification; every function here follows
 * the Python function named in its comment, step by step and in the same order, so that a seed
 * plays the same game in both. tests/core/ checks them against each other game by game.
 * Card kinds, action ids and the observation layout are those of phase10_env (cards.py,
 * actions.py, observation.py); phase10_env/core/layout.py checks at import that they agree.
 */
#ifndef PHASE10_CORE_H
#define PHASE10_CORE_H

#include <stdint.h>
#include <string.h>

#include "rng.h"

/* ---------------------------------------------------------------- cards (cards.py) */
#define NUM_NUMBERS 12
#define NUM_COLOURS 4
#define NUM_NATURALS 48
#define WILD 48
#define SKIP 49
#define NUM_KINDS 50
#define DECK_SIZE 108
#define HAND_SIZE 10
#define MAX_PLAYERS 6
#define MAX_GROUPS 2
#define MAX_GROUP_CARDS 32 /* a colour group: 24 naturals and 8 Wilds */

static inline int number_of(int k) { return k < NUM_NATURALS ? k % NUM_NUMBERS + 1 : 0; }
static inline int colour_of(int k) { return k < NUM_NATURALS ? k / NUM_NUMBERS : -1; }
static inline int points_of(int k) { return k == WILD ? 25 : k == SKIP ? 15 : (number_of(k) <= 9 ? 5 : 10); }

/* ---------------------------------------------------------------- phases (phases.py) */
enum { SET = 0, RUN = 1, COLOUR = 2 };
typedef struct { int8_t kind, value, size; } Meld;
typedef struct { int8_t kind, size; } Requirement;
typedef struct { int8_t count; Requirement req[2]; } Phase;
extern const Phase PHASES[11]; /* 1-10 */

/* ---------------------------------------------------------------- rules (config.py) */
enum { SKIP_NOT_TWICE = 0, SKIP_PENDING_ONLY = 1, SKIP_ONCE_PER_HAND = 2 };
typedef struct {
    uint8_t phases[10], num_phases, phases_to_win, advance_all, per_group, skip_rule;
} Rules;

/* ---------------------------------------------------------------- state (state.py) */
enum { STAGE_DRAW = 0, STAGE_PLAY = 1, STAGE_GAME_OVER = 2 };

typedef struct { /* TableGroup: cards in table order (a run from its low end) */
    int8_t kind, value, low, high;
    uint8_t n;
    uint8_t cards[MAX_GROUP_CARDS];
} Group;

typedef struct {
    Pcg64 rng;
    uint64_t seed;
    Rules rules;
    uint8_t num_players, dealer, current, stage, replay, winners; /* winners: bit per seat */
    int32_t hand_number;
    uint8_t hands[MAX_PLAYERS][NUM_KINDS];
    uint8_t taken[MAX_PLAYERS][NUM_KINDS]; /* taken_from_discard */
    /* public memory of this hand, beyond the engine's state (for belief models): the cards each
     * seat discarded, and the discard pile's top cards it saw at its draw and left there */
    uint8_t discarded[MAX_PLAYERS][NUM_KINDS], passed[MAX_PLAYERS][NUM_KINDS];
    int8_t last_discard[MAX_PLAYERS]; /* each seat's last discard this hand but a Skip (-1: none) */
    uint8_t hand_size[MAX_PLAYERS];
    uint8_t supply[MAX_PLAYERS][NUM_NUMBERS + 1]; /* number_counts */
    uint8_t draw[DECK_SIZE], discard[DECK_SIZE]; /* top last */
    uint8_t num_draw, num_discard;
    uint8_t discard_counts[NUM_KINDS], table_counts[NUM_KINDS];
    Group table[MAX_PLAYERS][MAX_GROUPS];
    uint8_t num_groups[MAX_PLAYERS];
    uint8_t completed[MAX_PLAYERS], laid[MAX_PLAYERS], skip_pending[MAX_PLAYERS], lost_turn[MAX_PLAYERS],
        skipped[MAX_PLAYERS], active[MAX_PLAYERS];
    int32_t scores[MAX_PLAYERS];
} Game;

/* ---------------------------------------------------------------- moves (moves.py) */
enum { MOVE_DRAW = 0, MOVE_LAYDOWN = 1, MOVE_HIT = 2, MOVE_DISCARD = 3 };
typedef struct {
    int8_t type;
    int8_t from_discard;        /* draw */
    int8_t target, group, card; /* hit (target seat, group, card), discard (card, Skip target or -1) */
    int8_t low_end;             /* hit */
    int8_t num_melds;           /* lay-down: melds and their cards (per-kind counts) */
    Meld melds[2];
    uint8_t cards[2][NUM_KINDS];
} Move;

/* What a move caused (moves.py's events), for the caller: */
typedef struct {
    uint8_t turns_lost;   /* bit per seat that lost a turn */
    int8_t hand_ended;    /* a hand ended */
    int8_t went_out;      /* who went out (-1: nobody) */
    int8_t game_ended;
    uint8_t tie_replay;   /* bit per seat in a tie replay that began */
    uint8_t made_phase;   /* bit per seat that made its phase in the hand that ended */
    int32_t points[MAX_PLAYERS]; /* points left in hand at the end of that hand */
} Events;

/* ---------------------------------------------------------------- the move in progress (codec.py's Pending) */
enum { PENDING_NONE = 0, PENDING_LAYDOWN = 1, PENDING_HIT = 2 };
typedef struct {
    int8_t kind;
    int8_t num_laid;          /* lay-down: groups whose cards are settled (0 or 1) */
    Meld laid;                /* the settled group */
    uint8_t laid_cards[NUM_KINDS];
    int8_t has_meld;          /* lay-down: a group whose cards are being chosen */
    Meld meld;
    int8_t hit_target, hit_group, hit_number;
    uint8_t picked[NUM_KINDS]; /* cards every open choice shares, settled already */
} Pending;

/* Card choices of a group (sorted multisets of at most 9 cards, packed 6 bits a card, the
 * first card highest, so packed order is tuple order). */
#define MAX_CHOICES 4096
typedef struct { int count; uint64_t packed[MAX_CHOICES]; } Choices;

/* ---------------------------------------------------------------- game.c */
void game_new(Game *g, int num_players, const Rules *rules, uint64_t seed, int first_dealer, const uint8_t *start_phases);
int phase_of(const Game *g, int seat);
int next_seat(const Game *g, int seat);
int skip_targets(const Game *g, uint8_t *out);          /* returns count */
int can_draw_discard(const Game *g);
void apply_move(Game *g, const Move *m, Events *ev);   /* the move must be legal */
int laydown_options(const Game *g, Meld (*out)[2], int *melds_per); /* every lay-down, in engine order */
int laydown_search(const uint8_t *hand, const Phase *ph, int per_group, Meld (*out)[2]);
int phase_progress(const uint8_t *hand, const Phase *ph, int per_group, int *ways); /* missing cards */
int group_accepts(const Group *grp, int card, int low_end);
void group_add(Group *grp, int card, int low_end);
int hand_points(const uint8_t *hand);

/* ---------------------------------------------------------------- choices.c (phases.py card choices) */
int meld_choices(const uint8_t *avail, Meld m, int need_natural, Choices *out);
int first_group_choices(const uint8_t *hand, const Phase *ph, int per_group, Meld m, Choices *out);
int second_group_choices(const uint8_t *hand, const uint8_t *first, int first_all_wild, int per_group, Meld m, Choices *out);
int can_fill(const uint8_t *avail, Meld m, int need_natural);
void unpack_choice(uint64_t packed, int size, uint8_t *counts);


/* ---------------------------------------------------------------- codec.c (codec.py, actions.py) */
#define NUM_ACTIONS 350
#define DRAW_DECK 0
#define DRAW_DISCARD 1
#define HIT_FIRST 78
#define HIT_CARDS 14
#define DISCARD_FIRST 246
#define DISCARD_WILD 294
#define SKIP_FIRST 295
#define SKIP_NO_EFFECT 300
#define CHOOSE_FIRST 301
int meld_id(Meld m);               /* -1: no action lays it */
Meld action_meld(int action);      /* the meld of a lay action */
void legal_mask(const Game *g, const Pending *p, uint8_t *mask);
/* Decode action (unmasked) into the move it completes (returns 1, *move set) or the move in
 * progress it leads to (returns 0, *p updated). */
int decode_action(const Game *g, Pending *p, int action, Move *move);
int encode_move(const Move *m, int seat, int num_players);

/* ---------------------------------------------------------------- observe.c (observation.py, planning.py) */
#define OBS_SIZE 731
#define PLANNING_SIZE 204
void observe(const Game *g, const Pending *p, int seat, float *out);
void planning_features(const Game *g, int seat, float *out);

/* ---------------------------------------------------------------- heuristic.c (phase10_env/heuristic.py) */
void heuristic_choose(const Game *g, const Pending *p, Move *out);
int heuristic_action(const Game *g, const Pending *p);
int next_action(const Game *g, const Pending *p, const Move *m);

/* ---------------------------------------------------------------- vec.c: one env slot
 * (phase10_env/single_agent.py's Phase10Env over env.py's raw_env, and the AEC env alone) */
enum { CTRL_LEARNER = 0, CTRL_RANDOM = 1, CTRL_HEURISTIC = 2, CTRL_EXTERNAL = 3 };
enum { STATUS_LEARNER = 0, STATUS_EXTERNAL = 1, STATUS_DONE = 2 };
typedef struct {
    double win, loss, phase_made, went_out, points; /* rewards.RewardConfig */
    uint8_t per_hand, episode_hand, random_start;
    int8_t learner_seat;                 /* -1: a random seat each episode */
    uint8_t shared_random;               /* one random agent plays every random seat (one object for all) */
    int32_t max_steps;                   /* 0: none */
    uint8_t controller[MAX_PLAYERS];     /* by seat offset from the learner (offset 0: the learner) */
} EnvConfig;

typedef struct {
    Game g;
    Pending p;
    EnvConfig cfg;
    Pcg64 env_rng;                 /* Phase10Env.np_random */
    Pcg64 agent_rng[MAX_PLAYERS];  /* RandomAgent generators, by offset (shared: offset 1's) */
    uint64_t episode_seed;
    uint8_t learner, terminated, truncated;
    uint8_t last_actor;            /* the seat that acted last (the AEC env's agent_selection once it ended) */
    int32_t turns[MAX_PLAYERS];    /* draws each seat made this episode */
    int32_t steps;                 /* actions of every seat this episode (max_steps) */
    double cumulative[MAX_PLAYERS];   /* rewards since each seat last acted */
    double step_rewards[MAX_PLAYERS]; /* rewards of the last action */
    Events events;                 /* what the last move caused */
} Slot;

void slot_configure(Slot *s, int num_players, const Rules *rules, const EnvConfig *cfg);
void slot_reset(Slot *s, int has_seed, uint64_t seed);
int slot_check(const Slot *s, int action);  /* 0 legal; 1 out of range; 2 masked; 3 episode over */
int slot_act(Slot *s, int action);          /* one action of the seat to act (must be legal) */
int slot_advance(Slot *s);                  /* built-in seats play; returns STATUS_* */
int slot_status(const Slot *s);
/* raw_env.reset(seed=aec_seed, options={"first_dealer": dealer}) with each random seat's own
 * generator seeded (agent_seeds, by seat offset from the learner): a tournament's game. */
void slot_reset_game(Slot *s, uint64_t aec_seed, int first_dealer, const uint64_t *agent_seeds);
/* Play every seat with the heuristic (or uniformly random legal actions from ``rng``) to the
 * end of the hand (until_hand) or of the game; no rewards or episode bookkeeping. A hand still
 * going after PLAYOUT_HAND_ACTIONS actions stops the play-out where it stands: in a dealt world
 * two heuristic seats can pass one card back and forth for ever (the longest hand of 1,800
 * heuristic hands took 110 actions). agents/policies/mcts.py's play_out keeps the same limit. */
#define PLAYOUT_HAND_ACTIONS 1000
void slot_playout(Slot *s, int until_hand, int random_policy, Pcg64 *rng);
/* Deal again every card ``seat`` cannot see (other hands but the cards seen taken from the
 * discard pile, and the draw pile), at random, and reseed the game's generator: a game that
 * seat cannot tell from this one (Game.from_view). */
void slot_determinize(Slot *s, int seat, Pcg64 *rng);
/* Deal the hand again from ``deck`` (108 cards, dealt from its end as game.c's deal does): the
 * game as it was when this hand began, had the deck been so. */
void redeal(Game *g, const uint8_t *deck);
/* Lay ``cards`` (``size`` of them, which may be g->draw itself) as the draw pile in an order
 * drawn from ``rng``, and seed the game's own generator (its reshuffles) from ``rng`` too. */
void deal_draw_pile(Game *g, const uint8_t *cards, int size, Pcg64 *rng);
/* deal_draw_pile of the cards ``counts`` holds of each kind. */
void deal_counted_pile(Game *g, const uint8_t *counts, Pcg64 *rng);
/* Count ``seat``'s natural cards by number again (Game.supply) after its hand was dealt anew. */
void count_numbers(Game *g, int seat);

/* ---------------------------------------------------------------- search.c */
#define WIN_HIDDEN_MAX 64
typedef struct {
    const double *weights; /* the flat network of agents/training/win_model.py (NULL: none) */
    int hidden;
} WinModel;
typedef struct {
    int samples, min_samples; /* samples drawn at most; before a candidate may leave the race */
    double confidence, points_weight;
    int after_down;           /* search discards once the phase is down too */
    int plays;                /* search the heuristic's lay-downs, hits and Skips against discarding */
    int peek;                 /* deal the draw pile only, every hand as loaded: a diagnostic of a perfect belief */
    int consistent_tries;     /* > 0: keep a sample only if the heuristic would have made each other seat's last discard (up to this many deals) */
    int streams;              /* play-outs draw the pile by deck streams (slot_playout_streams) */
    WinModel win_model;       /* a play-out's worth is a win chance (search.c's win_value); no weights: hand_value */
} SearchSettings;
typedef struct { int candidates, samples; } SearchStats;
double hand_value(const Game *g, int seat, const int *phases, const int *scores, double weight);
double win_value(const Game *g, int seat, const WinModel *model); /* agents/training/win_model.py */
int win_model_size(int hidden); /* the numbers in a win model's weights */
/* weights: per seat and kind, a belief model's weights for dealing hidden cards (NULL: uniform) */
/* Play ``action`` of the seat to act, then the heuristic in every seat to the end of the hand
 * (or PLAYOUT_HAND_ACTIONS actions), each draw from the pile taken by deck streams owned from
 * where the slot stands (search.c); no rewards or episode bookkeeping. */
void slot_playout_streams(Slot *s, int action);
typedef struct History History;
/* history: each other seat's hands weighed by its moves this hand (history.c; NULL: none) */
int search_action(const Slot *root, const SearchSettings *cfg, const double (*weights)[NUM_KINDS],
                  const History *history, Pcg64 *rng, SearchStats *stats);

/* ---------------------------------------------------------------- belief.c */
#define BELIEF_PILE_TOP 6
#define BELIEF_FEATURES (7 * NUM_KINDS + BELIEF_PILE_TOP * NUM_KINDS + 25 + 10)
void unseen_pool(const Game *g, int me, uint8_t *pool);
void belief_features(const Game *g, int me, int p, float *out);
void belief_targets(const Game *g, int me, int p, float *hidden, float *unseen);
void slot_determinize_weighted(Slot *s, int seat, const double (*weights)[NUM_KINDS], Pcg64 *rng);
int consistent_with_discards(const Slot *s, int seat);

/* ---------------------------------------------------------------- history.c */
/* One move of the hand's public log (the engine's hand_log): its seat, the discard pile's top
 * card before it (-1: none) and the move. */
typedef struct { int8_t seat, top; Move move; } LoggedMove;
#define LOG_WIDTH 115 /* a logged move as a row of int16 (module.c's read_log) */
#define HISTORY_MAX 4096
#define HISTORY_DEAL_TRIES 64
struct History {
    int count;                                          /* replays made */
    uint8_t hands[HISTORY_MAX][MAX_PLAYERS][NUM_KINDS]; /* every hand of each replay's world */
    int16_t unlike[HISTORY_MAX][MAX_PLAYERS];           /* each seat's moves the heuristic would not have made */
    double cumulative[MAX_PLAYERS][HISTORY_MAX];        /* per seat, the running sum of slip^unlike */
};
/* ``replays`` worlds ``seat`` cannot tell from ``root`` (dealt by ``weights`` as
 * slot_determinize_weighted, or uniformly), each replayed through the hand's log. 0: built;
 * 1: nothing to weigh (no log, or the pile was reshuffled this hand); -1: the log does not fit;
 * -2: out of memory. */
int history_build(const Slot *root, int seat, const LoggedMove *log, int n, int replays, double slip,
                  const double (*weights)[NUM_KINDS], Pcg64 *rng, History *out);
/* Deal each other seat of ``s`` a hand from its weighed set and the draw pile from the rest;
 * 1 if HISTORY_DEAL_TRIES draws all asked for more of some card than is unseen (nothing dealt). */
int history_deal(Slot *s, int seat, const History *h, Pcg64 *rng);

#endif
