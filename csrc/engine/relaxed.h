/*
 * relaxed.h - chess.js's rules on relaxed positions (cn_fen_parse_relaxed):
 * the public calls (movegen.c, make_unmake.c, perft.c, san.c, fen.c,
 * position.c) branch here on pos->relaxed before anything else, so the
 * strict positions' code never meets a side without a king or more men
 * than it has room for.
 */
#ifndef CN_RELAXED_H
#define CN_RELAXED_H

#include "include/chess_native.h"

/* The legal moves by chess.js's rules; returns the count (at most
 * CN_MAX_MOVES, see relaxed.c). */
int cn_relaxed_moves(const cn_position *pos, cn_move *out);

/* cn_make and cn_unmake; the key is computed from scratch. */
void cn_relaxed_make(cn_position *pos, cn_move move, cn_undo *undo);
void cn_relaxed_unmake(cn_position *pos, const cn_undo *undo);

/* Whether `color`'s king square (relaxed_king) is attacked: never without one. */
int cn_relaxed_king_attacked(const cn_position *pos, int color);

/* Whether a legal move leaves the opponent's king square attacked. */
int cn_relaxed_gives_check(const cn_position *pos, cn_move move);

/* Whether FEN shows the en-passant square: chess.js's test, a pawn of the
 * side to move beside the pawn that stepped, whose capture leaves its king
 * square unattacked. */
int cn_relaxed_ep_shown(const cn_position *pos);

/* Leaf count at depth (0 -> 1); cn_divide's per-root-move counts. */
uint64_t cn_relaxed_perft(const cn_position *pos, int depth);
int cn_relaxed_divide(const cn_position *pos, int depth, cn_move *moves, uint64_t *counts);

#endif /* CN_RELAXED_H */
