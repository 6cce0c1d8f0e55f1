/*
 * pgn_san.h - SAN of the moves the PGN reader plays (pgn_san.c).
 */
#ifndef CN_PGN_SAN_H
#define CN_PGN_SAN_H

#include "include/chess_native.h"

/* The SAN cn_move_to_san(before, move) writes (out: CN_SAN_MAX bytes),
 * given also the position after the move; returns its length. */
int pgn_fast_san(const cn_position *before, const cn_position *after, cn_move move, char *out);

#endif /* CN_PGN_SAN_H */
