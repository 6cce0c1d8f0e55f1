/*
 * sorted_moves.h - the legal moves in UCI string order, compiled once per
 * variant (see variant.h): generated as destination sets by origin
 * (MODE_SETS) and written out in order, without comparing anything.
 */

/* The destination field of a move by the destination's UCI-order index. */
#define UCI_DEST(i) (uint16_t)(CN_UCI_ORDER(i) << CN_MOVE_TO_SHIFT)
#define UCI_DEST8(i)                                                                                                   \
    UCI_DEST(i), UCI_DEST(i + 1), UCI_DEST(i + 2), UCI_DEST(i + 3), UCI_DEST(i + 4), UCI_DEST(i + 5), UCI_DEST(i + 6), \
        UCI_DEST(i + 7)
static const uint16_t uci_destination_bits[64] = {UCI_DEST8(0u),  UCI_DEST8(8u),  UCI_DEST8(16u), UCI_DEST8(24u),
                                                  UCI_DEST8(32u), UCI_DEST8(40u), UCI_DEST8(48u), UCI_DEST8(56u)};
#undef UCI_DEST8
#undef UCI_DEST

/* The moves of a set_sink, sorted by their UCI strings: origins in UCI
 * order, then each origin's destinations in UCI order, promotions in
 * letter order (b, n, q, r). Castling is merged into the king's moves by
 * the square its UCI names: the king's two steps in standard chess with
 * the king on the e-file, else the rook's square. */
static int write_sorted(const cn_position *p, const set_sink *sets, cn_move *out) {
    const bitboard pawns = p->by_type[CN_PAWN];
    const unsigned ep = p->ep_square;
    unsigned castle_keys[2] = {64, 64};
    cn_move castles[2] = {0, 0};
    for (int i = 0; i < sets->castle_count; i++) {
        castles[i] = gen_move_public(sets->castles[i]);
        castle_keys[i] = cn_uci_order(cn_uci_destination(p, castles[i]));
    }
    if (castle_keys[1] < castle_keys[0]) {
        const unsigned key = castle_keys[0];
        const cn_move move = castles[0];
        castle_keys[0] = castle_keys[1], castles[0] = castles[1];
        castle_keys[1] = key, castles[1] = move;
    }
    int n = 0;
    bitboard origins = sets->origins;
    while (origins) {
        const unsigned index = bb_pop_lsb(&origins);
        const unsigned from = cn_uci_order(index); /* the mapping is its own inverse */
        bitboard targets = sets->sets[index];
        if (pawns & bb_square(from)) {
            while (targets) {
                const unsigned to = cn_uci_order(bb_pop_lsb(&targets));
                if (bb_square(to) & (CN_RANK_1 | CN_RANK_8)) {
                    for (unsigned k = 0; k < 4; k++)
                        out[n++] =
                            cn_move_encode(from, to, CN_MOVE_PROMOTION, cn_promotion_letter_order(k) + CN_KNIGHT);
                } else {
                    out[n++] = cn_move_encode(from, to, to == ep ? CN_MOVE_EN_PASSANT : CN_MOVE_NORMAL, 0);
                }
            }
        } else if (sets->castle_count && cn_move_from(gen_move_public(sets->castles[0])) == from) {
            int next_castle = 0;
            while (targets) {
                const unsigned to_index = bb_pop_lsb(&targets);
                while (next_castle < sets->castle_count && castle_keys[next_castle] < to_index)
                    out[n++] = castles[next_castle++];
                out[n++] = (cn_move)(from | uci_destination_bits[to_index]);
            }
            while (next_castle < sets->castle_count) out[n++] = castles[next_castle++];
        } else {
            while (targets) out[n++] = (cn_move)(from | uci_destination_bits[bb_pop_lsb(&targets)]);
        }
    }
    return n;
}

static int impl_generate_sorted(const cn_position *p, cn_move *out) {
    castle_geometry castling;
    set_sink sets;
    compute_castle_geometry(p, &castling);
    sets.origins = 0;
    sets.castle_count = 0;
    if (p->side)
        generate_moves(p, 1, MODE_SETS, NULL, &castling, &sets);
    else
        generate_moves(p, 0, MODE_SETS, NULL, &castling, &sets);
    return write_sorted(p, &sets, out);
}
