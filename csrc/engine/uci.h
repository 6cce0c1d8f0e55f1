/*
 * uci.h - the UCI notation's facts that uci.c and the variants' UCI-ordered
 * move lists (variants/sorted_moves.h) share.
 */
#ifndef CN_UCI_H
#define CN_UCI_H

#include "bitboard.h"
#include "include/chess_native.h"

/* A square's place in UCI string order: file first, then rank (the engine
 * numbers squares rank * 8 + file). The mapping is its own inverse. A
 * macro, so that tables can be built from it. */
#define CN_UCI_ORDER(square) ((((square) & 7u) << 3) | ((square) >> 3))
static inline unsigned cn_uci_order(unsigned square) { return CN_UCI_ORDER(square); }

/* UCI's promotion letters by promotion code: 0 knight .. 3 queen. */
#define CN_UCI_PROMOTION_LETTERS "nbrq"

/* A promotion code's place (0..3) among UCI's letters in string order, b n
 * q r; codes are 0 knight, 1 bishop, 2 rook, 3 queen. Its own inverse. */
static inline unsigned cn_promotion_letter_order(unsigned code) { return code ^ 1u; }

/* The square a move lands on as UCI writes it. Castling is king-takes-rook
 * inside the engine and in Chess960 UCI; standard UCI writes the king's two
 * steps (e1g1). That form is used only for a king on the e-file: a king
 * elsewhere (possible with X-FEN rights, e.g. R2K4 w Q) could step to the
 * same square normally (d1c1), so there castling stays king-takes-rook. A
 * relaxed position's castling already lands on the king's target. */
static inline unsigned cn_uci_destination(const cn_position *pos, cn_move move) {
    unsigned from = cn_move_from(move), to = cn_move_to(move);
    if (cn_move_kind(move) == CN_MOVE_CASTLING && !pos->chess960 && !pos->relaxed && square_file(from) == 4)
        return castle_king_to(from, to);
    return to;
}

/* cn_move_to_uci, inline for the PGN reader's one call a move. */
static inline int cn_write_uci(const cn_position *pos, cn_move move, char out[6]) {
    const unsigned from = cn_move_from(move), to = cn_uci_destination(pos, move);
    int n = 0;
    out[n++] = (char)('a' + square_file(from));
    out[n++] = (char)('1' + square_rank(from));
    out[n++] = (char)('a' + square_file(to));
    out[n++] = (char)('1' + square_rank(to));
    if (cn_move_kind(move) == CN_MOVE_PROMOTION)
        out[n++] = CN_UCI_PROMOTION_LETTERS[cn_move_promotion(move) - CN_KNIGHT];
    out[n] = 0;
    return n;
}

#endif /* CN_UCI_H */
