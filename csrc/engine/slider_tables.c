/*
 * slider_tables.c - builds the rook and bishop attack tables at start-up,
 * for the magic multiply and, where the pext variant exists, for pext
 * (slider_attacks.h reads them).
 *
 * Magics are searched here, not pasted: a private xorshift64* with fixed
 * seeds makes every run build identical tables. Every entry of the tables
 * is then checked against the reference attacks (each ray cut behind its
 * first blocker, the rays walked square by square once), so a bad magic can
 * never reach move generation. test/c/engine_test.c checks every entry
 * against the square-by-square ray walk itself.
 */
#include <stdio.h>
#include <string.h>

#include "attacks.h"
#include "prng.h"

cn_slider_table cn_rook_magics;
cn_slider_table cn_bishop_magics;

/* "Fancy" tables: one slice per square, 2^bits entries each. */
#define ROOK_TABLE_SIZE   102400
#define BISHOP_TABLE_SIZE 5248
static bitboard rook_magic_table[ROOK_TABLE_SIZE];
static bitboard bishop_magic_table[BISHOP_TABLE_SIZE];
#if CN_PEXT_TABLES
cn_slider_table cn_rook_pext;
cn_slider_table cn_bishop_pext;
static bitboard rook_pext_table[ROOK_TABLE_SIZE];
static bitboard bishop_pext_table[BISHOP_TABLE_SIZE];
#endif

