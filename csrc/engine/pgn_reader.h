/*
 * pgn_reader.h - the state of one cn_pgn_read call, shared by the files
 * that build games from tokens: pgn_reader.c (games and tags),
 * pgn_setup.c (the start position from the tags), pgn_movetext.c (moves,
 * comments, NAGs and variations).
 */
#ifndef CN_PGN_READER_H
#define CN_PGN_READER_H

#include <string.h>

#include "include/pgn.h"
#include "pgn_lexer.h"
#include "pgn_output.h"

/* One line being read: the main line (depth 0) or a variation. */
typedef struct pgn_line {
    cn_position pos;    /* after the line's last move */
    cn_position before; /* before it */
    int has_move;
    int ply;    /* plies from the game's start to pos */
    int check;  /* the side to move in pos is in check: 1, 0, or -1 when not known */
    int live;   /* its moves are validated: not cut by a bad move */
    int active; /* its records are written (VAR_START was) */
    /* '(' read before the line's first move and not yet closed: each one
     * only repeats the variation already open (or the game's start), so it
     * opens nothing and its ')' closes nothing; its moves stay on the line. */
    size_t repeated_opens;
} pgn_line;

typedef struct pgn_reader {
    pgn_lexer lx;
    cn_pgn_input *in;
    cn_pgn_output *out;
    cn_status status; /* CN_ERR_NO_MEMORY once an append failed */
    int wait;         /* stop: text between games runs past a partial text */
    /* the game being read */
    int in_game, movetext, depth, result;
    int tags;                          /* tags read so far */
    int32_t fen_offset, fen_length;    /* the FEN tag's value in out->strings */
    int has_fen;                       /* a FEN tag was read, maybe empty */
    int variant;                       /* 0 standard, 1 Chess960, 2 unsupported */
    uint32_t fen_at[2], variant_at[2]; /* line and column of those tags */
    size_t game_records, game_strings;
    cn_position standard[2]; /* the standard start, parsed once: chess960 0 and 1 */
    int standard_parsed;     /* bit k: standard[k] is set */
    pgn_line lines[CN_PGN_MAX_DEPTH + 1];
} pgn_reader;

/* cn_pgn_play without the key: the reader's positions keep none (they
 * give moves, SAN and FEN, none of which reads it), so it is left stale. */
cn_status pgn_play_unkeyed(cn_position *pos, cn_move move);
/* Appends a record; failures become r->status. Inline: one per token. */
static inline void pgn_emit(pgn_reader *r, int32_t op, int32_t a, int32_t b, int32_t c) {
    if (r->status == CN_OK) r->status = pgn_out_record(r->out, op, a, b, c);
}
/* An ERROR + WHERE pair at line and column (in characters) about ply (0: none). */
void pgn_error_at(pgn_reader *r, uint32_t line, uint32_t column, int ply, const char *message);
/* ... at tok. */
void pgn_error(pgn_reader *r, const pgn_token *tok, int ply, const char *message);
/* The standard start position as cn_fen_parse reads it with chess960. */
const cn_position *pgn_standard_start(pgn_reader *r, int chess960);
/* Notes what a FEN / Variant tag (tok) says (pgn_setup.c). */
void pgn_setup_tag(pgn_reader *r, const pgn_token *tok, int32_t value_offset, int32_t value_length);
/* Writes START and sets lines[0] from the tags (pgn_setup.c). */
void pgn_setup_start(pgn_reader *r);
/* One movetext token of a game whose movetext has started (pgn_movetext.c). */
void pgn_movetext(pgn_reader *r, const pgn_token *tok);
/* pgn_check_utf8 past its ASCII test (pgn_utf8.c). */
void pgn_check_utf8_slow(pgn_reader *r, const pgn_token *tok, size_t start, size_t length);
/* Whether s[0..n) is all ASCII: the high bits of its words ORed, no branch
 * a byte. Most strings (clock comments, tag values) are, and skip the
 * byte-by-byte check. */
static inline int pgn_all_ascii(const char *s, size_t n) {
    uint64_t high = 0, word;
    size_t i = 0;
    for (; n - i >= sizeof word; i += sizeof word) {
        memcpy(&word, s + i, sizeof word);
        high |= word;
    }
    if (n >= sizeof word) { /* the last word again, overlapping: the tail */
        memcpy(&word, s + n - sizeof word, sizeof word);
        high |= word;
    } else {
        for (; i < n; i++) high |= (unsigned char)s[i];
    }
    return !(high & 0x8080808080808080u);
}
/* An "invalid UTF-8" error at the first bad byte of text[start, start +
 * length), a string of tok, if it has one. */
static inline void pgn_check_utf8(pgn_reader *r, const pgn_token *tok, size_t start, size_t length) {
    if (!pgn_all_ascii(r->lx.text + start, length)) pgn_check_utf8_slow(r, tok, start, length);
}
/* A comment token: recorded when the line is (pgn_movetext.c). */
void pgn_comment(pgn_reader *r, const pgn_token *tok);
/* cn_pgn_read in CN_PGN_MODE_CHESSJS (pgn_chessjs.c). */
cn_status pgn_read_chessjs(cn_pgn_input *in, cn_pgn_output *out);
/* Closes the variations still open (pgn_movetext.c). */
void pgn_close_variations(pgn_reader *r);

#endif /* CN_PGN_READER_H */
