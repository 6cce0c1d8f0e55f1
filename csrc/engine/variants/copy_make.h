/*
 * copy_make.h - the search's copy-make, compiled once per variant (see
 * variant.h): the child position is written from the parent and the move,
 * specialised by the side to move and the moving piece.
 */

/* Copy-make for the search: the child gets the parent's state with the move
 * applied. Clocks and the key are left alone: perft does not read them.
 * quiet: 1 when the caller knows that the move captures nothing (a
 * constant at each call site), so the destination is not cleared. */
CN_INLINE void make_child_known(const cn_position *p, cn_position *c, gen_move move, const castle_geometry *castling,
                                const int us, const int quiet) {
    const cn_move m = gen_move_public(move);
    const unsigned from = cn_move_from(m), to = cn_move_to(m), piece = gen_move_piece(move);
    *c = *p;
    c->side = (uint8_t)(us ^ 1);
    c->ep_square = CN_NO_SQUARE;
    cn_apply_move_pieces(c, m, piece, us, quiet);
    if (piece == CN_PAWN && (from ^ to) == 16u) c->ep_square = cn_ep_square_after(p, from, to, us);
    cn_drop_lost_rights(&c->castling, p->castle_rook, piece, us, bb_square(from) | bb_square(to),
                        castling->rook_squares);
}

CN_INLINE void make_child(const cn_position *p, cn_position *c, gen_move move, const castle_geometry *castling,
                          const int us) {
    make_child_known(p, c, move, castling, us, 0);
}

/* make_child plus both keys of the hashed perft, kept incrementally: the
 * child's Polyglot key goes to c->key, its second key (drawn from keys2,
 * which has the Polyglot table's layout) is returned. */
CN_INLINE uint64_t make_child_keyed(const cn_position *p, cn_position *c, gen_move move,
                                    const castle_geometry *castling, const int us, uint64_t key2,
                                    const uint64_t *keys2) {
    const cn_move m = gen_move_public(move);
    const unsigned piece = gen_move_piece(move);
    const int captured = cn_captured_type(p, m, us);
    uint64_t key = p->key ^ cn_move_pieces_key(cn_polyglot_random, m, piece, us, captured);
    key2 ^= cn_move_pieces_key(keys2, m, piece, us, captured);
#define TOGGLE(index) (key ^= cn_polyglot_random[(index)], key2 ^= keys2[(index)])
    TOGGLE(CN_POLYGLOT_TURN);
    make_child(p, c, move, castling, us);
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

CN_INLINE void make_child_any(const cn_position *p, cn_position *c, gen_move move, const castle_geometry *castling) {
    if (p->side)
        make_child(p, c, move, castling, 1);
    else
        make_child(p, c, move, castling, 0);
}
