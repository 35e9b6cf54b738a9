/* Random numbers exactly as numpy's default generator makes them, so a seed deals the same
 * cards here as in the Python engine (numpy.random.default_rng(seed): SeedSequence -> PCG64,
 * Generator.integers and Generator.permutation). tests/core/test_rng.py checks each function
 * against numpy itself. */
#ifndef PHASE10_RNG_H
#define PHASE10_RNG_H

#include <stdint.h>

typedef unsigned __int128 u128;

typedef struct {
    u128 state, inc;
    uint32_t uinteger; /* the upper half of the last 64-bit draw, kept for the next 32-bit one */
    uint8_t has_uint32;
} Pcg64;

#define PCG_MULT (((u128)2549297995355413924ULL << 64) | 4865540595714422341ULL)

static inline void pcg_step(Pcg64 *r) { r->state = r->state * PCG_MULT + r->inc; }

static inline uint64_t pcg_next64(Pcg64 *r) {
    pcg_step(r);
    uint64_t hi = (uint64_t)(r->state >> 64), lo = (uint64_t)r->state;
    uint64_t x = hi ^ lo;
    unsigned rot = (unsigned)(hi >> 58);
    return (x >> rot) | (x << ((64 - rot) & 63));
}

static inline uint32_t pcg_next32(Pcg64 *r) {
    if (r->has_uint32) {
        r->has_uint32 = 0;
        return r->uinteger;
    }
    uint64_t next = pcg_next64(r);
    r->has_uint32 = 1;
    r->uinteger = (uint32_t)(next >> 32);
    return (uint32_t)next;
}

/* SeedSequence(entropy words).generate_state(4, uint64) with the default pool of 4 words,
 * then PCG64's seeding from those four 64-bit words. ``words``: the entropy as 32-bit words,
 * lowest first (an integer seed s gives s's words; 0 gives one word 0). */
static inline uint32_t ss_hashmix(uint32_t value, uint32_t *hash_const) {
    value ^= *hash_const;
    *hash_const *= 0x931e8875u;
    value *= *hash_const;
    value ^= value >> 16;
    return value;
}

static inline uint32_t ss_mix(uint32_t x, uint32_t y) {
    uint32_t r = 0xca01f9ddu * x - 0x4973f715u * y;
    return r ^ (r >> 16);
}

static inline void pcg_seed_words(Pcg64 *r, const uint32_t *words, int nwords) {
    uint32_t pool[4], hc = 0x43b0d7e5u;
    for (int i = 0; i < 4; i++) pool[i] = ss_hashmix(i < nwords ? words[i] : 0, &hc);
    for (int s = 0; s < 4; s++)
        for (int d = 0; d < 4; d++)
            if (s != d) pool[d] = ss_mix(pool[d], ss_hashmix(pool[s], &hc));
    for (int s = 4; s < nwords; s++)
        for (int d = 0; d < 4; d++) pool[d] = ss_mix(pool[d], ss_hashmix(words[s], &hc));
    uint32_t out[8], hb = 0x8b51f9ddu;
    for (int i = 0; i < 8; i++) {
        uint32_t v = pool[i % 4] ^ hb;
        hb *= 0x58f38dedu;
        v *= hb;
        v ^= v >> 16;
        out[i] = v;
    }
    uint64_t w[4];
    for (int i = 0; i < 4; i++) w[i] = (uint64_t)out[2 * i] | ((uint64_t)out[2 * i + 1] << 32);
    u128 initstate = ((u128)w[0] << 64) | w[1], initseq = ((u128)w[2] << 64) | w[3];
    r->state = 0;
    r->inc = (initseq << 1) | 1;
    pcg_step(r);
    r->state += initstate;
    pcg_step(r);
    r->has_uint32 = 0;
    r->uinteger = 0;
}

/* default_rng(seed) for a non-negative integer seed below 2**64. */
static inline void pcg_seed(Pcg64 *r, uint64_t seed) {
    uint32_t words[2] = {(uint32_t)seed, (uint32_t)(seed >> 32)};
    pcg_seed_words(r, words, words[1] ? 2 : 1);
}

/* Generator.integers(0, n) for 1 <= n <= 2**32 (Lemire's method on 32-bit draws). */
static inline uint32_t pcg_below32(Pcg64 *r, uint64_t n) {
    uint32_t rng = (uint32_t)(n - 1);
    if (rng == 0) return 0;
    if (rng == 0xFFFFFFFFu) return pcg_next32(r);
    uint32_t excl = rng + 1;
    uint64_t m = (uint64_t)pcg_next32(r) * excl;
    uint32_t left = (uint32_t)m;
    if (left < excl) {
        uint32_t threshold = (uint32_t)(0xFFFFFFFFu - rng) % excl;
        while (left < threshold) {
            m = (uint64_t)pcg_next32(r) * excl;
            left = (uint32_t)m;
        }
    }
    return (uint32_t)(m >> 32);
}

/* Generator.integers(2**63): a new seed. */
static inline uint64_t pcg_seed63(Pcg64 *r) { return pcg_next64(r) >> 1; }

/* numpy's random_interval: a value in [0, max] by masked rejection. */
static inline uint64_t pcg_interval(Pcg64 *r, uint64_t max) {
    if (max == 0) return 0;
    uint64_t mask = max, value;
    mask |= mask >> 1; mask |= mask >> 2; mask |= mask >> 4; mask |= mask >> 8; mask |= mask >> 16; mask |= mask >> 32;
    if (max <= 0xFFFFFFFFULL) {
        while ((value = (pcg_next32(r) & mask)) > max) {}
    } else {
        while ((value = (pcg_next64(r) & mask)) > max) {}
    }
    return value;
}

/* Generator.permutation(n) of small n, written to out[0..n). */
static inline void pcg_permutation(Pcg64 *r, int n, uint8_t *out) {
    for (int i = 0; i < n; i++) out[i] = (uint8_t)i;
    for (int i = n - 1; i >= 1; i--) {
        int j = (int)pcg_interval(r, (uint64_t)i);
        uint8_t t = out[i];
        out[i] = out[j];
        out[j] = t;
    }
}

#endif
