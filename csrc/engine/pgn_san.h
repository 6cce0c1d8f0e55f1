/*
 * pgn_san.h - SAN of the moves the PGN reader plays (pgn_san.c), and the
 * reading of its move tokens told what the reader knows of check.
 */
#ifndef CN_PGN_SAN_H
#define CN_PGN_SAN_H

#include "include/chess_native.h"

/* The SAN cn_move_to_san(before, move) writes (out: CN_SAN_MAX bytes),
 * given also the position after the move; returns its length. */
int pgn_fast_san(const cn_position *before, const cn_position *after, cn_move move, char *out);

/* cn_move_from_san told whether the side to move is in check (in_check 0
 * or 1; -1: not known, it is worked out), as the SAN of the move before
 * says (san.c). */
cn_status pgn_move_from_san(const cn_position *pos, int in_check, const char *san, size_t len, cn_move *out);
/* cn_pgn_resolve_move with pgn_move_from_san's in_check (pgn_move.c). */
cn_status pgn_resolve_move(const cn_position *pos, int in_check, const char *token, size_t length, cn_move *out);

#endif /* CN_PGN_SAN_H */
