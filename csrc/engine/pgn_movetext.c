/*
 * pgn_movetext.c - the movetext of one game: moves validated on the line
 * they belong to, comments, NAGs and variations (each variation replays
 * from the position before the move it replaces).
 */
#include <stdio.h>
#include <string.h>

#include "bitboard.h"
#include "include/san.h"
#include "pgn_reader.h"
#include "pgn_san.h"
#include "uci.h"

/* The current token's line is validated: not cut, not nested too deep. */
static int live(const pgn_reader *r) { return r->depth <= CN_PGN_MAX_DEPTH && r->lines[r->depth].live; }

/* ... and its records are written. */
static int recording(const pgn_reader *r) { return live(r) && r->lines[r->depth].active; }

static void move_error(pgn_reader *r, const pgn_token *tok, cn_status status, int ply) {
    char message[96];
    const int shown = tok->length > 24 ? 24 : (int)tok->length;
    const char *what = status == CN_ERR_BAD_MOVE ? "not a move" : "illegal or ambiguous move";
    snprintf(message, sizeof message, "%s: %.*s%s", what, shown, r->lx.text + tok->start,
             tok->length > 24 ? "..." : "");
    pgn_error(r, tok, ply, message);
    r->lines[r->depth].live = 0; /* the line is cut here; its parent goes on */
}

/* A '$' with no number or one above 255, or a glyph run that is no NAG
 * ("!!!"): reported, not kept; the line goes on. */
static void bad_nag(pgn_reader *r, const pgn_token *tok) {
    char message[48];
    const int shown = tok->length > 24 ? 24 : (int)tok->length;
    snprintf(message, sizeof message, "not a NAG: %.*s%s", shown, r->lx.text + tok->start,
             tok->length > 24 ? "..." : "");
    pgn_error(r, tok, 0, message);
}

/* The SAN and then the UCI record (boundary.h's pgnMove) are written
 * straight into the string table; the SAN's check mark says whether the
 * line's side to move is in check. */
static void emit_move(pgn_reader *r, pgn_line *line, cn_move move) {
    const cn_position *before = &line->before, *after = &line->pos;
    cn_pgn_output *out = r->out;
    if (pgn_out_room(out, CN_SAN_MAX + CN_UCI_RECORD_BYTES) != CN_OK) {
        r->status = CN_ERR_NO_MEMORY;
        return;
    }
    char *san = out->strings + out->string_length;
    const int n = move == CN_MOVE_NONE ? 2 : pgn_fast_san(before, after, move, san);
    if (move == CN_MOVE_NONE) memcpy(san, "--", 2);
    char *uci = san + n;
    memset(uci, 0, CN_UCI_RECORD_BYTES);
    if (move == CN_MOVE_NONE)
        memcpy(uci, "0000", 4);
    else
        cn_write_uci(before, move, uci);
    const int32_t offset = (int32_t)out->string_length;
    out->string_length += (size_t)n + CN_UCI_RECORD_BYTES;
    line->check = move == CN_MOVE_NONE ? -1 : san[n - 1] == '+' || san[n - 1] == '#';
    pgn_emit(r, CN_PGN_OP_MOVE, move, offset, n);
}

/* Out of line: pgn_movetext's other tokens need none of its registers. */
static CN_NOINLINE void play_symbol(pgn_reader *r, const pgn_token *tok) {
    pgn_line *line = &r->lines[r->depth];
    cn_move move;
    cn_status status = pgn_resolve_move(&line->pos, line->check, r->lx.text + tok->start, tok->length, &move);
    if (status != CN_OK) {
        move_error(r, tok, status, line->ply + 1);
        return;
    }
    /* One copy: a failed play leaves pos as it was, and a cut line opens
     * no variation that would read before. */
    line->before = line->pos;
    if (pgn_play_unkeyed(&line->pos, move) != CN_OK) {
        pgn_error(r, tok, line->ply + 1, "null move while in check");
        line->live = 0;
        return;
    }
    line->has_move = 1;
    line->ply++;
    line->check = -1;
    if (line->active) emit_move(r, line, move);
}

/* Variations are validated in every mode that reads moves, so tree and
 * mainline modes report the same errors; only tree mode records them. */
