/*
 * position.h - position.c's rules that fen.c, make_unmake.c and the copy-make
 * share: what makes a position consistent, and its key.
 */
#ifndef CN_POSITION_H
#define CN_POSITION_H

#include <string.h>

#include "attacks.h"
#include "bitboard.h"
#include "include/chess_native.h"
#include "slider_attacks.h"
#include "zobrist.h"

/* The most men a side can have; the parser and cn_position_validate refuse
 * more (it also bounds the move count, see CN_MAX_MOVES). */
#define CN_MAX_MEN_PER_SIDE 16

/* Castling right bit i (CN_WHITE_OO = bit 0 ... CN_BLACK_OOO = bit 3): its
 * colour and whether it is queenside. */
static inline int cn_right_color(unsigned right) { return right >= 2 ? CN_BLACK : CN_WHITE; }
static inline int cn_right_queenside(unsigned right) { return (int)(right & 1u); }
/* Both castling rights of a side. */
static inline unsigned cn_side_rights(int color) {
    return color == CN_WHITE ? (CN_WHITE_OO | CN_WHITE_OOO) : (CN_BLACK_OO | CN_BLACK_OOO);
}

/* Whether a pawn of `color` attacks `square`. For an en-passant square and
 * the side to move, the Polyglot rule for when the square counts: the key
 * and the struct keep it only then. */
CN_INLINE int cn_pawn_attacks_square(const cn_position *p, int color, unsigned square) {
    return (cn_pawn_attacks[color ^ 1][square] & p->by_type[CN_PAWN] & p->by_color[color]) != 0;
}

/* cn_make without the key (left stale) or an undo record: for a caller
 * that reads no key from the position and never unmakes (the PGN reader). */
void cn_make_unkeyed(cn_position *p, cn_move move);

/* The en-passant square a pawn's double step from..to leaves for the
 * opponent: kept only when one of their pawns can capture (the Polyglot
 * rule), else CN_NO_SQUARE. `p` may be the position before or after the
 * step: the opponent's pawns are the same. */
CN_INLINE uint8_t cn_ep_square_after(const cn_position *p, unsigned from, unsigned to, int mover) {
    const unsigned ep = (from + to) >> 1;
    return cn_pawn_attacks_square(p, mover ^ 1, ep) ? (uint8_t)ep : (uint8_t)CN_NO_SQUARE;
}

/* Drops from *castling the rights a move of `piece` (side `us`) loses: a
 * king move both of its side's, a move from or to a right's rook square
 * (castle_rook, before the move) that right. touched: the move's from and
 * to squares. rook_squares: a set that holds the rook square of every right
 * still held (CN_RANK_1 | CN_RANK_8 always does); the narrower, the rarer
 * the test per right, a branch that mispredicts often where pieces come and
 * go on the back ranks. */
CN_INLINE void cn_drop_lost_rights(uint8_t *castling, const uint8_t castle_rook[4], unsigned piece, int us,
                                   bitboard touched, bitboard rook_squares) {
    if (!*castling) return;
    if (piece == CN_KING) *castling &= (uint8_t)~cn_side_rights(us);
    if (touched & rook_squares)
        for (unsigned right = 0; right < 4; right++)
            if ((*castling & (1u << right)) && (touched & bb_square(castle_rook[right])))
                *castling &= (uint8_t)~(1u << right);
}

/* Keeps in an undo record the state besides the men that a move changes
 * (the key among it): the start of every make that can be undone. */
static inline void cn_save_state(const cn_position *p, cn_undo *undo) {
    undo->key = p->key;
    undo->fullmove = p->fullmove;
    undo->halfmove = p->halfmove;
    undo->castling = p->castling;
    undo->ep_square = p->ep_square;
    memcpy(undo->castle_rook, p->castle_rook, sizeof undo->castle_rook);
}

/* The state cn_save_state kept (the key among it), with `mover` to move
 * again: the end of every unmake. */
static inline void cn_restore_state(cn_position *p, const cn_undo *undo, int mover) {
    p->side = (uint8_t)mover;
    p->castling = undo->castling;
    memcpy(p->castle_rook, undo->castle_rook, sizeof p->castle_rook);
    p->ep_square = undo->ep_square;
    p->halfmove = undo->halfmove;
    p->fullmove = undo->fullmove;
    p->key = undo->key;
}

/* The square of the pawn an en-passant capture landing on `to` removes. */
static inline unsigned cn_ep_victim(unsigned to, int mover) { return mover == CN_WHITE ? to - 8 : to + 8; }

/* The piece type on a square given as a one-bit board, or -1. */
static inline int cn_type_on(const cn_position *p, bitboard square) {
    for (int type = CN_PAWN; type <= CN_KING; type++)
        if (p->by_type[type] & square) return type;
    return -1;
}

/* Whether `color`'s king is attacked (the position has one king a side). */
static inline int cn_king_attacked(const cn_position *p, int color) {
    const unsigned king = bb_lsb(p->by_type[CN_KING] & p->by_color[color]);
    return attackers_to(p, king, p->by_color[CN_WHITE] | p->by_color[CN_BLACK], color ^ 1) != 0;
}

/* Whether a castling right still makes sense on this board: king and rook of
 * the right's colour on their back rank, the rook on the right's side. */
int cn_castling_right_applies(const cn_position *p, unsigned right, unsigned rook_square);

/* Whether an en-passant square fits the board: the rank for the side to
 * move, the pawn that just stepped two squares in front of it, the squares
 * it crossed empty. */
int cn_ep_square_consistent(const cn_position *p, unsigned ep);

/* Whether the side to move has a legal en-passant capture. FEN shows the
 * en-passant square only then, as chess.js does; the struct keeps it under
 * the Polyglot pseudo-legal rule. */
int cn_ep_capture_legal(const cn_position *p);

/* The share of a Zobrist key from castling rights, en passant and the side
 * to move, drawn from `random` (laid out as the Polyglot table, see
 * zobrist.h): cn_polyglot_random for the position's key, another table for
 * the hashed perft's second key. */
static inline uint64_t cn_state_key_in(const cn_position *p, const uint64_t *random) {
    uint64_t key = 0;
    for (unsigned right = 0; right < 4; right++)
        if (p->castling & (1u << right)) key ^= random[CN_POLYGLOT_CASTLE_OFFSET + right];
    if (p->ep_square != CN_NO_SQUARE) key ^= random[CN_POLYGLOT_EP_OFFSET + (p->ep_square & 7u)];
    if (p->side == CN_WHITE) key ^= random[CN_POLYGLOT_TURN];
    return key;
}

static inline uint64_t cn_state_key(const cn_position *p) { return cn_state_key_in(p, cn_polyglot_random); }

/* A whole Zobrist key drawn from `random` (cn_position_compute_key's with
 * the Polyglot table). */
uint64_t cn_zobrist_key(const cn_position *p, const uint64_t *random);

#endif /* CN_POSITION_H */
