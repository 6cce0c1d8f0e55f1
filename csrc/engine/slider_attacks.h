/*
 * slider_attacks.h - rook and bishop attacks by table lookup, and the
 * attackers of a square built on them.
 *
 * The lookups index the tables slider_tables.c builds: with pext in the
 * pext variant (variants/pext.c defines CN_USE_PEXT to 1 before including
 * this), with the magic multiply everywhere else, which every CPU can run.
 * Everything here is static inline, so each file that includes it compiles
 * its own copy for its own instruction set.
 */
#ifndef CN_SLIDER_ATTACKS_H
#define CN_SLIDER_ATTACKS_H

#include "attacks.h"
#include "include/chess_native.h"

#if defined(CN_USE_PEXT) && CN_USE_PEXT
#include <immintrin.h>
/* The tables this code path reads, by piece (rook, bishop). */
#define SLIDER_TABLE(piece) cn_##piece##_pext
CN_INLINE bitboard slider_lookup(const cn_slider_table *t, unsigned square, bitboard occupied) {
    return CN_SLIDER(t, square, attacks)[_pext_u64(occupied, CN_SLIDER(t, square, mask))];
}
#else
#define SLIDER_TABLE(piece) cn_##piece##_magics
CN_INLINE bitboard slider_lookup(const cn_slider_table *t, unsigned square, bitboard occupied) {
    return CN_SLIDER(t, square, attacks)[cn_magic_index(t, square, occupied)];
}
#endif

CN_INLINE bitboard rook_attacks(unsigned square, bitboard occupied) {
    return slider_lookup(&SLIDER_TABLE(rook), square, occupied);
}
CN_INLINE bitboard bishop_attacks(unsigned square, bitboard occupied) {
    return slider_lookup(&SLIDER_TABLE(bishop), square, occupied);
}

/* The pieces of colour `by` that attack `square`, sliders blocked by
 * `occupied` (pseudo-legal: pinned pieces count; a piece on `square` does
 * not attack it). A pawn of `by` attacks `square` from where a pawn of the
 * other colour on `square` would attack. */
CN_INLINE bitboard attackers_to(const cn_position *p, unsigned square, bitboard occupied, int by) {
    const bitboard diagonal = p->by_type[CN_BISHOP] | p->by_type[CN_QUEEN];
    const bitboard straight = p->by_type[CN_ROOK] | p->by_type[CN_QUEEN];
    return ((cn_pawn_attacks[by ^ 1][square] & p->by_type[CN_PAWN]) |
            (cn_knight_attacks[square] & p->by_type[CN_KNIGHT]) | (cn_king_attacks[square] & p->by_type[CN_KING]) |
            (bishop_attacks(square, occupied) & diagonal) | (rook_attacks(square, occupied) & straight)) &
           p->by_color[by];
}

#endif /* CN_SLIDER_ATTACKS_H */
