/*
 * pgn_san.c - the canonical SAN of a move just played, written without a
 * move list in the common cases: pawn and king moves, castling, and piece
 * moves no other piece of the same kind could make (pseudo-legally). The
 * rest (a disambiguation may be due) goes to cn_move_to_san. Checks come
 * from the position after the move; only a check needs a legal-move count.
 */
#include <string.h>

#include "include/pgn.h"
#include "include/rules.h"
#include "include/san.h"
#include "pgn_san.h"

static void put_square(char *out, int *n, unsigned square) {
    out[(*n)++] = (char)('a' + (square & 7u));
    out[(*n)++] = (char)('1' + (square >> 3));
}

/* The SAN body (no suffix) of a move whose piece needs no disambiguation. */
static int body(const cn_position *before, cn_move move, int piece, char *out) {
    static const char letters[] = "PNBRQK";
    const unsigned from = cn_move_from(move), to = cn_move_to(move);
    const int capture = ((before->by_color[before->side ^ 1u] >> to) & 1u) || cn_move_kind(move) == CN_MOVE_EN_PASSANT;
    int n = 0;
    if (piece == CN_PAWN) {
        if (capture) {
            out[n++] = (char)('a' + (from & 7u));
            out[n++] = 'x';
        }
        put_square(out, &n, to);
        if (cn_move_kind(move) == CN_MOVE_PROMOTION) {
            out[n++] = '=';
            out[n++] = letters[cn_move_promotion(move)];
        }
        return n;
    }
    out[n++] = letters[piece];
    if (capture) out[n++] = 'x';
    put_square(out, &n, to);
    return n;
}

int pgn_fast_san(const cn_position *before, const cn_position *after, cn_move move, char *out) {
    const unsigned from = cn_move_from(move), to = cn_move_to(move);
    int n, color = 0;
    if (cn_move_kind(move) == CN_MOVE_CASTLING) {
        n = (to & 7u) > (from & 7u) ? 3 : 5;
        memcpy(out, "O-O-O", (size_t)n);
    } else {
        const int piece = cn_piece_on(before, from, &color);
        if (piece != CN_PAWN && piece != CN_KING) {
            const uint64_t rivals = cn_attackers(before, to, before->side) & before->by_type[piece] & ~(1ull << from);
            if (rivals) return cn_move_to_san(before, move, out);
        }
        n = body(before, move, piece, out);
    }
    if (cn_in_check(after)) out[n++] = cn_count_legal_moves(after) ? '+' : '#';
    out[n] = '\0';
    return n;
}
