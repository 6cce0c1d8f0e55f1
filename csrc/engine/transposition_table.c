/*
 * transposition_table.c - allocation of the perft transposition table and
 * its second key set.
 */
#if defined(__linux__) && !defined(_DEFAULT_SOURCE)
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS, madvise */
#endif

#include "transposition_table.h"

#include <stdlib.h>

#include "include/perft_job.h"
#include "position.h"
#include "prng.h"
#ifdef __linux__
#include <sys/mman.h>
#endif

/* One bucket is one cache line. */
_Static_assert(sizeof(cn_tt_bucket) == 64, "a bucket must be 64 bytes");

/* The largest power of two of buckets that fits in bytes, at least one. */
static size_t bucket_count(size_t bytes) {
    size_t buckets = 1;
    while (buckets <= SIZE_MAX / 4 / sizeof(cn_tt_bucket) && buckets * 2 * sizeof(cn_tt_bucket) <= bytes) buckets *= 2;
    return buckets;
}

static cn_status set_table(cn_tt *tt, void *allocation, uintptr_t aligned, size_t buckets) {
    tt->buckets = allocation ? (cn_tt_bucket *)aligned : NULL;
    tt->mask = allocation ? buckets - 1 : 0;
    tt->allocation = allocation;
    return allocation ? CN_OK : CN_ERR_NO_MEMORY;
}

#ifdef __linux__
/* On Linux a large table is mapped directly, 2 MiB aligned and marked for
 * transparent huge pages: probes land at random across up to gigabytes, and
 * with 4 KiB pages nearly every one also misses the TLB. */
#define HUGE_PAGE_BYTES ((size_t)2 << 20)

static cn_status map_table(cn_tt *tt, size_t buckets) {
    const size_t size = buckets * sizeof(cn_tt_bucket);
    /* Anonymous mappings are zeroed: empty slots are misses. */
    void *mapping = mmap(NULL, size + HUGE_PAGE_BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mapping == MAP_FAILED) return set_table(tt, NULL, 0, 0);
    const uintptr_t aligned = ((uintptr_t)mapping + HUGE_PAGE_BYTES - 1) & ~(uintptr_t)(HUGE_PAGE_BYTES - 1);
    madvise((void *)aligned, size, MADV_HUGEPAGE); /* a hint: failure only costs speed */
    return set_table(tt, mapping, aligned, buckets);
}
#endif

void cn_tt_keys_init(cn_tt_keys *keys, uint64_t seed) {
    keys->seed = seed ? seed : CN_PERFT_KEY_SEED;
    cn_prng prng = {keys->seed};
    for (int i = 0; i < CN_POLYGLOT_RANDOM_COUNT; i++) keys->random[i] = cn_prng_next(&prng);
    keys->depth_mix = cn_prng_next(&prng) | 1u; /* odd: depth + 1 maps to distinct values */
}

uint64_t cn_tt_key2(const cn_tt *tt, const cn_position *pos) { return cn_zobrist_key(pos, tt->keys.random); }

cn_status cn_tt_create(cn_tt *tt, size_t bytes, uint64_t seed) {
    cn_tt_keys_init(&tt->keys, seed);
    const size_t buckets = bucket_count(bytes);
#ifdef __linux__
    if (buckets * sizeof(cn_tt_bucket) >= HUGE_PAGE_BYTES) return map_table(tt, buckets);
#endif
    /* calloc: zeroed slots are misses (a zero count is never a hit), and
     * large zeroed blocks come from the OS without being touched. One
     * bucket more leaves room to align the first. */
    void *memory = calloc(buckets + 1, sizeof(cn_tt_bucket));
    const uintptr_t aligned = ((uintptr_t)memory + sizeof(cn_tt_bucket) - 1) & ~(uintptr_t)(sizeof(cn_tt_bucket) - 1);
    return set_table(tt, memory, aligned, buckets);
}

size_t cn_tt_bytes(const cn_tt *tt) { return (size_t)(tt->mask + 1) * sizeof(cn_tt_bucket); }

void cn_tt_destroy(cn_tt *tt) {
#ifdef __linux__
    if (cn_tt_bytes(tt) >= HUGE_PAGE_BYTES) {
        munmap(tt->allocation, cn_tt_bytes(tt) + HUGE_PAGE_BYTES);
        set_table(tt, NULL, 0, 0);
        return;
    }
#endif
    free(tt->allocation);
    set_table(tt, NULL, 0, 0);
}
