/*
 * tt.c - allocation of the perft transposition table.
 */
#include "transposition_table.h"

#include <stdlib.h>

int cn_tt_create(cn_tt *tt, size_t bytes) {
    size_t buckets = 1;
    while (buckets * 2 * sizeof(cn_tt_bucket) <= bytes) buckets *= 2;
    /* calloc: zeroed slots are misses (a zero count is never a hit), and
     * large zeroed blocks come from the OS without being touched. */
    void *memory = calloc(buckets + 1, sizeof(cn_tt_bucket));
    if (!memory) {
        tt->buckets = NULL;
        tt->mask = 0;
        tt->allocation = NULL;
        return -1;
    }
    uintptr_t aligned = ((uintptr_t)memory + sizeof(cn_tt_bucket) - 1) & ~(uintptr_t)(sizeof(cn_tt_bucket) - 1);
    tt->buckets = (cn_tt_bucket *)aligned;
    tt->mask = buckets - 1;
    tt->allocation = memory;
    return 0;
}

void cn_tt_destroy(cn_tt *tt) {
    free(tt->allocation);
    tt->buckets = NULL;
    tt->mask = 0;
    tt->allocation = NULL;
}
