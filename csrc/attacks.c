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

/* Per-rank seeds chosen (by trying seeds offline) so that the search
 * converges in few candidates; any non-zero seed works, just slower. */
static const uint64_t rook_seeds[8] = {
    728, 10316, 55013, 32803, 12281, 15100, 16645, 255
};
static const uint64_t bishop_seeds[8] = {
    728, 10316, 55013, 32803, 12281, 15100, 16645, 255
};

/* Scratch space for the search, on the init thread's stack via the caller. */
typedef struct magic_scratch {
    bitboard occupancy[4096];
    bitboard reference[4096];
    unsigned epoch[4096];
} magic_scratch;

static int build_slider(const int directions[4][2], const uint64_t seeds[8],
                        cn_slider_table magics[64], bitboard *magic_table,
                        cn_slider_table pexts[64], bitboard *pext_table,
                        size_t table_size, magic_scratch *scratch,
                        const char *piece, char *err, size_t err_size) {
    size_t offset = 0;
    unsigned epoch = 0;
    memset(scratch->epoch, 0, sizeof scratch->epoch);
    for (unsigned square = 0; square < 64; square++) {
        bitboard mask = relevant_mask(square, directions);
        int bits = bb_popcount(mask);
        size_t size = (size_t)1 << bits;
        if (offset + size > table_size) {
            snprintf(err, err_size, "%s table overflow at square %u", piece, square);
            return -1;
        }
        /* Carry-Rippler enumerates the subsets in pext-index order. */
        size_t count = 0;
        bitboard occ = 0;
        do {
            scratch->occupancy[count] = occ;
            scratch->reference[count] = ray_walk(square, occ, directions);
            count++;
            occ = (occ - mask) & mask;
        } while (occ);

        cn_slider_table *m = &magics[square];
        m->mask = mask;
        m->shift = 64u - (unsigned)bits;
        m->attacks = magic_table + offset;
        bitboard *slice = magic_table + offset;

        magic_prng prng = {seeds[square_rank(square)] ^ (0x9E3779B97F4A7C15ULL * (square + 1))};
        uint64_t tries = 0;
        for (;;) {
            uint64_t magic = prng_sparse(&prng);
            if (++tries > 100000000ULL) {
                snprintf(err, err_size, "%s magic search did not converge on square %u", piece, square);
                return -1;
            }
            if (bb_popcount((mask * magic) >> 56) < 6) continue;
            epoch++;
            size_t i;
            for (i = 0; i < count; i++) {
                size_t index = (size_t)((scratch->occupancy[i] * magic) >> m->shift);
                if (scratch->epoch[index] != epoch) {
                    scratch->epoch[index] = epoch;
                    slice[index] = scratch->reference[i];
                } else if (slice[index] != scratch->reference[i]) {
                    break;
                }
            }
            if (i == count) {
                m->magic = magic;
                break;
            }
        }

        cn_slider_table *p = &pexts[square];
        p->mask = mask;
        p->magic = 0;
        p->shift = 0;
        p->attacks = pext_table + offset;
        for (size_t i = 0; i < count; i++) pext_table[offset + i] = scratch->reference[i];

        /* Independent check of the finished entry against the ray walk. */
        for (size_t i = 0; i < count; i++) {
            bitboard o = scratch->occupancy[i];
            bitboard expected = ray_walk(square, o, directions);
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

int cn_attacks_init(char *err, size_t err_size) {
    static magic_scratch scratch; /* 80 KiB: too much for a worker's stack */
    build_leapers_and_lines();
    if (build_slider(rook_directions, rook_seeds, cn_rook_magics, rook_magic_table, cn_rook_pext,
                     rook_pext_table, ROOK_TABLE_SIZE, &scratch, "rook", err, err_size) != 0)
        return -1;
    if (build_slider(bishop_directions, bishop_seeds, cn_bishop_magics, bishop_magic_table, cn_bishop_pext,
                     bishop_pext_table, BISHOP_TABLE_SIZE, &scratch, "bishop", err, err_size) != 0)
        return -1;
    return 0;
}
