/*
 * attacks.h - attack tables: leapers, between/line masks, castling paths
 * (attacks.c) and the slider tables for the magic multiply and, on
 * x86-64, pext (slider_tables.c), all filled once by cn_attacks_init(). The slider
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

/* One slider's lookup tables, by square: index = ((occ & mask) * magic) >>
 * shift for the multiply path, index = pext(occ, mask) for the pext path
 * (which leaves magic and shift 0). Entry 0 of each square's attack slice
 * is the attack set on an empty board. CN_SLIDER(table, square, field)
 * reads or writes one field of one square. On x86-64 the fields are
 * parallel arrays: a load there scales the square and adds the field's
 * offset itself, where an array of per-square structs costs a shift and an
 * add per lookup (about 3% of the perft's time). AArch64 and wasm have no
 * address mode with both an index and an offset: there the struct per
 * square is the shorter code. */
#if defined(__x86_64__) || defined(_M_X64)
typedef struct cn_slider_table {
    bitboard mask[64];
    uint64_t magic[64];
    const bitboard *attacks[64];
    uint8_t shift[64];
} cn_slider_table;
#define CN_SLIDER(table, sq, field) ((table)->field[sq])
#else
typedef struct cn_slider_table {
    struct {
        bitboard mask;
        uint64_t magic;
        unsigned shift;
        const bitboard *attacks;
    } entry[64];
} cn_slider_table;
#define CN_SLIDER(table, sq, field) ((table)->entry[sq].field)
#endif

/* Index of an occupancy in a multiply-path square's slice. */
static inline size_t cn_magic_index(const cn_slider_table *t, unsigned square, bitboard occupied) {
    return (size_t)(((occupied & CN_SLIDER(t, square, mask)) * CN_SLIDER(t, square, magic)) >>
                    CN_SLIDER(t, square, shift));
}

/* The pext tables exist only where the pext variant can be built
 * (x86-64: variants/variant.h); elsewhere no code path could read them. */
#if defined(__x86_64__) || defined(_M_X64)
#define CN_PEXT_TABLES 1
#else
#define CN_PEXT_TABLES 0
#endif

/* Written only inside cn_attacks_init (run once under cn_init's once-guard),
 * read-only afterwards. */
extern cn_slider_table cn_rook_magics;
extern cn_slider_table cn_bishop_magics;
#if CN_PEXT_TABLES
extern cn_slider_table cn_rook_pext;
extern cn_slider_table cn_bishop_pext;
#endif
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

/* Builds every table and verifies each slider entry against the reference
 * attacks (slider_tables.c).
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
