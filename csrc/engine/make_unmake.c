/*
 * make_unmake.c - cn_make and cn_unmake: a legal move played on a position
 * in place (the pieces by move_apply.h), its key updated incrementally, and
 * taken back bit for bit from an undo record.
 */
#include <string.h>

#include "move_apply.h"
#include "position.h"
#include "relaxed.h"
#include "zobrist.h"

/* Adds or removes a piece, key included: unmake's inverse of the move. */
static void toggle_piece(cn_position *p, int color, int type, unsigned square) {
    const bitboard b = bb_square(square);
    p->by_type[type] ^= b;
    p->by_color[color] ^= b;
    p->key ^= cn_polyglot_piece_key(color, type, square);
}

/* Moves king and rook between their squares before castling (the king
 * takes its own rook in the move) and after it. Toggling is its own
 * inverse, so make and unmake both call this; it also holds when the
 * squares overlap, as they may in Chess960. */
static void toggle_castling(cn_position *p, int us, unsigned king_from, unsigned rook_from) {
    toggle_piece(p, us, CN_KING, king_from);
    toggle_piece(p, us, CN_ROOK, rook_from);
    toggle_piece(p, us, CN_KING, castle_king_to(king_from, rook_from));
    toggle_piece(p, us, CN_ROOK, castle_rook_to(king_from, rook_from));
}

/* The functions below take `keyed` as a constant: 0 when the caller keeps
 * no key (the key is then left as it was, stale) and no undo record. */
CN_INLINE void set_castling(cn_position *p, uint8_t rights, const int keyed) {
    const uint8_t changed = p->castling ^ rights;
    if (!changed) return;
    for (unsigned right = 0; right < 4; right++) {
        if (!(changed & (1u << right))) continue;
        if (keyed) p->key ^= cn_polyglot_castling_key(right);
        p->castle_rook[right] = CN_NO_SQUARE; /* rights are only ever lost */
    }
    p->castling = rights;
}

CN_INLINE void set_ep_square(cn_position *p, uint8_t ep, const int keyed) {
    if (keyed && p->ep_square != CN_NO_SQUARE) p->key ^= cn_polyglot_ep_key(p->ep_square);
    p->ep_square = ep;
    if (keyed && ep != CN_NO_SQUARE) p->key ^= cn_polyglot_ep_key(ep);
}

static void save_undo(const cn_position *p, cn_move move, cn_undo *undo) {
    cn_save_state(p, undo);
    undo->captured = -1;
    undo->moved_aside = -1;
    undo->move = move;
}

CN_INLINE void make_move(cn_position *p, cn_move move, cn_undo *undo, const int keyed) {
    const int us = p->side;
    const unsigned from = cn_move_from(move), to = cn_move_to(move);
    const int piece = cn_type_on(p, bb_square(from));
    if (keyed) save_undo(p, move, undo);
    const int captured = cn_captured_type(p, move, us);
    if (keyed) {
        undo->captured = (int8_t)captured;
        p->key ^= cn_move_pieces_key(cn_polyglot_random, move, (unsigned)piece, us, captured);
    }
    cn_apply_move_pieces(p, move, (unsigned)piece, us, 0);
    uint8_t rights = p->castling;
    cn_drop_lost_rights(&rights, p->castle_rook, (unsigned)piece, us, bb_square(from) | bb_square(to),
                        CN_RANK_1 | CN_RANK_8);
    set_castling(p, rights, keyed);
    set_ep_square(p, piece == CN_PAWN && (from ^ to) == 16u ? cn_ep_square_after(p, from, to, us) : CN_NO_SQUARE,
                  keyed);
    if (piece == CN_PAWN || captured >= 0)
        p->halfmove = 0;
    else if (p->halfmove < UINT16_MAX)
        p->halfmove++;
    if (us == CN_BLACK && p->fullmove < UINT32_MAX) p->fullmove++;
    p->side = (uint8_t)(us ^ 1);
    if (keyed) p->key ^= cn_polyglot_random[CN_POLYGLOT_TURN];
}

void cn_make(cn_position *p, cn_move move, cn_undo *undo) {
    if (p->relaxed)
        cn_relaxed_make(p, move, undo);
    else
        make_move(p, move, undo, 1);
}

void cn_make_unkeyed(cn_position *p, cn_move move) { make_move(p, move, NULL, 0); }

void cn_unmake(cn_position *p, const cn_undo *undo) {
    if (p->relaxed) {
        cn_relaxed_unmake(p, undo);
        return;
    }
    const int us = p->side ^ 1;
    const unsigned from = cn_move_from(undo->move), to = cn_move_to(undo->move), kind = cn_move_kind(undo->move);
    if (kind == CN_MOVE_CASTLING) {
        toggle_castling(p, us, from, to);
    } else {
        const int placed = cn_type_on(p, bb_square(to));
        toggle_piece(p, us, placed, to);
        toggle_piece(p, us, kind == CN_MOVE_PROMOTION ? CN_PAWN : placed, from);
        if (undo->captured >= 0)
            toggle_piece(p, us ^ 1, undo->captured, kind == CN_MOVE_EN_PASSANT ? cn_ep_victim(to, us) : to);
    }
    /* The key comes back from the record with the rest of the state. */
    cn_restore_state(p, undo, us);
}
