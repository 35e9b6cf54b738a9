/* Action ids and moves (phase10_env/actions.py, phase10_env/codec.py): legal masks, decoding an
 * action into the move it completes or the move in progress it leads to, encoding a move. */
#include "core.h"

static const int RUN_BASE[10] = {0, 0, 0, 0, 50, 0, 0, 59, 65, 70}; /* first id of runs of each length */

int meld_id(Meld m) {
    if (m.kind == SET) return m.size >= 2 && m.size <= 5 ? 2 + (m.size - 2) * NUM_NUMBERS + m.value - 1 : -1;
    if (m.kind == RUN) return m.size == 4 || m.size == 7 || m.size == 8 || m.size == 9 ? RUN_BASE[m.size] + m.value - 1 : -1;
    return m.size == 7 ? 74 + m.value : -1;
}

Meld action_meld(int a) {
    if (a < 50) return (Meld){SET, (int8_t)((a - 2) % NUM_NUMBERS + 1), (int8_t)((a - 2) / NUM_NUMBERS + 2)};
    if (a < 74) {
        int size = a >= 70 ? 9 : a >= 65 ? 8 : a >= 59 ? 7 : 4;
        return (Meld){RUN, (int8_t)(a - RUN_BASE[size] + 1), (int8_t)size};
    }
    return (Meld){COLOUR, (int8_t)(a - 74), 7};
}

static int hit_id(int offset, int group, int hit_card) { return HIT_FIRST + (offset * MAX_GROUPS + group) * HIT_CARDS + hit_card; }

/* The card choices still open for the lay-down group being chosen (those holding ``picked``). */
static int open_choices(const Game *g, const Pending *p, const uint8_t *picked, Choices *out) {
    int seat = g->current;
    const Phase *ph = &PHASES[phase_of(g, seat)];
    const uint8_t *hand = g->hands[seat];
    int n = p->num_laid ? second_group_choices(hand, p->laid_cards, p->laid_cards[WILD] == p->laid.size, g->rules.per_group,
                                               p->meld, out)
                        : first_group_choices(hand, ph, g->rules.per_group, p->meld, out);
    if (n < 0) return -1;
    int kept = 0;
    for (int i = 0; i < n; i++) {
        uint8_t cards[NUM_KINDS];
        unpack_choice(out->packed[i], p->meld.size, cards);
        int holds = 1;
        for (int k = 0; k < NUM_KINDS && holds; k++) holds = cards[k] >= picked[k];
        if (holds) out->packed[kept++] = out->packed[i];
    }
    out->count = kept;
    return kept;
}

static _Thread_local Choices scratch; /* per thread: batched calls release the GIL */

static void partner_of(const Game *g, Meld first, Requirement *out) {
    const Phase *ph = &PHASES[phase_of(g, g->current)];
    *out = (ph->req[0].kind == first.kind && ph->req[0].size == first.size) ? ph->req[1] : ph->req[0];
}

