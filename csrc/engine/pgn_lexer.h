/*
 * pgn_lexer.h - PGN tokens: tags, movetext symbols, comments, NAGs,
 * variation brackets and results. Knows nothing about chess.
 */
#ifndef CN_PGN_LEXER_H
#define CN_PGN_LEXER_H

#include <stddef.h>
#include <stdint.h>

typedef enum pgn_token_kind {
    PGN_TOK_END = 0, /* end of text */
    PGN_TOK_TAG,     /* [Name "value"]: name and value ranges */
    PGN_TOK_BAD_TAG, /* a '[' line that is not a tag; skipped to its end */
    PGN_TOK_SYMBOL,  /* a move (or anything else made of symbol bytes) */
    PGN_TOK_RESULT,  /* value: cn_pgn_result */
    PGN_TOK_COMMENT, /* '{...}' or ';...': text range; flag: unterminated */
    PGN_TOK_NAG,     /* value: the NAG (-1: a glyph that is not one) */
    PGN_TOK_OPEN,    /* '(' */
    PGN_TOK_CLOSE,   /* ')' */
    PGN_TOK_JUNK     /* a run of bytes that start no token */
} pgn_token_kind;

typedef struct pgn_token {
    pgn_token_kind kind;
    size_t begin;                     /* the token's first byte ('[', '{', ...) */
    size_t start, length;             /* the token's text (comment: inside) */
    size_t value_start, value_length; /* TAG only: the raw value, escapes kept */
    uint32_t line, column;            /* of the token's first byte, 1-based; column in bytes */
    int value;
    int unterminated; /* COMMENT or TAG string that ran out */
} pgn_token;

typedef struct pgn_lexer {
    const char *text;
    size_t length, pos;
    uint32_t line;
    size_t line_start; /* offset of the current line; may be "negative" via column_base */
    uint32_t column_base;
    size_t open_escape;                /* 1 + offset of a '%' line that reached the end, else 0 */
    int partial;                       /* more text follows: see pgn_lexer_next */
    uint32_t first_line, first_column; /* where the text starts */
    /* pgn_lexer_char_column's count so far: on line counted_line, counted_chars characters before counted_at */
    uint32_t counted_line, counted_chars;
    size_t counted_at;
} pgn_lexer;

void pgn_lexer_init(pgn_lexer *lx, const char *text, size_t length, uint32_t line, uint32_t column);
/* The next token. In a partial text, a skipped run (a move number, dots)
 * that reaches the end may go on in the next text ("0" of "0-1"): the END
 * token then begins where that run does, so the run is read again. */
void pgn_lexer_next(pgn_lexer *lx, pgn_token *tok);
/* The column of tok (of a token of the current text), 1-based, counting
 * characters as editors do (a UTF-8 sequence is one); tok->column counts
 * bytes. Counts on from the last call on the same line, so a line's
 * columns cost its length once. */
uint32_t pgn_lexer_char_column(pgn_lexer *lx, const pgn_token *tok);
/* Moves to the end of the current line (its newline is the next byte);
 * returns 0 when the text ended first. */
int pgn_lexer_skip_line(pgn_lexer *lx);
/* The offset of the end (LF or CR) of the line holding text[p], p at or
 * after lx->pos, or the text's length. */
size_t pgn_lexer_line_end(pgn_lexer *lx, size_t p);
/* The first LF or CR in s[0..n), or NULL: a line ends at either (CRLF at its CR). */
const char *pgn_next_line_end(const char *s, size_t n);
/* Does text[at..] start a tag line, '[' name blanks '"'? Such a line also
 * ends a '{' comment left open before it. */
int pgn_tag_line_at(const char *text, size_t length, size_t at);
/* The tag token at lx->pos, a '[' (pgn_tag.c). */
void pgn_lex_tag(pgn_lexer *lx, pgn_token *tok);

#endif /* CN_PGN_LEXER_H */
