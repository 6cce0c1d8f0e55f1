/*
 * transposition_table.h - the perft transposition table: subtree counts keyed
 * by two independent 64-bit Zobrist keys of the position, each mixed with the
 * remaining depth into a tag: the Polyglot key (cn_position.key) and a second
 * key from the table's own key set (cn_tt_keys: xorshift64* values from a
 * seed, laid out as the Polyglot table).
 *
 * Shared by all perft threads without locks. A bucket is one 64-byte cache
 * line of three slots, indexed by the first tag's low bits. A slot holds
 * count, check = tag ^ count and check2 = (tag2 ^ count) mod 2^32, each
 * written and read with a relaxed atomic; a reader accepts it only if both
 * checks match its own tags. A slot torn by a concurrent write, or holding
 * another position that maps to the same bucket, fails that test and is a
 * miss: a torn slot can pass only with the count of the reader's own
 * position, and a wrong count needs another position whose 96 checked bits
 * (the whole first tag, 32 bits of the second) equal the reader's: about
 * 3 * 2^-96 per probe of a full table.
 */
#ifndef CN_TT_H
#define CN_TT_H

#include <stddef.h>
#include <stdint.h>
#if defined(_MSC_VER) && !defined(__clang__)
#include <xmmintrin.h> /* _mm_prefetch */
#endif

#include "include/chess_native.h"
#include "zobrist.h"

#define CN_TT_SLOTS 3

typedef struct cn_tt_bucket {
    uint64_t check[CN_TT_SLOTS];
    uint64_t count[CN_TT_SLOTS];
    uint32_t check2[CN_TT_SLOTS];
    uint32_t unused;
} cn_tt_bucket;

/* The second key set: one value per Polyglot feature, and the multiplier
 * that mixes the depth into the second tag. */
typedef struct cn_tt_keys {
    uint64_t seed;
    uint64_t depth_mix;
    uint64_t random[CN_POLYGLOT_RANDOM_COUNT];
} cn_tt_keys;

typedef struct cn_tt {
    cn_tt_bucket *buckets;
    uint64_t mask; /* bucket count - 1 (a power of two) */
    void *allocation;
    cn_tt_keys keys;
} cn_tt;

/* Allocates the largest power-of-two table that fits in bytes (at least one
 * bucket), zeroed, with the key set of `seed` (0: CN_PERFT_KEY_SEED, see
 * perft_job.h). Returns CN_OK, or CN_ERR_NO_MEMORY (the table then has no
 * buckets). */
cn_status cn_tt_create(cn_tt *tt, size_t bytes, uint64_t seed);
/* Bytes of a created table's buckets. */
size_t cn_tt_bytes(const cn_tt *tt);
void cn_tt_destroy(cn_tt *tt);

/* Fills a key set from seed (0: CN_PERFT_KEY_SEED). */
void cn_tt_keys_init(cn_tt_keys *keys, uint64_t seed);

/* A position's second key, from scratch; the hashed perft keeps it
 * incrementally below (variants/copy_make.h). */
uint64_t cn_tt_key2(const cn_tt *tt, const cn_position *pos);

#if defined(_MSC_VER) && !defined(__clang__)
/* Aligned 32- and 64-bit loads and stores are single instructions on x64. */
#define CN_TT_LOAD(ptr)           (*(volatile const uint64_t *)(ptr))
#define CN_TT_STORE(ptr, value)   (*(volatile uint64_t *)(ptr) = (value))
#define CN_TT_LOAD32(ptr)         (*(volatile const uint32_t *)(ptr))
#define CN_TT_STORE32(ptr, value) (*(volatile uint32_t *)(ptr) = (value))
#else
#define CN_TT_LOAD(ptr)           __atomic_load_n((ptr), __ATOMIC_RELAXED)
#define CN_TT_STORE(ptr, value)   __atomic_store_n((ptr), (value), __ATOMIC_RELAXED)
#define CN_TT_LOAD32(ptr)         __atomic_load_n((ptr), __ATOMIC_RELAXED)
#define CN_TT_STORE32(ptr, value) __atomic_store_n((ptr), (value), __ATOMIC_RELAXED)
#endif

/* Depth goes into both tags so that one position at two depths never matches. */
static inline uint64_t cn_tt_tag(uint64_t key, int depth) {
    return key ^ (0x9E3779B97F4A7C15ULL * (uint64_t)(depth + 1));
}
static inline uint64_t cn_tt_tag2(const cn_tt *tt, uint64_t key2, int depth) {
    return key2 ^ (tt->keys.depth_mix * (uint64_t)(depth + 1));
}

/* Starts loading the bucket of tag into the cache; a hint only. */
static inline void cn_tt_prefetch(const cn_tt *tt, uint64_t tag) {
#if defined(_MSC_VER) && !defined(__clang__)
    _mm_prefetch((const char *)&tt->buckets[tag & tt->mask], _MM_HINT_T0);
#else
    __builtin_prefetch(&tt->buckets[tag & tt->mask]);
#endif
}

static inline int cn_tt_probe(const cn_tt *tt, uint64_t tag, uint64_t tag2, uint64_t *count) {
    cn_tt_bucket *bucket = &tt->buckets[tag & tt->mask];
    for (int i = 0; i < CN_TT_SLOTS; i++) {
        const uint64_t check = CN_TT_LOAD(&bucket->check[i]);
        const uint64_t value = CN_TT_LOAD(&bucket->count[i]);
        const uint32_t check2 = CN_TT_LOAD32(&bucket->check2[i]);
        if ((check ^ value) == tag && (uint32_t)(check2 ^ value) == (uint32_t)tag2 && value != 0) {
            *count = value;
            return 1;
        }
    }
    return 0;
}

static inline void cn_tt_write(cn_tt_bucket *bucket, int slot, uint64_t check, uint64_t count, uint32_t check2) {
    CN_TT_STORE(&bucket->count[slot], count);
    CN_TT_STORE(&bucket->check[slot], check);
    CN_TT_STORE32(&bucket->check2[slot], check2);
}

/* Replacement by subtree size, standing in for the remaining depth (not
 * stored; a larger count almost always means a deeper subtree): slot 0
 * keeps the largest, and slots 1 and 2 take the others, each replacing the
 * smaller of the two. A new largest moves slot 0's entry down (a copy torn
 * by a concurrent write is a miss like any torn slot). */
static inline void cn_tt_store(const cn_tt *tt, uint64_t tag, uint64_t tag2, uint64_t count) {
    if (count == 0) return; /* zero is what empty memory holds: never a hit */
    cn_tt_bucket *bucket = &tt->buckets[tag & tt->mask];
    const uint64_t largest = CN_TT_LOAD(&bucket->count[0]);
    const uint64_t count1 = CN_TT_LOAD(&bucket->count[1]), count2 = CN_TT_LOAD(&bucket->count[2]);
    const int smaller = count1 <= count2 ? 1 : 2;
    if (largest > count) {
        cn_tt_write(bucket, smaller, tag ^ count, count, (uint32_t)(tag2 ^ count));
        return;
    }
    if (largest > (smaller == 1 ? count1 : count2))
        cn_tt_write(bucket, smaller, CN_TT_LOAD(&bucket->check[0]), largest, CN_TT_LOAD32(&bucket->check2[0]));
    cn_tt_write(bucket, 0, tag ^ count, count, (uint32_t)(tag2 ^ count));
}

#endif /* CN_TT_H */
