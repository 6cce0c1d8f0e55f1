/*
 * attacks.c - builds the attack tables at start-up.
 *
 * Slider magics are searched here, not pasted: a private xorshift64* with
 * fixed seeds makes every run build identical tables. Every entry of both
 * the multiply and the pext tables is then checked against the ray walk, so
 * a bad magic can never reach move generation.
 */
#include "attacks.h"

#include <stdio.h>
#include <string.h>

cn_slider_table cn_rook_magics[64];
cn_slider_table cn_bishop_magics[64];
cn_slider_table cn_rook_pext[64];
cn_slider_table cn_bishop_pext[64];
bitboard cn_knight_attacks[64];
bitboard cn_king_attacks[64];
bitboard cn_pawn_attacks[2][64];
bitboard cn_between[64][64];
cn_castle_path cn_castle_paths[4][8][8];
bitboard cn_line[64][64];

/* "Fancy" tables: one slice per square, 2^bits entries each. */
#define ROOK_TABLE_SIZE 102400
#define BISHOP_TABLE_SIZE 5248
static bitboard rook_magic_table[ROOK_TABLE_SIZE];
static bitboard bishop_magic_table[BISHOP_TABLE_SIZE];
static bitboard rook_pext_table[ROOK_TABLE_SIZE];
static bitboard bishop_pext_table[BISHOP_TABLE_SIZE];

