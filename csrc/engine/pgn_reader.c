/*
 * pgn_reader.c - cn_pgn_read: games from tokens. A game starts at a tag,
 * a comment or a move, takes tags until its movetext starts, and ends at a
 * result outside variations, at the next tag after its movetext, or at the
 * end of the text.
 */
#include <stdlib.h>
#include <string.h>

#include "bitboard.h"
#include "pgn_reader.h"

void pgn_error_at(pgn_reader *r, uint32_t line, uint32_t column, int ply, const char *message) {
    int32_t offset = 0;
    const size_t n = strlen(message);
    if (r->status == CN_OK) r->status = pgn_out_bytes(r->out, message, n, &offset);
    pgn_emit(r, CN_PGN_OP_ERROR, offset, (int32_t)n, ply);
    pgn_emit(r, CN_PGN_OP_WHERE, (int32_t)line, (int32_t)column, 0);
}

void pgn_error(pgn_reader *r, const pgn_token *tok, int ply, const char *message) {
    pgn_error_at(r, tok->line, pgn_lexer_char_column(&r->lx, tok), ply, message);
}

static void begin_game(pgn_reader *r, const pgn_token *tok) {
    r->in_game = 1;
    r->movetext = r->depth = r->result = 0;
    r->fen_offset = r->fen_length = 0;
    r->has_fen = r->variant = 0;
    r->tags = 0;
    r->lines[0].active = r->lines[0].live = 1;
    r->game_records = r->out->record_count;
    r->game_strings = r->out->string_length;
    pgn_emit(r, CN_PGN_OP_GAME, (int32_t)tok->line, (int32_t)pgn_lexer_char_column(&r->lx, tok), 0);
}

static void end_game(pgn_reader *r) {
    if (!r->movetext) pgn_setup_start(r);
    pgn_close_variations(r);
    char fen[128];
    int32_t offset = 0;
    const size_t n = r->in->mode == CN_PGN_MODE_HEADERS ? 0 : cn_fen_write(&r->lines[0].pos, fen, sizeof fen);
    if (r->status == CN_OK) r->status = pgn_out_bytes(r->out, fen, n, &offset);
    pgn_emit(r, CN_PGN_OP_END, r->result, offset, (int32_t)n);
    r->in_game = 0;
    if (r->status == CN_OK) r->out->games++;
}

static void tag(pgn_reader *r, const pgn_token *tok) {
    int32_t name = 0, value_length = 0;
    const char *text = r->lx.text;
    if (r->status == CN_OK) r->status = pgn_out_bytes(r->out, text + tok->start, tok->length, &name);
    if (r->status == CN_OK)
        r->status = pgn_out_unescaped(r->out, text + tok->value_start, tok->value_length, &value_length);
    if (r->status != CN_OK) return;
    pgn_emit(r, CN_PGN_OP_TAG, name, (int32_t)tok->length, value_length);
    pgn_setup_tag(r, tok, name + (int32_t)tok->length, value_length);
    pgn_check_utf8(r, tok, tok->value_start, tok->value_length); /* names are ASCII */
    if (tok->unterminated) pgn_error(r, tok, 0, "unterminated tag string");
}

/* The reading position before tok, as where the next call starts. */
static void mark_consumed(pgn_reader *r, const pgn_token *tok) {
    r->in->consumed = tok->begin;
    r->in->consumed_line = tok->line;
    r->in->consumed_column = pgn_lexer_char_column(&r->lx, tok) - 1;
}

/* A token outside any game. Returns 1 when it starts one. */
static int outside_game(pgn_reader *r, const pgn_token *tok) {
    switch (tok->kind) {
    case PGN_TOK_TAG:
    case PGN_TOK_BAD_TAG:
    case PGN_TOK_COMMENT:
    case PGN_TOK_RESULT: /* a lone result is a game, as python-chess reads it */
        return 1;
    case PGN_TOK_SYMBOL: {
        cn_move move;
        if (cn_pgn_resolve_move(pgn_standard_start(r, 0), r->lx.text + tok->start, tok->length, &move) == CN_OK)
            return 1;
        /* Text between games; a partial text waits for the line's end. */
        if (!pgn_lexer_skip_line(&r->lx) && !r->in->final) r->wait = 1;
        return 0;
    }
    default:
        return 0;
    }
}

/* Reads the comments after a result on its line: they belong to its game.
 * Returns 0 when a partial text ends first. */
static int trailing_comments(pgn_reader *r, const pgn_token *result) {
    for (;;) {
        const pgn_lexer before = r->lx;
        pgn_token tok;
        pgn_lexer_next(&r->lx, &tok);
        if (!r->in->final && r->lx.pos >= r->lx.length) {
            r->lx = before;
            return 0;
        }
        if (tok.kind != PGN_TOK_COMMENT || tok.line != result->line) {
            r->lx = before;
            return 1;
        }
        pgn_comment(r, &tok);
    }
}

enum { INSIDE_ON, INSIDE_ENDED_BEFORE, INSIDE_WAIT };

