/*
 * transposition_table.h - the perft transposition table: subtree counts keyed by the
 * position's 64-bit Polyglot key and the remaining depth.
 *
 * Shared by all perft threads without locks. Each slot holds two words,
 * check = tag ^ count and count, written and read with relaxed atomics; a
 * reader accepts a slot only if check ^ count equals its own tag. A slot torn
 * by a concurrent write, or holding another position that maps to the same
 * index, fails that test and is a miss: a wrong count needs two different
 * positions with equal 64-bit keys (about 2^-64 per probe of a full table).
 */
#ifndef CN_TT_H
#define CN_TT_H

#include <stddef.h>
#include <stdint.h>

#include "include/chess_native.h"

typedef struct cn_tt_slot {
    uint64_t check;
    uint64_t count;
} cn_tt_slot;

/* Two slots a bucket: [0] keeps the deeper entry, [1] always takes the new. */
typedef struct cn_tt_bucket {
    cn_tt_slot slot[2];
} cn_tt_bucket;

typedef struct cn_tt {
    cn_tt_bucket *buckets;
    uint64_t mask; /* bucket count - 1 (a power of two) */
    void *allocation;
} cn_tt;

/* Allocates the largest power-of-two table that fits in bytes (at least one
 * bucket), zeroed. Returns CN_OK, or CN_ERR_NO_MEMORY (the table then has
 * no buckets). */
cn_status cn_tt_create(cn_tt *tt, size_t bytes);
/* Bytes of a created table's buckets. */
size_t cn_tt_bytes(const cn_tt *tt);
void cn_tt_destroy(cn_tt *tt);

#if defined(_MSC_VER) && !defined(__clang__)
/* Aligned 64-bit loads and stores are single instructions on x64. */
#define CN_TT_LOAD(ptr) (*(volatile const uint64_t *)(ptr))
#define CN_TT_STORE(ptr, value) (*(volatile uint64_t *)(ptr) = (value))
#else
#define CN_TT_LOAD(ptr) __atomic_load_n((ptr), __ATOMIC_RELAXED)
#define CN_TT_STORE(ptr, value) __atomic_store_n((ptr), (value), __ATOMIC_RELAXED)
#endif

/* Depth goes into the tag so that one position at two depths never matches. */
static inline uint64_t cn_tt_tag(uint64_t key, int depth) {
    return key ^ (0x9E3779B97F4A7C15ULL * (uint64_t)(depth + 1));
}

static inline int cn_tt_probe(const cn_tt *tt, uint64_t tag, uint64_t *count) {
    cn_tt_bucket *bucket = &tt->buckets[tag & tt->mask];
    for (int i = 0; i < 2; i++) {
        uint64_t check = CN_TT_LOAD(&bucket->slot[i].check);
        uint64_t value = CN_TT_LOAD(&bucket->slot[i].count);
        if ((check ^ value) == tag && value != 0) {
            *count = value;
            return 1;
        }
    }
    return 0;
}

/* depth_rank orders entries for replacement (the remaining depth). The
 * deeper slot's depth is not stored, so counts stand in for it: a larger
 * subtree count almost always means a deeper subtree. */
static inline void cn_tt_store(const cn_tt *tt, uint64_t tag, uint64_t count) {
    if (count == 0) return; /* zero is what empty memory holds: never a hit */
    cn_tt_bucket *bucket = &tt->buckets[tag & tt->mask];
    int index = CN_TT_LOAD(&bucket->slot[0].count) <= count ? 0 : 1;
    CN_TT_STORE(&bucket->slot[index].count, count);
    CN_TT_STORE(&bucket->slot[index].check, tag ^ count);
}

#endif /* CN_TT_H */