static void open_variation(pgn_reader *r, const pgn_token *tok) {
    const int parent_live = live(r) && r->in->mode != CN_PGN_MODE_HEADERS;
    if (parent_live && !r->lines[r->depth].has_move) {
        r->lines[r->depth].repeated_opens++;
        return;
    }
    r->depth++;
    if (r->depth > CN_PGN_MAX_DEPTH) {
        if (r->depth == CN_PGN_MAX_DEPTH + 1 && parent_live) pgn_error(r, tok, 0, "variations nested too deep");
        return;
    }
    const pgn_line *parent = &r->lines[r->depth - 1];
    pgn_line *line = &r->lines[r->depth];
    line->live = parent_live;
    line->active = line->live && r->in->mode == CN_PGN_MODE_TREE;
    line->repeated_opens = 0;
    if (!line->live) return;
    line->pos = parent->before;
    line->ply = parent->ply - 1;
    line->has_move = 0;
    line->check = -1;
    if (line->active) pgn_emit(r, CN_PGN_OP_VAR_START, 0, 0, 0);
}

static void end_variation(pgn_reader *r) {
    if (r->depth <= CN_PGN_MAX_DEPTH && r->lines[r->depth].active) pgn_emit(r, CN_PGN_OP_VAR_END, 0, 0, 0);
    r->depth--;
}

static void close_variation(pgn_reader *r) {
    if (r->depth <= CN_PGN_MAX_DEPTH && r->lines[r->depth].repeated_opens > 0) {
        r->lines[r->depth].repeated_opens--;
        return;
    }
    if (r->depth > 0) end_variation(r); /* else a stray ')' */
}

void pgn_close_variations(pgn_reader *r) {
    while (r->depth > 0) end_variation(r);
}

static int is_trim_byte(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

void pgn_comment(pgn_reader *r, const pgn_token *tok) {
    /* A comment cut by a size limit may well be closed past it: the game
     * says it was cut instead (pgn_reader.c). */
    if (tok->unterminated && !(r->in->cut && tok->start + tok->length == r->lx.length))
        pgn_error(r, tok, 0, "unterminated comment");
    if (r->in->mode != CN_PGN_MODE_TREE || !recording(r)) return;
    size_t start = tok->start, end = tok->start + tok->length;
    while (start < end && is_trim_byte(r->lx.text[start])) start++;
    while (end > start && is_trim_byte(r->lx.text[end - 1])) end--;
    int32_t offset = 0;
    if (pgn_out_bytes(r->out, r->lx.text + start, end - start, &offset) != CN_OK) r->status = CN_ERR_NO_MEMORY;
    pgn_emit(r, CN_PGN_OP_COMMENT, offset, (int32_t)(end - start), 0);
    pgn_check_utf8(r, tok, start, end - start);
}

/* NAGs, variations and junk: the rarer tokens, out of line. */
static CN_NOINLINE void other_token(pgn_reader *r, const pgn_token *tok) {
    switch (tok->kind) {
    case PGN_TOK_NAG:
        if (tok->value < 0) {
            if (live(r) && r->in->mode != CN_PGN_MODE_HEADERS) bad_nag(r, tok);
        } else if (recording(r) && r->in->mode == CN_PGN_MODE_TREE) {
            pgn_emit(r, CN_PGN_OP_NAG, tok->value, 0, 0);
        }
        break;
    case PGN_TOK_OPEN:
        open_variation(r, tok);
        break;
    case PGN_TOK_CLOSE:
        close_variation(r);
        break;
    case PGN_TOK_JUNK:
    case PGN_TOK_BAD_TAG:
        if (live(r) && r->in->mode != CN_PGN_MODE_HEADERS) pgn_error(r, tok, 0, "unexpected characters in movetext");
        break;
    default:
        break;
    }
}

/* Every path a tail call: no registers saved for the dispatch. */
void pgn_movetext(pgn_reader *r, const pgn_token *tok) {
    if (tok->kind == PGN_TOK_SYMBOL) {
        if (live(r) && r->in->mode != CN_PGN_MODE_HEADERS) play_symbol(r, tok);
    } else if (tok->kind == PGN_TOK_COMMENT) {
        /* pgn_comment's cases, tested here: most comments need nothing */
        if (tok->unterminated || r->in->mode == CN_PGN_MODE_TREE) pgn_comment(r, tok);
    } else {
        other_token(r, tok);
    }
}
