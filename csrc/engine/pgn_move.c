/*
 * pgn_move.c - a PGN move token to a legal move: SAN (san.c reads the
 * variants real files hold), long algebraic / UCI forms, and null moves
 * ("--", "Z0", UCI's "0000").
 */
#include <string.h>

#include "include/pgn.h"
#include "include/san.h"
#include "pgn_reader.h"
#include "pgn_san.h"
#include "position.h"

static int is_file(char c) { return c >= 'a' && c <= 'h'; }
static int is_rank(char c) { return c >= '1' && c <= '8'; }
static int is_piece_letter(char c) { return c == 'N' || c == 'B' || c == 'R' || c == 'Q' || c == 'K'; }

static int piece_of_letter(char c) {
    static const char letters[] = "PNBRQK";
    const char *hit = strchr(letters, c);
    return hit ? (int)(hit - letters) : -1;
}

static char promotion_letter(char c) {
    switch (c) {
    case 'n':
    case 'N':
        return 'n';
    case 'b':
    case 'B':
        return 'b';
    case 'r':
    case 'R':
        return 'r';
    case 'q':
    case 'Q':
        return 'q';
    default:
        return 0;
    }
}

/* Long algebraic ([piece] from [-x] to [=promo], then +/#) to UCI in out;
 * *piece gets the piece letter's type or -1. Returns the UCI length or 0. */
static size_t long_to_uci(const char *s, size_t n, char out[6], int *piece) {
    size_t i = 0, k = 0;
    *piece = -1;
    while (n && (s[n - 1] == '+' || s[n - 1] == '#')) n--;
    if (n && is_piece_letter(s[0])) *piece = piece_of_letter(s[i++]);
    if (i + 2 > n || !is_file(s[i]) || !is_rank(s[i + 1])) return 0;
    out[k++] = s[i++];
    out[k++] = s[i++];
    if (i < n && (s[i] == '-' || s[i] == 'x' || s[i] == ':')) i++;
    if (i + 2 > n || !is_file(s[i]) || !is_rank(s[i + 1])) return 0;
    out[k++] = s[i++];
    out[k++] = s[i++];
    if (i < n && s[i] == '=') i++;
    if (i < n) {
        if (i + 1 != n || !promotion_letter(s[i])) return 0;
        out[k++] = promotion_letter(s[i]);
    }
    out[k] = 0;
    return k;
}

static cn_status resolve_long(const cn_position *pos, const char *s, size_t n, cn_move *out) {
    char uci[6];
    int piece = -1, color = 0;
    const size_t len = long_to_uci(s, n, uci, &piece);
    if (!len) return CN_ERR_BAD_MOVE;
    const unsigned from = (unsigned)(uci[0] - 'a') + 8u * (unsigned)(uci[1] - '1');
    if (piece >= 0 && cn_piece_on(pos, from, &color) != piece) return CN_ERR_ILLEGAL_MOVE;
    return cn_move_from_uci(pos, uci, len, out);
}

static int is_null_move(const char *token, size_t length) {
    return (length == 2 && (!memcmp(token, "--", 2) || !memcmp(token, "Z0", 2))) ||
           (length == 4 && !memcmp(token, "0000", 4));
}

cn_status pgn_resolve_other(const cn_position *pos, const char *token, size_t length, cn_status san, cn_move *out) {
    if (is_null_move(token, length)) {
        *out = CN_MOVE_NONE;
        return CN_OK;
    }
    const cn_status lan = resolve_long(pos, token, length, out);
    if (lan == CN_OK) return CN_OK;
    /* Report what the SAN reading said unless only the long form parsed. */
    return san == CN_ERR_BAD_MOVE && lan == CN_ERR_ILLEGAL_MOVE ? lan : san;
}

cn_status cn_pgn_resolve_move(const cn_position *pos, const char *token, size_t length, cn_move *out) {
    return pgn_resolve_move(pos, -1, token, length, out);
}

/* keyed: a constant; 0 leaves the key stale (pgn_play_unkeyed). */
static inline cn_status play(cn_position *pos, cn_move move, const int keyed) {
    if (move != CN_MOVE_NONE) {
        if (keyed) {
            cn_undo undo;
            cn_make(pos, move, &undo);
        } else {
            cn_make_unkeyed(pos, move);
        }
        return CN_OK;
    }
    if (cn_in_check(pos)) return CN_ERR_ILLEGAL_MOVE;
    if (pos->side == CN_BLACK && pos->fullmove < UINT32_MAX) pos->fullmove++;
    if (pos->halfmove < UINT16_MAX) pos->halfmove++;
    pos->side ^= 1u;
    pos->ep_square = CN_NO_SQUARE;
    if (keyed) pos->key = cn_position_compute_key(pos);
    return CN_OK;
}

cn_status cn_pgn_play(cn_position *pos, cn_move move) { return play(pos, move, 1); }

cn_status pgn_play_unkeyed(cn_position *pos, cn_move move) { return play(pos, move, 0); }
