/*
 * copy_make.h - the search's copy-make, compiled once per variant (see
 * variant.h): the child position is written from the parent and the move,
 * specialised by the side to move and the moving piece.
 */

/* Copy-make for the search: the child gets the parent's state with the move
 * applied. Clocks and the key are left alone: perft does not read them.
 * quiet: 1 when the caller knows that the move captures nothing (a
 * constant at each call site), so the destination is not cleared. */
CN_INLINE void make_child_known(const cn_position *p, cn_position *c, gen_move move, const int us, const int quiet) {
    const int them = us ^ 1;
    const unsigned from = move & 63u, to = (move >> 6) & 63u;
    const unsigned kind = (move >> 14) & 3u, piece = move >> GEN_PIECE_SHIFT;
    const bitboard from_bb = bb_square(from), to_bb = bb_square(to);
    *c = *p;
    c->side = (uint8_t)them;
    c->ep_square = CN_NO_SQUARE;
    if (kind == CN_MOVE_CASTLING) {
        const bitboard king_to = bb_square(castle_king_to(from, to));
        const bitboard rook_to = bb_square(castle_rook_to(from, to));
        /* Clear then set: in Chess960 the squares may overlap. */
        c->by_type[CN_KING] = (c->by_type[CN_KING] & ~from_bb) | king_to;
        c->by_type[CN_ROOK] = (c->by_type[CN_ROOK] & ~to_bb) | rook_to;
        c->by_color[us] = (c->by_color[us] & ~(from_bb | to_bb)) | king_to | rook_to;
        cn_drop_lost_rights(&c->castling, p->castle_rook, CN_KING, us, from_bb | to_bb);
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
        if (piece == CN_PAWN && (from ^ to) == 16u) c->ep_square = cn_ep_square_after(p, from, to, us);
    } else if (kind == CN_MOVE_PROMOTION) {
        c->by_type[CN_PAWN] ^= from_bb;
        c->by_type[((move >> 12) & 3u) + CN_KNIGHT] |= to_bb;
    } else { /* en passant */
        const bitboard captured = bb_square(cn_ep_victim(to, us));
        c->by_type[CN_PAWN] ^= from_bb | to_bb | captured;
        c->by_color[them] ^= captured;
    }
    cn_drop_lost_rights(&c->castling, p->castle_rook, piece, us, from_bb | to_bb);
}

CN_INLINE void make_child(const cn_position *p, cn_position *c, gen_move move, const int us) {
    make_child_known(p, c, move, us, 0);
}

/* make_child plus both keys of the hashed perft, kept incrementally: the
 * child's Polyglot key goes to c->key, its second key (drawn from keys2,
 * which has the Polyglot table's layout) is returned. */
CN_INLINE uint64_t make_child_keyed(const cn_position *p, cn_position *c, gen_move move, const int us, uint64_t key2,
                                    const uint64_t *keys2) {
    const int them = us ^ 1;
    const unsigned from = move & 63u, to = (move >> 6) & 63u;
    const unsigned kind = (move >> 14) & 3u, piece = move >> GEN_PIECE_SHIFT;
    uint64_t key = p->key;
#define TOGGLE(index) (key ^= cn_polyglot_random[(index)], key2 ^= keys2[(index)])
    TOGGLE(CN_POLYGLOT_TURN);
    if (kind == CN_MOVE_CASTLING) {
        TOGGLE(CN_POLYGLOT_PIECE_INDEX(us, CN_KING, from));
        TOGGLE(CN_POLYGLOT_PIECE_INDEX(us, CN_ROOK, to));
        TOGGLE(CN_POLYGLOT_PIECE_INDEX(us, CN_KING, castle_king_to(from, to)));
        TOGGLE(CN_POLYGLOT_PIECE_INDEX(us, CN_ROOK, castle_rook_to(from, to)));
    } else {
        const bitboard to_bb = bb_square(to);
        if (kind == CN_MOVE_EN_PASSANT) {
            TOGGLE(CN_POLYGLOT_PIECE_INDEX(them, CN_PAWN, cn_ep_victim(to, us)));
        } else if (p->by_color[them] & to_bb) {
            int captured = CN_PAWN;
            while (!(p->by_type[captured] & to_bb)) captured++;
            TOGGLE(CN_POLYGLOT_PIECE_INDEX(them, captured, to));
        }
        const unsigned placed = kind == CN_MOVE_PROMOTION ? ((move >> 12) & 3u) + CN_KNIGHT : piece;
        TOGGLE(CN_POLYGLOT_PIECE_INDEX(us, piece, from));
        TOGGLE(CN_POLYGLOT_PIECE_INDEX(us, placed, to));
    }
    make_child(p, c, move, us);
    const unsigned lost_rights = (unsigned)(p->castling ^ c->castling);
    if (lost_rights)
        for (unsigned right = 0; right < 4; right++)
            if (lost_rights & (1u << right)) TOGGLE(CN_POLYGLOT_CASTLE_OFFSET + right);
    if (p->ep_square != CN_NO_SQUARE) TOGGLE(CN_POLYGLOT_EP_OFFSET + (p->ep_square & 7u));
    if (c->ep_square != CN_NO_SQUARE) TOGGLE(CN_POLYGLOT_EP_OFFSET + (c->ep_square & 7u));
#undef TOGGLE
    c->key = key;
    return key2;
}

CN_INLINE void make_child_any(const cn_position *p, cn_position *c, gen_move move) {
    if (p->side)
        make_child(p, c, move, 1);
    else
        make_child(p, c, move, 0);
}
