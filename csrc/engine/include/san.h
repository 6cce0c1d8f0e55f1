/*
 * san.h - Standard Algebraic Notation on top of the public engine API.
 *
 * Output follows chess.js (and the PGN standard): minimal disambiguation
 * among legal moves (file, else rank, else both), pawn captures as "exd5",
 * promotions as "e8=Q", castling as "O-O"/"O-O-O", and a "+" or "#" suffix.
 */
#ifndef CN_SAN_H
#define CN_SAN_H

#include <stddef.h>

#include "chess_native.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Room cn_move_to_san needs; the longest SAN is 7 chars ("Qa1xh8+"). */
#define CN_SAN_MAX 16

/* Writes SAN (with +/# suffix) of a legal move and a NUL; returns its
 * length. out must hold CN_SAN_MAX bytes. A move that is not legal in pos
 * writes "" and returns 0. */
int cn_move_to_san(const cn_position *pos, cn_move move, char *out);

/*
 * SAN of every move in legal[0..count), which must be the complete list of
 * legal moves of pos (as cn_legal_moves returns it, in any order: the list
 * is what disambiguation is decided against). out[i] receives the SAN of
 * legal[i]. Generates no move list itself: one mailbox and one copy-make
 * per move (plus a legal-move count for checks). Returns CN_OK, or
 * CN_ERR_BAD_ARGUMENT when count is out of range.
 */
cn_status cn_moves_to_san(const cn_position *pos, const cn_move *legal, int count, char (*out)[CN_SAN_MAX]);

/*
 * Parses SAN as found in real PGN: O-O, O-O-O, 0-0, 0-0-0, Nf3, Nbd7, N1d7,
 * Nb1d7, Nxf3, e4, exd5, e8=Q, e8Q, e8=q, exd8=Q, "exd6 e.p.", each optionally
 * followed by + or # and then one of ! ? !! ?? !? ?!. The capture mark and
 * the check suffix are not checked against the position (PGN in the wild
 * gets them wrong); over-disambiguation (Nge2 with one knight) is accepted.
 * Reads at most len bytes; any byte sequence is safe.
 * Returns CN_OK and *out, CN_ERR_BAD_MOVE (not SAN syntax) or
 * CN_ERR_ILLEGAL_MOVE (no legal move fits, or more than one does).
 */
cn_status cn_move_from_san(const cn_position *pos, const char *san, size_t len, cn_move *out);

#ifdef __cplusplus
}
#endif

#endif /* CN_SAN_H */
