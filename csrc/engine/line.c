/*
 * line.c - play a whole line of moves in one call (see line.h).
 */
#include "include/line.h"

#include <string.h>

#include "text.h"

static size_t skip_space(const char *t, size_t i, size_t len) {
    while (i < len && cn_is_space(t[i])) i++;
    return i;
}

static size_t token_end(const char *t, size_t i, size_t len) {
    while (i < len && !cn_is_space(t[i])) i++;
    return i;
}

static int is_result(const char *s, size_t n) {
    return (n == 1 && s[0] == '*') || (n == 3 && (memcmp(s, "1-0", 3) == 0 || memcmp(s, "0-1", 3) == 0)) ||
           (n == 7 && memcmp(s, "1/2-1/2", 7) == 0);
}

/* One move as read from the text. */
typedef struct line_token {
    size_t start;     /* first byte of the move in the text */
    size_t bad_end;   /* end of the bytes an error names */
    size_t end;       /* where reading continues after the move */
    const char *move; /* what the parser gets: the text, or buf for "exd6 e.p." */
    size_t len;
} line_token;

/* List form: the next move runs to the next '\n' or the end. */
static int next_listed_move(cn_line_reader *r, line_token *tok) {
    const char *t = r->text;
    const size_t len = r->len, i = r->offset;
    if (i >= len) {
        r->offset = len;
        return 0;
    }
    const char *nl = memchr(t + i, '\n', len - i);
    const size_t e = nl ? (size_t)(nl - t) : len;
    tok->start = i;
    tok->bad_end = e;
    tok->end = nl ? e + 1 : e;
    tok->move = t + i;
    tok->len = e - i;
    return 1;
}

/* Where the move starts in the SAN token t[i, e): past a PGN move number
 * glued to it ("12.Nf3", "1...e5"), at e when the token is only a move
 * number ("12.", "12..."), else at i. */
static size_t skip_move_number(const char *t, size_t i, size_t e) {
    size_t k = i;
    while (k < e && t[k] >= '0' && t[k] <= '9') k++;
    if (k == i || k == e || t[k] != '.') return i;
    while (k < e && t[k] == '.') k++;
    return k;
}

/* "exd6 e.p.": the mark is a separate token in the text. The token after
 * the move, when it starts with "e.p.", joins the move: both go to buf with
 * one space between (when they fit, else the move is malformed by its
 * length). */
static void join_ep_mark(const cn_line_reader *r, line_token *tok, char *buf) {
    const char *t = r->text;
    const size_t len = r->len, i = tok->start, e = tok->end;
    const size_t j = skip_space(t, e, len);
    if (len - j < 4 || memcmp(t + j, "e.p.", 4) != 0) return;
    const size_t je = token_end(t, j, len);
    const size_t n = (e - i) + 1 + (je - j);
    tok->bad_end = tok->end = je;
    tok->len = n; /* over CN_LINE_SAN_MAX: malformed, never parsed */
    if (n <= CN_LINE_SAN_MAX) {
        memcpy(buf, t + i, e - i);
        buf[e - i] = ' ';
        memcpy(buf + (e - i) + 1, t + j, je - j);
        tok->move = buf;
    }
}

/*
 * Finds the next move from r->offset and moves r->offset to the start of its
 * token (past whitespace and whole move-number tokens). Returns 0, with
 * r->offset == r->len, when the line has no move left: at its end, or in SAN
 * at a result token that is the last one. buf holds CN_LINE_SAN_MAX bytes.
 */
static int next_move(cn_line_reader *r, line_token *tok, char *buf) {
    if (r->format & CN_LINE_LIST) return next_listed_move(r, tok);
    const char *t = r->text;
    const size_t len = r->len;
    const int san = (r->format & 1u) == CN_LINE_SAN;
    size_t i = r->offset;
    for (;;) {
        i = skip_space(t, i, len);
        if (i == len) {
            r->offset = len;
            return 0;
        }
        const size_t token_start = i, e = token_end(t, i, len);
        if (san) {
            i = skip_move_number(t, i, e);
            if (i == e) continue;
            if (i == token_start && is_result(t + i, e - i) && skip_space(t, e, len) == len) {
                r->offset = len;
                return 0;
            }
        }
        /* The token's own start, number prefix included: reading again
         * from here (the next chunk) finds the same move. */
        r->offset = token_start;
        tok->start = i;
        tok->bad_end = tok->end = e;
        tok->move = t + i;
        tok->len = e - i;
        if (san) join_ep_mark(r, tok, buf);
        return 1;
    }
}

int cn_line_play(cn_position *pos, cn_line_reader *reader, int max_moves, unsigned char *positions, cn_move *moves,
                 char (*uci)[6], char (*san)[CN_SAN_MAX], cn_status *status) {
    char buf[CN_LINE_SAN_MAX];
    const int is_san = (reader->format & 1u) == CN_LINE_SAN;
    const size_t cap = is_san ? CN_LINE_SAN_MAX : CN_LINE_UCI_MAX;
    line_token tok;
    int played = 0;

    *status = CN_OK;
    if (max_moves <= 0) return 0;
    if (reader->text == NULL || reader->offset > reader->len) {
        reader->offset = reader->len;
        return 0;
    }
    while (played < max_moves && next_move(reader, &tok, buf)) {
        cn_move move = CN_MOVE_NONE;
        cn_status s = CN_ERR_BAD_MOVE;
        if (tok.len <= cap)
            s = is_san ? cn_move_from_san(pos, tok.move, tok.len, &move)
                       : cn_move_from_uci(pos, tok.move, tok.len, &move);
        if (s != CN_OK) {
            *status = s;
            reader->bad_start = tok.start;
            reader->bad_len = tok.bad_end - tok.start;
            return played;
        }
        if (uci) cn_move_to_uci(pos, move, uci[played]);
        if (san) cn_move_to_san(pos, move, san[played]);
        cn_undo undo;
        cn_make(pos, move, &undo);
        if (positions) memcpy(positions + (size_t)played * sizeof *pos, pos, sizeof *pos);
        if (moves) moves[played] = move;
        played++;
        reader->offset = tok.end;
    }
    /* A full chunk: step over what is left when it holds no move (spaces,
     * move numbers, a result), so the caller sees the end without another call. */
    if (played == max_moves) next_move(reader, &tok, buf);
    return played;
}