static const int rook_directions[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
static const int bishop_directions[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};

static int on_board(int file, int rank) { return file >= 0 && file < 8 && rank >= 0 && rank < 8; }

static bitboard ray_walk(unsigned square, bitboard occupied, const int directions[4][2]) {
    bitboard attacks = 0;
    for (int d = 0; d < 4; d++) {
        int file = (int)square_file(square) + directions[d][0];
        int rank = (int)square_rank(square) + directions[d][1];
        while (on_board(file, rank)) {
            bitboard b = bb_square(make_square((unsigned)file, (unsigned)rank));
            attacks |= b;
            if (occupied & b) break;
            file += directions[d][0];
            rank += directions[d][1];
        }
    }
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

/* xorshift64* (Vigna): private, so no caller of rand() can change our tables. */
typedef struct magic_prng {
    uint64_t state;
} magic_prng;

static uint64_t prng_next(magic_prng *prng) {
    prng->state ^= prng->state >> 12;
    prng->state ^= prng->state << 25;
    prng->state ^= prng->state >> 27;
    return prng->state * 2685821657736338717ULL;
}

/* Magic candidates want few set bits: AND of three draws. */
static uint64_t prng_sparse(magic_prng *prng) {
    return prng_next(prng) & prng_next(prng) & prng_next(prng);
}

/* Per-square seeds, each the best of 1..1000 for its square
 * (test/c/magic_seeds.c prints this table): the whole search then takes
 * about 0.2 M subset checks. Any seed works, just more slowly. */
static const uint16_t rook_seeds[64] = {
    932, 17, 6, 337, 633, 646, 22, 147, 941, 705, 407, 89, 426, 19, 427, 224,
    475, 282, 163, 111, 891, 152, 103, 589, 845, 288, 860, 746, 272, 762, 885, 327,
    1000, 689, 157, 433, 399, 496, 306, 169, 907, 90, 457, 522, 76, 90, 159, 208,
    773, 281, 76, 634, 153, 476, 872, 298, 925, 970, 606, 548, 830, 358, 609, 182,
};
static const uint16_t bishop_seeds[64] = {
    903, 321, 77, 154, 23, 7, 510, 711, 709, 182, 40, 19, 139, 147, 26, 561,
    471, 112, 214, 418, 558, 172, 4, 364, 532, 130, 210, 510, 136, 363, 31, 185,
    5, 549, 803, 949, 360, 545, 391, 27, 133, 127, 507, 759, 496, 959, 111, 142,
    97, 9, 48, 134, 171, 124, 279, 1, 179, 169, 192, 26, 16, 36, 467, 57,
};

/* Scratch space for the search; static in cn_attacks_init (80 KiB is too
 * much for a worker thread's stack). */
typedef struct magic_scratch {
    bitboard occupancy[4096];
    bitboard reference[4096];
    unsigned epoch[4096];
    unsigned current_epoch;
} magic_scratch;

/* Fills occupancy[] and reference[] with every subset of mask and its ray
 * walk; Carry-Rippler enumerates the subsets in pext-index order. */
static size_t enumerate_subsets(unsigned square, bitboard mask, const int directions[4][2], magic_scratch *scratch) {
    size_t count = 0;
    bitboard occ = 0;
    do {
        scratch->occupancy[count] = occ;
        scratch->reference[count] = ray_walk(square, occ, directions);
        count++;
        occ = (occ - mask) & mask;
    } while (occ);
    return count;
}

/* Searches a magic for one square, filling slice[] as it goes. Returns the
 * magic, or 0 after max_tries candidates; *work counts subset checks. */
static uint64_t find_magic(unsigned square, unsigned shift, size_t count, uint64_t seed, magic_scratch *scratch,
                           bitboard *slice, uint64_t max_work, uint64_t *work) {
    magic_prng prng = {seed ^ (0x9E3779B97F4A7C15ULL * (square + 1))};
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

static int build_slider(const int directions[4][2], const uint16_t seeds[64],
                        cn_slider_table magics[64], bitboard *magic_table,
                        cn_slider_table pexts[64], bitboard *pext_table,
                        size_t table_size, magic_scratch *scratch,
                        const char *piece, char *err, size_t err_size) {
    size_t offset = 0;
    for (unsigned square = 0; square < 64; square++) {
        bitboard mask = relevant_mask(square, directions);
        int bits = bb_popcount(mask);
        size_t size = (size_t)1 << bits;
        if (offset + size > table_size) {
            snprintf(err, err_size, "%s table overflow at square %u", piece, square);
            return -1;
        }
        size_t count = enumerate_subsets(square, mask, directions, scratch);

        cn_slider_table *m = &magics[square];
        m->mask = mask;
        m->shift = 64u - (unsigned)bits;
        m->attacks = magic_table + offset;
        uint64_t work = 0;
        m->magic = find_magic(square, m->shift, count, seeds[square], scratch, magic_table + offset,
                              UINT64_C(1) << 40, &work);
        if (m->magic == 0) {
            snprintf(err, err_size, "%s magic search did not converge on square %u", piece, square);
            return -1;
        }

        cn_slider_table *p = &pexts[square];
        p->mask = mask;
        p->magic = 0;
        p->shift = 0;
        p->attacks = pext_table + offset;
        for (size_t i = 0; i < count; i++) pext_table[offset + i] = scratch->reference[i];

        /* Check the finished entry against the ray walk for every subset
         * (reference[] holds the ray walk's answers). */
        for (size_t i = 0; i < count; i++) {
            bitboard o = scratch->occupancy[i];
            bitboard expected = scratch->reference[i];
            bitboard via_magic = m->attacks[((o & m->mask) * m->magic) >> m->shift];
            if (via_magic != expected || p->attacks[i] != expected) {
                snprintf(err, err_size, "%s magic verification failed on square %u", piece, square);
                return -1;
            }
        }
        offset += size;
    }
    return 0;
}

uint64_t cn_magic_search_work(int rook, unsigned square, uint64_t seed, uint64_t max_work) {
    static magic_scratch scratch;
    static bitboard slice[4096];
    const int(*directions)[2] = rook ? rook_directions : bishop_directions;
    bitboard mask = relevant_mask(square, directions);
    size_t count = enumerate_subsets(square, mask, directions, &scratch);
    uint64_t work = 0;
    if (!find_magic(square, 64u - (unsigned)bb_popcount(mask), count, seed, &scratch, slice, max_work, &work))
        return UINT64_MAX;
    return work;
}

static bitboard leaper_attacks(unsigned square, const int (*steps)[2], int step_count) {
    bitboard attacks = 0;
    for (int i = 0; i < step_count; i++) {
        int file = (int)square_file(square) + steps[i][0];
        int rank = (int)square_rank(square) + steps[i][1];
        if (on_board(file, rank)) attacks |= bb_square(make_square((unsigned)file, (unsigned)rank));
    }
    return attacks;
}

static void build_leapers_and_lines(void) {
    static const int knight_steps[8][2] = {{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
    static const int king_steps[8][2] = {{1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}, {1, -1}};
    static const int white_pawn_steps[2][2] = {{-1, 1}, {1, 1}};
    static const int black_pawn_steps[2][2] = {{-1, -1}, {1, -1}};
    for (unsigned square = 0; square < 64; square++) {
        cn_knight_attacks[square] = leaper_attacks(square, knight_steps, 8);
        cn_king_attacks[square] = leaper_attacks(square, king_steps, 8);
        cn_pawn_attacks[0][square] = leaper_attacks(square, white_pawn_steps, 2);
        cn_pawn_attacks[1][square] = leaper_attacks(square, black_pawn_steps, 2);
    }
    for (unsigned a = 0; a < 64; a++) {
        for (unsigned b = 0; b < 64; b++) {
            cn_between[a][b] = 0;
            cn_line[a][b] = 0;
            if (a == b) continue;
            bitboard bb_b = bb_square(b);
            if (cn_rook_attacks_slow(a, 0) & bb_b) {
                cn_between[a][b] = cn_rook_attacks_slow(a, bb_b) & cn_rook_attacks_slow(b, bb_square(a));
                cn_line[a][b] = (cn_rook_attacks_slow(a, 0) & cn_rook_attacks_slow(b, 0)) | bb_square(a) | bb_b;
            } else if (cn_bishop_attacks_slow(a, 0) & bb_b) {
                cn_between[a][b] = cn_bishop_attacks_slow(a, bb_b) & cn_bishop_attacks_slow(b, bb_square(a));
                cn_line[a][b] = (cn_bishop_attacks_slow(a, 0) & cn_bishop_attacks_slow(b, 0)) | bb_square(a) | bb_b;
            }
        }
    }
}

/* Castling needs, for a king and rook on their files, the same few masks
 * every time: built here once rather than in each move generation. */
static void build_castle_paths(void) {
    for (unsigned right = 0; right < 4; right++) {
        const unsigned back_rank = right >= 2 ? 7u : 0u;
        const int queenside = right & 1u;
        const unsigned king_to = make_square(queenside ? 2u : 6u, back_rank);
        const unsigned rook_to = make_square(queenside ? 3u : 5u, back_rank);
        for (unsigned king_file = 0; king_file < 8; king_file++) {
            for (unsigned rook_file = 0; rook_file < 8; rook_file++) {
                cn_castle_path *path = &cn_castle_paths[right][king_file][rook_file];
                memset(path, 0, sizeof *path);
                if (queenside ? rook_file >= king_file : rook_file <= king_file) continue;
                const unsigned king = make_square(king_file, back_rank), rook = make_square(rook_file, back_rank);
                path->lifted = bb_square(king) | bb_square(rook);
                path->king_path = cn_between[king][king_to] | bb_square(king_to);
                path->must_be_empty =
                    (path->king_path | cn_between[rook][rook_to] | bb_square(rook_to)) & ~path->lifted;
                bitboard squares = path->king_path;
                while (squares) {
                    const unsigned square = bb_pop_lsb(&squares);
                    path->diagonal_rays |= cn_bishop_attacks_slow(square, 0);
                    path->orthogonal_rays |= cn_rook_attacks_slow(square, 0);
                }
            }
        }
    }
}

int cn_attacks_init(char *err, size_t err_size) {
    static magic_scratch scratch; /* 80 KiB: too much for a worker's stack */
    build_leapers_and_lines();
    build_castle_paths();
    if (build_slider(rook_directions, rook_seeds, cn_rook_magics, rook_magic_table, cn_rook_pext,
                     rook_pext_table, ROOK_TABLE_SIZE, &scratch, "rook", err, err_size) != 0)
        return -1;
    if (build_slider(bishop_directions, bishop_seeds, cn_bishop_magics, bishop_magic_table, cn_bishop_pext,
                     bishop_pext_table, BISHOP_TABLE_SIZE, &scratch, "bishop", err, err_size) != 0)
        return -1;
    return 0;
}