void legal_mask(const Game *g, const Pending *p, uint8_t *mask) {
    memset(mask, 0, NUM_ACTIONS);
    if (g->stage == STAGE_DRAW) {
        mask[DRAW_DECK] = g->num_draw > 0;
        mask[DRAW_DISCARD] = g->num_discard && g->discard[g->num_discard - 1] != SKIP;
        return;
    }
    if (g->stage != STAGE_PLAY) return;
    int seat = g->current, n = g->num_players;
    const uint8_t *hand = g->hands[seat];
    if (p->kind == PENDING_HIT) {
        for (int k = p->hit_number - 1; k < NUM_NATURALS; k += NUM_NUMBERS)
            if (hand[k]) mask[CHOOSE_FIRST + k] = 1;
        return;
    }
    if (p->kind == PENDING_LAYDOWN && p->has_meld) {
        int count = open_choices(g, p, p->picked, &scratch);
        for (int i = 0; i < count; i++) {
            uint8_t cards[NUM_KINDS];
            unpack_choice(scratch.packed[i], p->meld.size, cards);
            for (int k = 0; k < NUM_KINDS; k++)
                if (cards[k] > p->picked[k]) mask[CHOOSE_FIRST + k] = 1;
        }
        return;
    }
    if (p->kind == PENDING_LAYDOWN) { /* second_group_templates */
        Requirement partner;
        partner_of(g, p->laid, &partner);
        uint8_t left[NUM_KINDS];
        for (int k = 0; k < NUM_KINDS; k++) left[k] = (uint8_t)(hand[k] - p->laid_cards[k]);
        int need = g->rules.per_group || p->laid_cards[WILD] == p->laid.size;
        int first = partner.kind == COLOUR ? 0 : 1;
        int last = partner.kind == SET ? NUM_NUMBERS : partner.kind == RUN ? NUM_NUMBERS - partner.size + 1 : NUM_COLOURS - 1;
        for (int v = first; v <= last; v++) {
            Meld m = {partner.kind, (int8_t)v, partner.size};
            if (can_fill(left, m, need)) mask[meld_id(m)] = 1;
        }
        return;
    }
    if (!g->laid[seat]) {
        Meld found[144][2];
        int per, count = laydown_options(g, found, &per);
        for (int i = 0; i < count; i++)
            for (int j = 0; j < per; j++) mask[meld_id(found[i][j])] = 1;
    } else {
        const uint8_t *supply = g->supply[seat];
        for (int offset = 0; offset < n; offset++) {
            int t = (seat + offset) % n;
            for (int gi = 0; gi < g->num_groups[t]; gi++) {
                const Group *grp = &g->table[t][gi];
                int base = hit_id(offset, gi, 0);
                if (grp->kind == COLOUR) {
                    for (int num = 1; num <= NUM_NUMBERS; num++)
                        if (hand[grp->value * NUM_NUMBERS + num - 1]) mask[base + num - 1] = 1;
                } else if (grp->kind == SET) {
                    if (supply[grp->value]) mask[base + grp->value - 1] = 1;
                } else {
                    if (grp->low > 1 && supply[grp->low - 1]) mask[base + grp->low - 2] = 1;
                    if (grp->high < NUM_NUMBERS && supply[grp->high + 1]) mask[base + grp->high] = 1;
                }
                if (hand[WILD]) {
                    if (group_accepts(grp, WILD, 0)) mask[base + 12] = 1;
                    if (grp->kind == RUN && group_accepts(grp, WILD, 1)) mask[base + 13] = 1;
                }
            }
        }
    }
    for (int k = 0; k <= WILD; k++) mask[DISCARD_FIRST + k] = hand[k] > 0;
    if (hand[SKIP]) {
        uint8_t targets[MAX_PLAYERS];
        int count = skip_targets(g, targets);
        for (int i = 0; i < count; i++) mask[SKIP_FIRST + (targets[i] - seat + n) % n - 1] = 1;
        if (!count) mask[SKIP_NO_EFFECT] = 1;
    }
}

/* _settle: the move is made once one choice is left; else the cards all choices share are
 * settled. ``choices`` are the open ones. */
static int settle(const Game *g, Pending *p, const Choices *choices, Move *move) {
    if (choices->count > 1) {
        uint8_t shared[NUM_KINDS], cards[NUM_KINDS];
        unpack_choice(choices->packed[0], p->meld.size, shared);
        for (int i = 1; i < choices->count; i++) {
            unpack_choice(choices->packed[i], p->meld.size, cards);
            for (int k = 0; k < NUM_KINDS; k++)
                if (cards[k] < shared[k]) shared[k] = cards[k];
        }
        memcpy(p->picked, shared, NUM_KINDS);
        return 0;
    }
    uint8_t cards[NUM_KINDS];
    unpack_choice(choices->packed[0], p->meld.size, cards);
    if (!p->num_laid && PHASES[phase_of(g, g->current)].count == 2) {
        p->num_laid = 1;
        p->laid = p->meld;
        memcpy(p->laid_cards, cards, NUM_KINDS);
        p->has_meld = 0;
        memset(p->picked, 0, NUM_KINDS);
        return 0;
    }
    memset(move, 0, sizeof *move);
    move->type = MOVE_LAYDOWN;
    if (p->num_laid) {
        move->num_melds = 2;
        move->melds[0] = p->laid;
        memcpy(move->cards[0], p->laid_cards, NUM_KINDS);
        move->melds[1] = p->meld;
        memcpy(move->cards[1], cards, NUM_KINDS);
    } else {
        move->num_melds = 1;
        move->melds[0] = p->meld;
        memcpy(move->cards[0], cards, NUM_KINDS);
    }
    memset(p, 0, sizeof *p);
    return 1;
}

