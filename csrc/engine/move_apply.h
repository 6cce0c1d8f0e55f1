/*
 * move_apply.h - what a move does to the pieces, in one place: the bitboards
 * and the pieces' share of a Zobrist key. cn_make, the search's copy-make
 * (plain and keyed) and SAN's check and legality tests all build on these;
 * side, rights, en passant and clocks are each caller's own.
 */
#ifndef CN_MOVE_APPLY_H
#define CN_MOVE_APPLY_H

#include "bitboard.h"
#include "include/chess_native.h"
#include "position.h"
#include "zobrist.h"

/* The type a move captures (CN_PAWN..CN_QUEEN), or -1. Castling, king takes
 * own rook, captures nothing. */
CN_INLINE int cn_captured_type(const cn_position *p, cn_move move, const int us) {
    if (cn_move_kind(move) == CN_MOVE_EN_PASSANT) return CN_PAWN;
    const bitboard to = bb_square(cn_move_to(move));
    if (!(p->by_color[us ^ 1] & to)) return -1;
    int captured = CN_PAWN;
    while (!(p->by_type[captured] & to)) captured++;
    return captured;
}

/* Plays a legal move's piece changes on `c`, the position it is played in
 * (or a copy of it): the mover (of type `piece`, side `us`) leaves from and
 * lands on to, as its promotion piece if it promotes; what it captures, on
 * to or en passant, is lifted; castling puts king and rook on their castled
 * squares. quiet: 1 when the caller knows that the move captures nothing (a
 * constant at each call site), so the destination is not cleared. */
CN_INLINE void cn_apply_move_pieces(cn_position *c, cn_move move, unsigned piece, const int us, const int quiet) {
    const int them = us ^ 1;
    const unsigned from = cn_move_from(move), to = cn_move_to(move), kind = cn_move_kind(move);
    const bitboard from_bb = bb_square(from), to_bb = bb_square(to);
    if (kind == CN_MOVE_CASTLING) {
        const bitboard king_to = bb_square(castle_king_to(from, to));
        const bitboard rook_to = bb_square(castle_rook_to(from, to));
        /* Clear then set: in Chess960 the squares may overlap. */
        c->by_type[CN_KING] = (c->by_type[CN_KING] & ~from_bb) | king_to;
        c->by_type[CN_ROOK] = (c->by_type[CN_ROOK] & ~to_bb) | rook_to;
        c->by_color[us] = (c->by_color[us] & ~(from_bb | to_bb)) | king_to | rook_to;
        return;
    }
    /* Unless the move is known to be quiet, clearing the destination
     * unconditionally is cheaper than branching on whether the move
     * captures; the king is never captured. */
    if (!quiet) {
        c->by_type[CN_PAWN] &= ~to_bb;
        c->by_type[CN_KNIGHT] &= ~to_bb;
        c->by_type[CN_BISHOP] &= ~to_bb;
        c->by_type[CN_ROOK] &= ~to_bb;
        c->by_type[CN_QUEEN] &= ~to_bb;
        c->by_color[them] &= ~to_bb;
    }
    c->by_color[us] ^= from_bb | to_bb;
    if (kind == CN_MOVE_NORMAL) {
        c->by_type[piece] ^= from_bb | to_bb;
    } else if (kind == CN_MOVE_PROMOTION) {
        c->by_type[CN_PAWN] ^= from_bb;
        c->by_type[cn_move_promotion(move)] |= to_bb;
    } else { /* en passant */
        const bitboard captured = bb_square(cn_ep_victim(to, us));
        c->by_type[CN_PAWN] ^= from_bb | to_bb | captured;
        c->by_color[them] ^= captured;
    }
}

/* The pieces' share of the change in a key drawn from `random` (laid out as
 * the Polyglot table) that cn_apply_move_pieces makes; captured: what
 * cn_captured_type says. */
CN_INLINE uint64_t cn_move_pieces_key(const uint64_t *random, cn_move move, unsigned piece, const int us,
                                      int captured) {
    const unsigned from = cn_move_from(move), to = cn_move_to(move), kind = cn_move_kind(move);
    if (kind == CN_MOVE_CASTLING)
        return random[CN_POLYGLOT_PIECE_INDEX(us, CN_KING, from)] ^ random[CN_POLYGLOT_PIECE_INDEX(us, CN_ROOK, to)] ^
               random[CN_POLYGLOT_PIECE_INDEX(us, CN_KING, castle_king_to(from, to))] ^
               random[CN_POLYGLOT_PIECE_INDEX(us, CN_ROOK, castle_rook_to(from, to))];
    const unsigned placed = kind == CN_MOVE_PROMOTION ? cn_move_promotion(move) : piece;
    uint64_t key = random[CN_POLYGLOT_PIECE_INDEX(us, piece, from)] ^ random[CN_POLYGLOT_PIECE_INDEX(us, placed, to)];
    if (captured >= 0) {
        const unsigned victim = kind == CN_MOVE_EN_PASSANT ? cn_ep_victim(to, us) : to;
        key ^= random[CN_POLYGLOT_PIECE_INDEX(us ^ 1, captured, victim)];
    }
    return key;
}

#endif /* CN_MOVE_APPLY_H */
