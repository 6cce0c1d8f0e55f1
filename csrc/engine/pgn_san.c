/*
 * pgn_san.c - the canonical SAN of a move just played, written without a
 * move list in the common cases: pawn and king moves, castling, and piece
 * moves no other piece of the same kind could make (pseudo-legally). The
 * rest (a disambiguation may be due) goes to cn_move_to_san. Checks come
 * from the position after the move; only a check that no king step answers
 * needs a legal-move count.
 */
#include <string.h>

#include "include/pgn.h"
#include "include/san.h"
#include "bitboard.h"
#include "pgn_san.h"
#include "position.h"
#include "slider_attacks.h"

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

/* The squares of `side`'s pieces of type `piece` (knight to queen) that
 * reach `to` pseudo-legally: only those could call for a disambiguation. */
static uint64_t same_kind_reaching(const cn_position *pos, int piece, int side, unsigned to) {
    const uint64_t occupied = pos->by_color[CN_WHITE] | pos->by_color[CN_BLACK];
    uint64_t reach;
    switch (piece) {
    case CN_KNIGHT:
        reach = cn_knight_attacks[to];
        break;
    case CN_BISHOP:
        reach = bishop_attacks(to, occupied);
        break;
    case CN_ROOK:
        reach = rook_attacks(to, occupied);
        break;
    default:
        reach = bishop_attacks(to, occupied) | rook_attacks(to, occupied);
        break;
    }
    return reach & pos->by_type[piece] & pos->by_color[side];
}

/* Whether the side to move, in check, has a legal move. A king step to a
 * square nothing attacks once the king has left its own square is legal
 * whatever the pins, and answers most checks without a move count. */
static int has_reply_to_check(const cn_position *pos) {
    const int us = pos->side;
    const uint64_t king = pos->by_type[CN_KING] & pos->by_color[us];
    const uint64_t occupied = (pos->by_color[CN_WHITE] | pos->by_color[CN_BLACK]) & ~king;
    uint64_t steps = cn_king_attacks[bb_lsb(king)] & ~pos->by_color[us];
    while (steps)
        if (!attackers_to(pos, bb_pop_lsb(&steps), occupied, us ^ 1)) return 1;
    return cn_count_legal_moves(pos) != 0;
}

int pgn_fast_san(const cn_position *before, const cn_position *after, cn_move move, char *out) {
    const unsigned from = cn_move_from(move), to = cn_move_to(move);
    int n;
    if (cn_move_kind(move) == CN_MOVE_CASTLING) {
        n = (to & 7u) > (from & 7u) ? 3 : 5;
        memcpy(out, "O-O-O", (size_t)n);
    } else {
        const int piece = cn_type_on(before, bb_square(from));
        if (piece != CN_PAWN && piece != CN_KING) {
            if (same_kind_reaching(before, piece, before->side, to) & ~bb_square(from))
                return cn_move_to_san(before, move, out);
        }
        n = body(before, move, piece, out);
    }
    if (cn_king_attacked(after, after->side)) out[n++] = has_reply_to_check(after) ? '+' : '#';
    out[n] = '\0';
    return n;
}
