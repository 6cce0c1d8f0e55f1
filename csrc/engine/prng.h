/*
 * prng.h - the engine's private generator, xorshift64* (Vigna): the magic
 * search and the hashed perft's second key set draw from it, so no caller
 * of rand() can change their tables. The state must not be zero.
 */
#ifndef CN_PRNG_H
#define CN_PRNG_H

#include <stdint.h>

typedef struct cn_prng {
    uint64_t state;
} cn_prng;

static inline uint64_t cn_prng_next(cn_prng *prng) {
    prng->state ^= prng->state >> 12;
    prng->state ^= prng->state << 25;
    prng->state ^= prng->state >> 27;
    return prng->state * 2685821657736338717ULL;
}

#endif /* CN_PRNG_H */
