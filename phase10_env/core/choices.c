/* Card choices (engine/phases.py: meld_choices, first_group_choices, second_group_choices,
 * can_fill): every distinct multiset of cards a meld can take from a hand, in the engine's
 * order (sorted tuples of kinds, compared as tuples). */
#include <stdlib.h>

#include "core.h"

typedef struct {
    Choices *out;
    int size, wilds, overflow;
} Builder;

static uint64_t pack(const int *cards, int size) {
    uint64_t p = 0;
    for (int i = 0; i < size; i++) p = (p << 6) | (uint64_t)cards[i];
    return p;
}

void unpack_choice(uint64_t packed, int size, uint8_t *counts) {
    memset(counts, 0, NUM_KINDS);
    for (int i = 0; i < size; i++) counts[(packed >> (6 * i)) & 63]++;
}

static void add(Builder *b, const int *chosen, int num, int wild) {
    int cards[16];
    for (int i = 0; i < num; i++) cards[i] = chosen[i];
    /* insertion sort: runs choose in number order, not kind order */
    for (int i = 1; i < num; i++)
        for (int j = i; j > 0 && cards[j - 1] > cards[j]; j--) {
            int t = cards[j];
            cards[j] = cards[j - 1];
            cards[j - 1] = t;
        }
    for (int i = 0; i < wild; i++) cards[num + i] = WILD;
    if (b->out->count >= MAX_CHOICES) {
        b->overflow = 1;
        return;
    }
    b->out->packed[b->out->count++] = pack(cards, b->size);
}

static void runs(Builder *b, int slots[][NUM_COLOURS], const int *num_slot, int i, int *chosen, int num, int wild) {
    if (b->overflow) return;
    if (i == b->size) {
        add(b, chosen, num, wild);
        return;
    }
    for (int j = 0; j < num_slot[i]; j++) {
        chosen[num] = slots[i][j];
        runs(b, slots, num_slot, i + 1, chosen, num + 1, wild);
    }
    if (wild < b->wilds) runs(b, slots, num_slot, i + 1, chosen, num, wild + 1);
}

static void multisets(Builder *b, const int *kinds, int num_kinds, const uint8_t *avail, int i, int *chosen, int num) {
    if (b->overflow) return;
    if (i == num_kinds) {
        int wild = b->size - num;
        if (wild >= 0 && wild <= b->wilds) add(b, chosen, num, wild);
        return;
    }
    int k = kinds[i], most = avail[k] < b->size - num ? avail[k] : b->size - num;
    for (int c = 0; c <= most; c++) {
        for (int j = 0; j < c; j++) chosen[num + j] = k;
        multisets(b, kinds, num_kinds, avail, i + 1, chosen, num + c);
    }
}

static int compare(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* meld_choices: returns the count, or -1 if there are more than MAX_CHOICES. */
int meld_choices(const uint8_t *avail, Meld m, int need_natural, Choices *out) {
    Builder b = {out, m.size, avail[WILD], 0};
    int chosen[16];
    out->count = 0;
    if (m.kind == RUN) {
        int slots[NUM_NUMBERS][NUM_COLOURS], num_slot[NUM_NUMBERS];
        for (int i = 0; i < m.size; i++) {
            num_slot[i] = 0;
            for (int c = 0; c < NUM_COLOURS; c++) {
                int k = c * NUM_NUMBERS + m.value + i - 1;
                if (avail[k]) slots[i][num_slot[i]++] = k;
            }
        }
        runs(&b, slots, num_slot, 0, chosen, 0, 0);
    } else {
        int kinds[NUM_NUMBERS], num_kinds = 0;
        if (m.kind == SET) {
            for (int k = m.value - 1; k < NUM_NATURALS; k += NUM_NUMBERS)
                if (avail[k]) kinds[num_kinds++] = k;
        } else {
            for (int k = m.value * NUM_NUMBERS; k < (m.value + 1) * NUM_NUMBERS; k++)
                if (avail[k]) kinds[num_kinds++] = k;
        }
        multisets(&b, kinds, num_kinds, avail, 0, chosen, 0);
    }
    if (b.overflow) return -1;
    qsort(out->packed, (size_t)out->count, sizeof(uint64_t), compare);
    int n = 0;
    uint64_t all_wild = 0;
    for (int i = 0; i < m.size; i++) all_wild = (all_wild << 6) | WILD;
    for (int i = 0; i < out->count; i++) {
        if (n && out->packed[n - 1] == out->packed[i]) continue;
        if (need_natural && out->packed[i] == all_wild) continue;
        out->packed[n++] = out->packed[i];
    }
    out->count = n;
    return n;
}

int can_fill(const uint8_t *avail, Meld m, int need_natural) {
    int naturals = 0;
    if (m.kind == RUN) {
        for (int num = m.value; num < m.value + m.size; num++)
            for (int c = 0; c < NUM_COLOURS; c++)
                if (avail[c * NUM_NUMBERS + num - 1]) {
                    naturals++;
                    break;
                }
    } else {
        int sum = 0;
        if (m.kind == SET) {
            for (int k = m.value - 1; k < NUM_NATURALS; k += NUM_NUMBERS) sum += avail[k];
        } else {
            for (int k = m.value * NUM_NUMBERS; k < (m.value + 1) * NUM_NUMBERS; k++) sum += avail[k];
        }
        naturals = sum < m.size ? sum : m.size;
    }
    return naturals + avail[WILD] >= m.size && (naturals > 0 || !need_natural);
}

/* The values a meld of a kind and size may declare (phases.meld_values). */
static int last_value(int kind, int size) { return kind == SET ? NUM_NUMBERS : kind == RUN ? NUM_NUMBERS - size + 1 : NUM_COLOURS - 1; }
static int first_value(int kind) { return kind == COLOUR ? 0 : 1; }

int first_group_choices(const uint8_t *hand, const Phase *ph, int per_group, Meld m, Choices *out) {
    if (ph->count == 1) return meld_choices(hand, m, 1, out);
    Requirement partner = (ph->req[0].kind == m.kind && ph->req[0].size == m.size) ? ph->req[1] : ph->req[0];
    if (meld_choices(hand, m, per_group, out) < 0) return -1;
    int n = 0;
    for (int i = 0; i < out->count; i++) {
        uint8_t left[NUM_KINDS], cards[NUM_KINDS];
        unpack_choice(out->packed[i], m.size, cards);
        for (int k = 0; k < NUM_KINDS; k++) left[k] = (uint8_t)(hand[k] - cards[k]);
        int need = per_group || cards[WILD] == m.size;
        int ok = 0;
        for (int v = first_value(partner.kind); v <= last_value(partner.kind, partner.size) && !ok; v++)
            ok = can_fill(left, (Meld){partner.kind, (int8_t)v, partner.size}, need);
        if (ok) out->packed[n++] = out->packed[i];
    }
    out->count = n;
    return n;
}

int second_group_choices(const uint8_t *hand, const uint8_t *first, int first_all_wild, int per_group, Meld m, Choices *out) {
    uint8_t left[NUM_KINDS];
    for (int k = 0; k < NUM_KINDS; k++) left[k] = (uint8_t)(hand[k] - first[k]);
    return meld_choices(left, m, per_group || first_all_wild, out);
}