int decode_action(const Game *g, Pending *p, int a, Move *move) {
    int seat = g->current, n = g->num_players;
    memset(move, 0, sizeof *move);
    move->target = -1;
    if (a < 2) {
        move->type = MOVE_DRAW;
        move->from_discard = (int8_t)a;
        return 1;
    }
    if (a >= DISCARD_FIRST && a <= DISCARD_WILD) {
        move->type = MOVE_DISCARD;
        move->card = (int8_t)(a - DISCARD_FIRST);
        return 1;
    }
    if (a >= SKIP_FIRST && a <= SKIP_NO_EFFECT) {
        move->type = MOVE_DISCARD;
        move->card = SKIP;
        move->target = a == SKIP_NO_EFFECT ? -1 : (int8_t)((seat + a - SKIP_FIRST + 1) % n);
        return 1;
    }
    const uint8_t *hand = g->hands[seat];
    if (a < HIT_FIRST) { /* lay */
        if (p->kind == PENDING_NONE) {
            memset(p, 0, sizeof *p);
            p->kind = PENDING_LAYDOWN;
        }
        p->has_meld = 1;
        p->meld = action_meld(a);
        memset(p->picked, 0, NUM_KINDS);
        open_choices(g, p, p->picked, &scratch);
        return settle(g, p, &scratch, move);
    }
    if (a >= CHOOSE_FIRST) {
        int card = a - CHOOSE_FIRST;
        if (p->kind == PENDING_HIT) {
            move->type = MOVE_HIT;
            move->target = p->hit_target;
            move->group = p->hit_group;
            move->card = (int8_t)card;
            memset(p, 0, sizeof *p);
            return 1;
        }
        uint8_t picked[NUM_KINDS];
        memcpy(picked, p->picked, NUM_KINDS);
        picked[card]++;
        open_choices(g, p, picked, &scratch);
        return settle(g, p, &scratch, move);
    }
    /* hit */
    int h = a - HIT_FIRST, offset = h / (MAX_GROUPS * HIT_CARDS), gi = h / HIT_CARDS % MAX_GROUPS, hit_card = h % HIT_CARDS;
    int target = (seat + offset) % n;
    move->type = MOVE_HIT;
    move->target = (int8_t)target;
    move->group = (int8_t)gi;
    if (hit_card >= 12) {
        move->card = WILD;
        move->low_end = hit_card == 13;
        return 1;
    }
    const Group *grp = &g->table[target][gi];
    if (grp->kind == COLOUR) {
        move->card = (int8_t)(grp->value * NUM_NUMBERS + hit_card);
        return 1;
    }
    int kinds = 0, only = -1;
    for (int k = hit_card; k < NUM_NATURALS; k += NUM_NUMBERS)
        if (hand[k]) {
            kinds++;
            only = k;
        }
    if (kinds == 1) {
        move->card = (int8_t)only;
        return 1;
    }
    memset(p, 0, sizeof *p);
    p->kind = PENDING_HIT;
    p->hit_target = (int8_t)target;
    p->hit_group = (int8_t)gi;
    p->hit_number = (int8_t)(hit_card + 1);
    return 0;
}

int encode_move(const Move *m, int seat, int n) {
    switch (m->type) {
    case MOVE_DRAW:
        return m->from_discard ? DRAW_DISCARD : DRAW_DECK;
    case MOVE_LAYDOWN:
        return meld_id(m->melds[0]);
    case MOVE_HIT: {
        int offset = (m->target - seat + n) % n;
        if (m->card == WILD) return hit_id(offset, m->group, m->low_end ? 13 : 12);
        return hit_id(offset, m->group, number_of(m->card) - 1);
    }
    default:
        if (m->card != SKIP) return DISCARD_FIRST + m->card;
        return m->target < 0 ? SKIP_NO_EFFECT : SKIP_FIRST + (m->target - seat + n) % n - 1;
    }
}

/* codec.next_action: the next action toward ``m`` (a legal whole move) from the move in
 * progress ``p``. */
int next_action(const Game *g, const Pending *p, const Move *m) {
    int seat = g->current;
    if (p->kind == PENDING_NONE) return encode_move(m, seat, g->num_players);
    if (p->kind == PENDING_HIT) return CHOOSE_FIRST + m->card;
    /* rest: the move's groups less the one settled */
    int used = -1;
    if (p->num_laid)
        for (int i = 0; i < m->num_melds && used < 0; i++)
            if (m->melds[i].kind == p->laid.kind && m->melds[i].value == p->laid.value && m->melds[i].size == p->laid.size &&
                !memcmp(m->cards[i], p->laid_cards, NUM_KINDS))
                used = i;
    if (!p->has_meld) {
        for (int i = 0; i < m->num_melds; i++)
            if (i != used) return meld_id(m->melds[i]);
    }
    int gi = -1;
    for (int i = 0; i < m->num_melds && gi < 0; i++)
        if (i != used && m->melds[i].kind == p->meld.kind && m->melds[i].value == p->meld.value && m->melds[i].size == p->meld.size)
            gi = i;
    Choices *open = &scratch;
    int best = -1, best_open = 1 << 30;
    for (int k = 0; k < NUM_KINDS; k++) {
        if (m->cards[gi][k] <= p->picked[k]) continue;
        uint8_t picked[NUM_KINDS];
        memcpy(picked, p->picked, NUM_KINDS);
        picked[k]++;
        int count = open_choices(g, p, picked, open);
        if (count < best_open) {
            best_open = count;
            best = k;
        }
    }
    return CHOOSE_FIRST + best;
}
