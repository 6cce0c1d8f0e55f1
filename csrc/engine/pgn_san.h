/*
 * pgn_san.h - SAN of the moves the PGN reader plays (pgn_san.c), and the
 * reading of its move tokens told what the reader knows of check.
 */
#ifndef CN_PGN_SAN_H
#define CN_PGN_SAN_H

#include "include/chess_native.h"
#include "include/pgn.h"

/* The SAN cn_move_to_san(before, move) writes (out: CN_SAN_MAX bytes),
 * given also the position after the move; returns its length. */
int pgn_fast_san(const cn_position *before, const cn_position *after, cn_move move, char *out);

/* cn_move_from_san told whether the side to move is in check (in_check 0
 * or 1; -1: not known, it is worked out), as the SAN of the move before
 * says (san.c). */
cn_status pgn_move_from_san(const cn_position *pos, int in_check, const char *san, size_t len, cn_move *out);
/* A token pgn_move_from_san did not read (san: what it said): a null move
 * or long algebraic (pgn_move.c). */
cn_status pgn_resolve_other(const cn_position *pos, const char *token, size_t length, cn_status san, cn_move *out);
/* cn_pgn_resolve_move with pgn_move_from_san's in_check. SAN first: no
 * null move reads as SAN, and most tokens are SAN. */
static inline cn_status pgn_resolve_move(const cn_position *pos, int in_check, const char *token, size_t length,
                                         cn_move *out) {
    if (length > CN_PGN_MAX_MOVE_TOKEN) return CN_ERR_BAD_MOVE;
    const cn_status san = pgn_move_from_san(pos, in_check, token, length, out);
    return san == CN_OK ? CN_OK : pgn_resolve_other(pos, token, length, san, out);
}

#endif /* CN_PGN_SAN_H */