static const int rook_directions[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
static const int bishop_directions[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};

/* The squares a slider on `square` reaches in one direction, up to and
 * including the first square of `occupied`. */
static bitboard ray_walk_one(unsigned square, bitboard occupied, const int direction[2]) {
    bitboard attacks = 0;
    int file = (int)square_file(square) + direction[0];
    int rank = (int)square_rank(square) + direction[1];
    while (on_board(file, rank)) {
        bitboard b = bb_square(make_square((unsigned)file, (unsigned)rank));
        attacks |= b;
        if (occupied & b) break;
        file += direction[0];
        rank += direction[1];
    }
    return attacks;
}

static bitboard ray_walk(unsigned square, bitboard occupied, const int directions[4][2]) {
    bitboard attacks = 0;
    for (int d = 0; d < 4; d++) attacks |= ray_walk_one(square, occupied, directions[d]);
    return attacks;
}

bitboard cn_rook_attacks_slow(unsigned square, bitboard occupied) {
    return ray_walk(square, occupied, rook_directions);
}

bitboard cn_bishop_attacks_slow(unsigned square, bitboard occupied) {
    return ray_walk(square, occupied, bishop_directions);
}

/* Relevant occupancy: the rays without their last square (an edge square
 * never changes the attack set). */
static bitboard relevant_mask(unsigned square, const int directions[4][2]) {
    bitboard mask = 0;
    for (int d = 0; d < 4; d++) {
        int file = (int)square_file(square) + directions[d][0];
        int rank = (int)square_rank(square) + directions[d][1];
        while (on_board(file + directions[d][0], rank + directions[d][1])) {
            mask |= bb_square(make_square((unsigned)file, (unsigned)rank));
            file += directions[d][0];
            rank += directions[d][1];
        }
    }
    return mask;
}

/* One slider's rays on an empty board, by square: those that run towards
 * higher square indices (up) and the others (down). A slider's four
 * directions are two opposite pairs, so two of each. */
typedef struct slider_rays {
    bitboard up[2][64];
    bitboard down[2][64];
} slider_rays;

static void walk_rays(const int directions[4][2], slider_rays *rays) {
    int ups = 0, downs = 0;
    for (int d = 0; d < 4; d++) {
        bitboard *ray = directions[d][1] * 8 + directions[d][0] > 0 ? rays->up[ups++] : rays->down[downs++];
        for (unsigned square = 0; square < 64; square++) ray[square] = ray_walk_one(square, 0, directions[d]);
    }
}

/* The ray walk's answer without walking: each ray loses the squares behind
 * its first blocker, which are that blocker's own ray. With no blocker the
 * cut is at the corner the ray cannot reach (h8 up, a1 down), whose ray in
 * that direction is empty. */
static bitboard reference_attacks(const slider_rays *rays, unsigned square, bitboard occupied) {
    bitboard attacks = 0;
    for (int d = 0; d < 2; d++) {
        const bitboard up = rays->up[d][square], down = rays->down[d][square];
        attacks |= up ^ rays->up[d][bb_lsb((up & occupied) | bb_square(63))];
        attacks |= down ^ rays->down[d][bb_msb((down & occupied) | bb_square(0))];
    }
    return attacks;
}

/* Magic candidates want few set bits: AND of three draws. */
static uint64_t prng_sparse(cn_prng *prng) { return cn_prng_next(prng) & cn_prng_next(prng) & cn_prng_next(prng); }

/* Per-square seeds, each the best of 1..1000 for its square
 * (test/c/magic_seeds.c prints this table): the whole search then takes
 * about 0.2 M subset checks. Any seed works, just more slowly. */
static const uint16_t rook_seeds[64] = {
    932, 17,  6,   337, 633, 646, 22,  147, 941, 705, 407,  89,  426, 19,  427, 224, 475, 282, 163, 111, 891, 152,
    103, 589, 845, 288, 860, 746, 272, 762, 885, 327, 1000, 689, 157, 433, 399, 496, 306, 169, 907, 90,  457, 522,
    76,  90,  159, 208, 773, 281, 76,  634, 153, 476, 872,  298, 925, 970, 606, 548, 830, 358, 609, 182,
};
static const uint16_t bishop_seeds[64] = {
    903, 321, 77,  154, 23,  7,   510, 711, 709, 182, 40,  19,  139, 147, 26,  561, 471, 112, 214, 418, 558, 172,
    4,   364, 532, 130, 210, 510, 136, 363, 31,  185, 5,   549, 803, 949, 360, 545, 391, 27,  133, 127, 507, 759,
    496, 959, 111, 142, 97,  9,   48,  134, 171, 124, 279, 1,   179, 169, 192, 26,  16,  36,  467, 57,
};

/* Scratch space for the search; static where it is used (80 KiB is too
 * much for a worker thread's stack). */
typedef struct magic_scratch {
    bitboard occupancy[4096];
    bitboard reference[4096];
    unsigned epoch[4096];
    unsigned current_epoch;
} magic_scratch;

/* Fills occupancy[] and reference[] with every subset of mask and its
 * attacks; Carry-Rippler enumerates the subsets in pext-index order. */
static size_t enumerate_subsets(unsigned square, bitboard mask, const slider_rays *rays, magic_scratch *scratch) {
    size_t count = 0;
    bitboard occ = 0;
    do {
        scratch->occupancy[count] = occ;
        scratch->reference[count] = reference_attacks(rays, square, occ);
        count++;
        occ = (occ - mask) & mask;
    } while (occ);
    return count;
}

/* Searches a magic for one square, filling slice[] as it goes. Returns the
 * magic, or 0 after max_tries candidates; *work counts subset checks. */
static uint64_t find_magic(unsigned square, unsigned shift, size_t count, uint64_t seed, magic_scratch *scratch,
                           bitboard *slice, uint64_t max_work, uint64_t *work) {
    cn_prng prng = {seed ^ (0x9E3779B97F4A7C15ULL * (square + 1))};
    const bitboard mask = scratch->occupancy[count - 1]; /* the last subset is the mask itself */
    while (*work < max_work) {
        uint64_t magic = prng_sparse(&prng);
        if (bb_popcount((mask * magic) >> 56) < 6) continue;
        /* A new epoch marks every slot empty without clearing the table. */
        if (++scratch->current_epoch == 0) {
            memset(scratch->epoch, 0, sizeof scratch->epoch);
            scratch->current_epoch = 1;
        }
        const unsigned epoch = scratch->current_epoch;
        size_t i;
        for (i = 0; i < count; i++) {
            size_t index = (size_t)((scratch->occupancy[i] * magic) >> shift);
            if (scratch->epoch[index] != epoch) {
                scratch->epoch[index] = epoch;
                slice[index] = scratch->reference[i];
            } else if (slice[index] != scratch->reference[i]) {
                break;
            }
        }
        *work += i + 1;
        if (i == count) return magic;
    }
    return 0;
}

/* One square's multiply entry: its magic, searched while filling slice[].
 * Returns 0 when the search does not converge. */
static int build_magic_entry(cn_slider_table *table, unsigned square, bitboard mask, size_t count, uint64_t seed,
                             magic_scratch *scratch, bitboard *slice) {
    uint64_t work = 0;
    CN_SLIDER(table, square, mask) = mask;
    CN_SLIDER(table, square, shift) = (uint8_t)(64 - bb_popcount(mask));
    CN_SLIDER(table, square, attacks) = slice;
    CN_SLIDER(table, square, magic) =
        find_magic(square, CN_SLIDER(table, square, shift), count, seed, scratch, slice, UINT64_C(1) << 40, &work);
    return CN_SLIDER(table, square, magic) != 0;
}

/* One square's pext entry: the subsets come in pext-index order, so the
 * reference answers are the slice as they stand. */
static void build_pext_entry(cn_slider_table *table, unsigned square, bitboard mask, size_t count,
                             const magic_scratch *scratch, bitboard *slice) {
    CN_SLIDER(table, square, mask) = mask;
    CN_SLIDER(table, square, magic) = 0;
    CN_SLIDER(table, square, shift) = 0;
    CN_SLIDER(table, square, attacks) = slice;
    for (size_t i = 0; i < count; i++) slice[i] = scratch->reference[i];
}

/* The finished entries of a square (pext NULL where there is no pext table)
 * agree with the reference attacks on every subset. */
static int entries_match_reference(const cn_slider_table *magic, const cn_slider_table *pext, unsigned square,
                                   size_t count, const magic_scratch *scratch) {
    for (size_t i = 0; i < count; i++) {
        const bitboard expected = scratch->reference[i];
        if (CN_SLIDER(magic, square, attacks)[cn_magic_index(magic, square, scratch->occupancy[i])] != expected)
            return 0;
        if (pext && CN_SLIDER(pext, square, attacks)[i] != expected) return 0;
    }
    return 1;
}

/* What to build for one slider: its directions and seeds, its multiply
 * table, and its pext table (NULL where no variant reads one). */
typedef struct slider_spec {
    const char *piece;
    const int (*directions)[2];
    const uint16_t *seeds;
    cn_slider_table *magics;
    bitboard *magic_table;
    cn_slider_table *pexts;
    bitboard *pext_table;
    size_t table_size;
} slider_spec;

/* The tables of one slider, square by square. Returns CN_OK, or
 * CN_ERR_INIT with a message in err. */
static cn_status build_slider(const slider_spec *spec, magic_scratch *scratch, char *err, size_t err_size) {
    static slider_rays rays;
    walk_rays(spec->directions, &rays);
    size_t offset = 0;
    for (unsigned square = 0; square < 64; square++) {
        const bitboard mask = relevant_mask(square, spec->directions);
        const size_t size = (size_t)1 << bb_popcount(mask);
        if (offset + size > spec->table_size) {
            snprintf(err, err_size, "%s table overflow at square %u", spec->piece, square);
            return CN_ERR_INIT;
        }
        const size_t count = enumerate_subsets(square, mask, &rays, scratch);
        if (!build_magic_entry(spec->magics, square, mask, count, spec->seeds[square], scratch,
                               spec->magic_table + offset)) {
            snprintf(err, err_size, "%s magic search did not converge on square %u", spec->piece, square);
            return CN_ERR_INIT;
        }
        if (spec->pexts) build_pext_entry(spec->pexts, square, mask, count, scratch, spec->pext_table + offset);
        if (!entries_match_reference(spec->magics, spec->pexts, square, count, scratch)) {
            snprintf(err, err_size, "%s magic verification failed on square %u", spec->piece, square);
            return CN_ERR_INIT;
        }
        offset += size;
    }
    return CN_OK;
}

uint64_t cn_magic_search_work(int rook, unsigned square, uint64_t seed, uint64_t max_work) {
    static magic_scratch scratch;
    static slider_rays rays;
    static bitboard slice[4096];
    const int (*directions)[2] = rook ? rook_directions : bishop_directions;
    walk_rays(directions, &rays);
    bitboard mask = relevant_mask(square, directions);
    size_t count = enumerate_subsets(square, mask, &rays, &scratch);
    uint64_t work = 0;
    if (!find_magic(square, 64u - (unsigned)bb_popcount(mask), count, seed, &scratch, slice, max_work, &work))
        return UINT64_MAX;
    return work;
}

#if CN_PEXT_TABLES
#define PEXT_TABLES(piece) &cn_##piece##_pext, piece##_pext_table
#else
#define PEXT_TABLES(piece) NULL, NULL
#endif

cn_status cn_slider_tables_init(char *err, size_t err_size) {
    static magic_scratch scratch; /* 80 KiB: too much for a worker's stack */
    const slider_spec sliders[2] = {
        {"rook", rook_directions, rook_seeds, &cn_rook_magics, rook_magic_table, PEXT_TABLES(rook), ROOK_TABLE_SIZE},
        {"bishop", bishop_directions, bishop_seeds, &cn_bishop_magics, bishop_magic_table, PEXT_TABLES(bishop),
         BISHOP_TABLE_SIZE},
    };
    for (int i = 0; i < 2; i++)
        if (build_slider(&sliders[i], &scratch, err, err_size) != CN_OK) return CN_ERR_INIT;
    return CN_OK;
}
