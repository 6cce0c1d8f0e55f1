/*
 * attacks.h - attack tables: leapers, between/line masks, castling paths
 * (attacks.c) and the slider tables for the magic multiply and pext
 * (slider_tables.c), all filled once by cn_attacks_init(). The slider
 * lookups are in slider_attacks.h.
 */
#ifndef CN_ATTACKS_H
#define CN_ATTACKS_H

#include <stddef.h>

#include "bitboard.h"
#include "include/chess_native.h"

/* The tables are read in the hot loop: declared hidden so that code in a
 * shared object (the addon) reaches them directly, not through the GOT. */
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC visibility push(hidden)
#endif

/* One square's slider lookup: index = ((occ & mask) * magic) >> shift for
 * the multiply path, index = pext(occ, mask) for the pext path. Entry 0 is
 * the attack set on an empty board in both. */
typedef struct cn_slider_table {
    bitboard mask;
    uint64_t magic;
    unsigned shift;
    const bitboard *attacks;
} cn_slider_table;

/* Index of an occupancy in a multiply-path entry. */
static inline size_t cn_magic_index(const cn_slider_table *t, bitboard occupied) {
    return (size_t)(((occupied & t->mask) * t->magic) >> t->shift);
}

/* Written only inside cn_attacks_init (run once under cn_init's once-guard),
 * read-only afterwards. */
extern cn_slider_table cn_rook_magics[64];
extern cn_slider_table cn_bishop_magics[64];
extern cn_slider_table cn_rook_pext[64];
extern cn_slider_table cn_bishop_pext[64];
extern bitboard cn_knight_attacks[64];
extern bitboard cn_king_attacks[64];
extern bitboard cn_pawn_attacks[2][64];
/* Squares strictly between two aligned squares (0 when not aligned). */
extern bitboard cn_between[64][64];
/* The whole line through two aligned squares (0 when not aligned). */
extern bitboard cn_line[64][64];
/* A rook's and a bishop's attacks on an empty board: one load, for the
 * generator's test whether any enemy slider is aligned with the king. */
extern bitboard cn_rook_rays[64];
extern bitboard cn_bishop_rays[64];
/* The squares from which a rook or a bishop could attack some square a king
 * on this square steps to: the enemy sliders worth a lookup for its moves. */
extern bitboard cn_king_zone_rook_rays[64];
extern bitboard cn_king_zone_bishop_rays[64];

/* Castling geometry of one right, by right (0 white kingside, 1 white
 * queenside, 2 and 3 black), king file and rook file; both stand on their
 * back rank while the right lasts. Entries whose files coincide, or whose
 * rook is on the wrong side, are zero and never read. */
typedef struct cn_castle_path {
    bitboard must_be_empty;   /* both paths, without king and rook */
    bitboard king_path;       /* squares the king crosses or lands on */
    bitboard lifted;          /* king and rook, lifted for the attack test */
    bitboard diagonal_rays;   /* squares a bishop could hit the path from */
    bitboard orthogonal_rays; /* same for a rook */
} cn_castle_path;
extern cn_castle_path cn_castle_paths[4][8][8];

/* Builds every table and verifies each slider entry against the ray walk.
 * Returns CN_OK, or CN_ERR_INIT with a message in err. Not thread-safe:
 * cn_init wraps it. */
cn_status cn_attacks_init(char *err, size_t err_size);
/* The slider tables' share of cn_attacks_init. */
cn_status cn_slider_tables_init(char *err, size_t err_size);

/* For choosing seeds (test/c/magic_seeds.c): how many subset checks the
 * search for one square takes with a seed; UINT64_MAX past max_work. */
uint64_t cn_magic_search_work(int rook, unsigned square, uint64_t seed, uint64_t max_work);

/* Slow reference: walks the rays square by square. */
bitboard cn_rook_attacks_slow(unsigned square, bitboard occupied);
bitboard cn_bishop_attacks_slow(unsigned square, bitboard occupied);

#if defined(__GNUC__) || defined(__clang__)
#pragma GCC visibility pop
#endif

#endif /* CN_ATTACKS_H */