/* A result outside variations: the game ends after the comments on its
 * line. Out of line: the per-token path stays short. */
static CN_NOINLINE int end_at_result(pgn_reader *r, const pgn_token *tok) {
    r->result = tok->value;
    if (!trailing_comments(r, tok)) return INSIDE_WAIT; /* for the rest of the line */
    end_game(r);
    return INSIDE_ON;
}

/* One token of a game's movetext. */
static inline int in_movetext(pgn_reader *r, const pgn_token *tok) {
    if (tok->kind == PGN_TOK_TAG) return INSIDE_ENDED_BEFORE;
    if (tok->kind == PGN_TOK_RESULT && r->depth == 0) return end_at_result(r, tok);
    pgn_movetext(r, tok);
    return INSIDE_ON;
}

/* One token inside a game. Returns INSIDE_ENDED_BEFORE when the game ended
 * before tok (tok is then read again as the next game's first token),
 * INSIDE_WAIT when it waits for more text, else INSIDE_ON. */
static int inside_game(pgn_reader *r, const pgn_token *tok) {
    if (r->movetext) return in_movetext(r, tok);
    if (tok->kind == PGN_TOK_TAG) {
        r->tags++;
        tag(r, tok);
        return INSIDE_ON;
    }
    if (!r->tags && tok->kind != PGN_TOK_COMMENT && tok->kind != PGN_TOK_RESULT && !outside_game(r, tok))
        return INSIDE_ON; /* text before a game that opened with a comment */
    if (tok->kind == PGN_TOK_BAD_TAG) {
        pgn_error(r, tok, 0, "malformed tag");
        return INSIDE_ON;
    }
    if (tok->kind == PGN_TOK_COMMENT) {
        pgn_comment(r, tok); /* before the game */
        return INSIDE_ON;
    }
    pgn_setup_start(r);
    return in_movetext(r, tok);
}

static void read_games(pgn_reader *r) {
    pgn_token tok;
    int again = 0; /* tok is read again: it starts the next game */
    /* The input's settings, read once: the loop's stores could alias them. */
    const int final = r->in->final;
    const size_t stop = r->in->stop, max_games = r->in->max_games;
    for (;;) {
        if (!again) pgn_lexer_next(&r->lx, &tok);
        again = 0;
        if (!r->in_game) mark_consumed(r, &tok);
        if (tok.kind == PGN_TOK_END && r->lx.open_escape && !r->in_game && !final) {
            r->in->consumed = r->lx.open_escape - 1; /* the '%' line waits for its end */
            r->in->consumed_column = 0;
        }
        if (r->status != CN_OK || tok.kind == PGN_TOK_END) break;
        if (!r->in_game && stop && tok.begin >= stop) break;
        /* A token that reaches the end of a partial text may go on in the
         * next one ("0-1" of "0-1#"): it waits, with its game. */
        if (!final && r->lx.pos >= r->lx.length) break;
        if (max_games && r->out->games >= max_games) break;
        if (!r->in_game && !outside_game(r, &tok)) {
            if (r->wait) break;
            continue;
        }
        if (!r->in_game) begin_game(r, &tok);
        const int inside = inside_game(r, &tok);
        if (inside == INSIDE_WAIT) break;
        if (inside == INSIDE_ENDED_BEFORE) {
            end_game(r);
            again = 1; /* the tag starts the next game */
        }
    }
    if (r->in_game && r->in->final && r->status == CN_OK) {
        if (r->in->cut) pgn_error(r, &tok, 0, "game cut at the size limit");
        end_game(r);
        mark_consumed(r, &tok);
    } else if (r->in_game || r->status != CN_OK) {
        r->out->record_count = r->game_records; /* the unfinished game is read again */
        r->out->string_length = r->game_strings;
    }
}

/* Kept out of line: inlined behind the mode test, its token loop compiles
 * to a slower one. */
static CN_NOINLINE cn_status read_text(cn_pgn_input *in, cn_pgn_output *out) {
    pgn_reader *r = calloc(1, sizeof *r); /* the line stack is too big for some threads' stacks */
    if (!r) return CN_ERR_NO_MEMORY;
    r->in = in;
    r->out = out;
    /* A tree's strings are about as long as its text (comments, SAN and
     * UCI), and its records a good part of it: room for them at once saves
     * copying them on every doubling. A failure here only loses that. */
    if (in->mode == CN_PGN_MODE_TREE) {
        (void)pgn_out_reserve_bytes(out, in->length);
        (void)pgn_out_reserve_records(out, in->length / 32);
    }
    pgn_lexer_init(&r->lx, in->text, in->length, in->line ? in->line : 1, in->column);
    r->lx.partial = !in->final;
    in->consumed = 0;
    in->consumed_line = r->lx.line;
    in->consumed_column = in->column;
    read_games(r);
    const cn_status status = r->status;
    free(r);
    return status;
}

cn_status cn_pgn_read(cn_pgn_input *in, cn_pgn_output *out) {
    return in->mode == CN_PGN_MODE_CHESSJS ? pgn_read_chessjs(in, out) : read_text(in, out);
}
