/*
 * zobrist.h - the Polyglot random table and where each feature's value sits.
 *
 * Keys built from this table are the Polyglot book keys, so an opening book
 * can be probed with cn_position.key directly.
 */
#ifndef CN_ZOBRIST_H
#define CN_ZOBRIST_H

#include <stdint.h>

#include "include/chess_native.h"

#define CN_POLYGLOT_RANDOM_COUNT 781
/* Castling right bit index i (CN_WHITE_OO = bit 0 ... CN_BLACK_OOO = bit 3)
 * uses entry CN_POLYGLOT_CASTLE_OFFSET + i: Polyglot's order is the same. */
#define CN_POLYGLOT_CASTLE_OFFSET 768
/* En passant file f (0 = a) uses CN_POLYGLOT_EP_OFFSET + f. */
#define CN_POLYGLOT_EP_OFFSET 772
/* XORed in when WHITE is to move (Polyglot's convention, not black's). */
#define CN_POLYGLOT_TURN 780

#if defined(__GNUC__) || defined(__clang__)
#pragma GCC visibility push(hidden) /* direct access from the addon's code */
#endif
extern const uint64_t cn_polyglot_random[CN_POLYGLOT_RANDOM_COUNT];
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC visibility pop
#endif

/* Index of a piece's key. Polyglot orders pieces black pawn, white pawn,
 * black knight, ... so the "kind" is 2 * type + 1 for white; squares are
 * a1 = 0 as in the engine. A macro, so that tables can be built from it. */
#define CN_POLYGLOT_PIECE_INDEX(color, type, square)                                                                   \
    (64u * (2u * (unsigned)(type) + ((color) == CN_WHITE ? 1u : 0u)) + (unsigned)(square))

static inline uint64_t cn_polyglot_piece_key(int color, int type, unsigned square) {
    return cn_polyglot_random[CN_POLYGLOT_PIECE_INDEX(color, type, square)];
}

/* Castling right bit index `right` (0..3). */
static inline uint64_t cn_polyglot_castling_key(unsigned right) {
    return cn_polyglot_random[CN_POLYGLOT_CASTLE_OFFSET + right];
}

/* An en-passant square's key: its file's. */
static inline uint64_t cn_polyglot_ep_key(unsigned ep_square) {
    return cn_polyglot_random[CN_POLYGLOT_EP_OFFSET + (ep_square & 7u)];
}

#endif /* CN_ZOBRIST_H */
