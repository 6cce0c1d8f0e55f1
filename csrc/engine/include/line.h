/*
 * line.h - play a whole line of moves (UCI or SAN) in one call.
 *
 * The binding's batch calls (Position.playLine / playSanLine / sanLine) use
 * this so that a game replay crosses the Node-API boundary once per chunk of
 * moves instead of once per ply. Pure engine code: no Node headers.
 *
 * Text forms (reader.format without CN_LINE_LIST):
 *   moves are separated by ASCII whitespace (space, tab, CR, LF, FF, VT).
 *   CN_LINE_SAN additionally skips PGN move numbers ("1.", "1...", "12."),
 *   also when glued to the move ("1.e4", "1...e5"); treats a token starting
 *   with "e.p." right after a move as that move's en-passant mark
 *   ("exd6 e.p."); and ends the line at a result token ("1-0", "0-1",
 *   "1/2-1/2", "*") that is the last token. Comments, NAGs and variations are
 *   not PGN movetext this reads: they are malformed moves.
 * List form (CN_LINE_LIST): every move is terminated by one '\n' (the last
 *   may run to the end of the text); the bytes in between are the move,
 *   exactly as one cn_move_from_uci / cn_move_from_san call would get them.
 *
 * A move longer than the binding's single-move calls accept (UCI: 11 bytes,
 * SAN: 27 bytes) is malformed here too, so a line behaves exactly like the
 * same moves played one call at a time.
 */
#ifndef CN_LINE_H
#define CN_LINE_H

#include <stddef.h>

#include "chess_native.h"
#include "san.h"

#ifdef __cplusplus
extern "C" {
#endif

enum {
    CN_LINE_UCI = 0, /* moves in UCI (cn_move_from_uci) */
    CN_LINE_SAN = 1, /* moves in SAN (cn_move_from_san) */
    CN_LINE_LIST = 2 /* flag: '\n'-terminated list, see above */
};

#define CN_LINE_UCI_MAX 11
#define CN_LINE_SAN_MAX 27

typedef struct cn_line_reader {
    const char *text;
    size_t len;
    size_t offset;    /* where the next move is read; advanced by each call */
    unsigned format;  /* CN_LINE_UCI or CN_LINE_SAN, optionally | CN_LINE_LIST */
    size_t bad_start; /* after an error: the failing move's bytes in text */
    size_t bad_len;
} cn_line_reader;

/*
 * Reads and plays up to max_moves moves of the line from reader->offset on
 * *pos. For the i-th move played in this call, when the buffer is not NULL:
 *   positions + i * sizeof(cn_position) receives the position after it
 *     (byte copies: the buffer needs no alignment),
 *   moves[i] the move, uci[i] its UCI string (NUL-terminated),
 *   san[i] its SAN (as cn_move_to_san, in the position before it).
 * Returns the number of moves played and sets *status:
 *   CN_OK: stopped after max_moves moves, or at the end of the line
 *     (then reader->offset == reader->len);
 *   CN_ERR_BAD_MOVE / CN_ERR_ILLEGAL_MOVE: the next move is malformed, or
 *     illegal or ambiguous; its bytes are text[bad_start, bad_start + bad_len)
 *     and *pos is the position before it.
 * *pos is always the position after the last move played. max_moves <= 0
 * plays nothing and reads nothing.
 */
int cn_line_play(cn_position *pos, cn_line_reader *reader, int max_moves, unsigned char *positions, cn_move *moves,
                 char (*uci)[6], char (*san)[CN_SAN_MAX], cn_status *status);

#ifdef __cplusplus
}
#endif

#endif /* CN_LINE_H */
