/*
 * pgn_lexer.c - splits PGN text into tokens (pgn_lexer.h). Every loop
 * advances through the text once, so time is linear whatever the tokens.
 */
#include "pgn_lexer.h"

#include <string.h>

#include "include/pgn.h"

void pgn_lexer_init(pgn_lexer *lx, const char *text, size_t length, uint32_t line, uint32_t column) {
    lx->text = text ? text : ""; /* an empty text may come without storage */
    lx->length = length;
    lx->pos = 0;
    lx->line = line;
    lx->line_start = 0;
    lx->column_base = column;
    lx->at_line_start = column == 0;
    lx->open_escape = 0;
    lx->partial = 0;
    if (line == 1 && column == 0 && length >= 3 && !memcmp(text, "\xEF\xBB\xBF", 3)) {
        lx->pos = 3; /* a UTF-8 byte order mark */
        lx->line_start = 3;
    }
}

static void new_line(pgn_lexer *lx, size_t next) {
    lx->line++;
    lx->line_start = next;
    lx->column_base = 0;
    lx->at_line_start = 1;
}

/* Whitespace, control bytes and '%' escape lines. */
static void skip_space(pgn_lexer *lx) {
    while (lx->pos < lx->length) {
        const unsigned char c = (unsigned char)lx->text[lx->pos];
        if (c == '\n') {
            new_line(lx, ++lx->pos);
        } else if (c <= ' ') {
            lx->pos++; /* blanks, NUL and other control bytes */
        } else if (c == '%' && lx->pos == lx->line_start && lx->column_base == 0) {
            const char *nl = memchr(lx->text + lx->pos, '\n', lx->length - lx->pos);
            if (!nl) lx->open_escape = lx->pos + 1; /* may go on past a partial text */
            lx->pos = nl ? (size_t)(nl - lx->text) : lx->length;
        } else {
            return;
        }
    }
}

static int is_symbol_byte(unsigned char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '+' ||
           c == '#' || c == '=' || c == ':' || c == '-' || c == '/';
}

static int starts_token(unsigned char c) {
    return is_symbol_byte(c) || c == '[' || c == '{' || c == ';' || c == '(' || c == ')' || c == '$' || c == '!' ||
           c == '?' || c == '*' || c == '.' || c <= ' ' || c == '}';
}

static size_t run_of(const pgn_lexer *lx, size_t from, int (*member)(unsigned char)) {
    while (from < lx->length && member((unsigned char)lx->text[from])) from++;
    return from;
}

static int is_digit(unsigned char c) { return c >= '0' && c <= '9'; }
static int is_dot(unsigned char c) { return c == '.'; }
static int is_glyph(unsigned char c) { return c == '!' || c == '?'; }
static int is_junk(unsigned char c) { return !starts_token(c); }

static int result_of(const char *s, size_t n) {
    if (n == 3 && !memcmp(s, "1-0", 3)) return CN_PGN_RESULT_WHITE;
    if (n == 3 && !memcmp(s, "0-1", 3)) return CN_PGN_RESULT_BLACK;
    if (n == 7 && !memcmp(s, "1/2-1/2", 7)) return CN_PGN_RESULT_DRAW;
    return 0;
}

static int glyph_nag(const char *s, size_t n) {
    static const char *const glyphs[] = {"!", "?", "!!", "??", "!?", "?!"};
    for (int i = 0; i < 6; i++)
        if (strlen(glyphs[i]) == n && !memcmp(glyphs[i], s, n)) return i + 1;
    return -1;
}

/* A symbol, or a move number ("12.", "12...", "12" alone) which is skipped:
 * returns 0 for a move number, 1 for a token. */
static int lex_symbol(pgn_lexer *lx, pgn_token *tok) {
    const size_t digits_end = run_of(lx, lx->pos, is_digit);
    if (digits_end > lx->pos) {
        const size_t dots_end = run_of(lx, digits_end, is_dot);
        const int bare = digits_end == lx->length || !is_symbol_byte((unsigned char)lx->text[digits_end]);
        if (dots_end > digits_end || bare) {
            lx->pos = dots_end;
            return 0;
        }
    }
    const size_t end = run_of(lx, lx->pos, is_symbol_byte);
    tok->kind = PGN_TOK_SYMBOL;
    tok->length = end - lx->pos;
    tok->value = result_of(lx->text + lx->pos, tok->length);
    if (tok->value) tok->kind = PGN_TOK_RESULT;
    lx->pos = end;
    return 1;
}

int pgn_tag_line_at(const char *text, size_t length, size_t at) {
    if (at >= length || text[at] != '[') return 0;
    size_t p = at + 1;
    const size_t name_start = p;
    while (p < length && (is_symbol_byte((unsigned char)text[p]))) p++;
    if (p == name_start) return 0;
    while (p < length && (text[p] == ' ' || text[p] == '\t')) p++;
    return p < length && text[p] == '"';
}

static int looks_like_tag(const pgn_lexer *lx, size_t at) { return pgn_tag_line_at(lx->text, lx->length, at); }

/* '{' comment: to '}', or, unterminated, to the line before a tag line or the end. */
static void lex_brace_comment(pgn_lexer *lx, pgn_token *tok) {
    const size_t start = lx->pos + 1;
    size_t p = start;
    for (;;) {
        const char *close = memchr(lx->text + p, '}', lx->length - p);
        const size_t limit = close ? (size_t)(close - lx->text) : lx->length;
        const char *nl = memchr(lx->text + p, '\n', limit - p);
        if (!nl) {
            if (close) {
                tok->length = limit - start;
                lx->pos = limit + 1;
                return;
            }
            break;
        }
        p = (size_t)(nl - lx->text) + 1;
        new_line(lx, p);
        if (looks_like_tag(lx, p)) {
            tok->unterminated = 1;
            tok->length = p - start;
            lx->pos = p;
            return;
        }
    }
    tok->unterminated = 1;
    tok->length = lx->length - start;
    lx->pos = lx->length;
}

static void lex_line_comment(pgn_lexer *lx, pgn_token *tok) {
    const char *nl = memchr(lx->text + lx->pos, '\n', lx->length - lx->pos);
    const size_t end = nl ? (size_t)(nl - lx->text) : lx->length;
    tok->start = lx->pos + 1;
    tok->length = end - tok->start;
    lx->pos = end;
}

static void lex_nag(pgn_lexer *lx, pgn_token *tok) {
    const size_t end = run_of(lx, lx->pos + 1, is_digit);
    int value = end > lx->pos + 1 ? 0 : -1;
    for (size_t i = lx->pos + 1; i < end && value >= 0; i++) {
        value = value * 10 + (lx->text[i] - '0');
        if (value > 255) value = -1;
    }
    tok->kind = PGN_TOK_NAG;
    tok->value = value;
    tok->length = end - lx->pos;
    lx->pos = end;
}

static void lex_glyph(pgn_lexer *lx, pgn_token *tok) {
    const size_t end = run_of(lx, lx->pos, is_glyph);
    tok->kind = PGN_TOK_NAG;
    tok->length = end - lx->pos;
    tok->value = glyph_nag(lx->text + lx->pos, tok->length);
    lx->pos = end;
}

/* Lexes one token at lx->pos (not space); returns 0 when it was skipped. */
static int lex_one(pgn_lexer *lx, pgn_token *tok);

void pgn_lexer_next(pgn_lexer *lx, pgn_token *tok) {
    for (;;) {
        skip_space(lx);
        memset(tok, 0, sizeof *tok);
        tok->start = tok->begin = lx->pos;
        tok->line = lx->line;
        tok->column = (uint32_t)(lx->pos - lx->line_start) + lx->column_base + 1;
        tok->line_start = lx->at_line_start;
        lx->at_line_start = 0;
        if (lx->pos >= lx->length) {
            tok->kind = PGN_TOK_END;
            return;
        }
        if (lex_one(lx, tok)) return;
        if (lx->partial && lx->pos >= lx->length) {
            tok->kind = PGN_TOK_END; /* begins at the skipped run */
            return;
        }
    }
}

static int lex_one(pgn_lexer *lx, pgn_token *tok) {
    const unsigned char c = (unsigned char)lx->text[lx->pos];
    switch (c) {
    case '[':
        pgn_lex_tag(lx, tok);
        return 1;
    case '{':
        tok->kind = PGN_TOK_COMMENT;
        tok->start = lx->pos + 1;
        lex_brace_comment(lx, tok);
        return 1;
    case ';':
        tok->kind = PGN_TOK_COMMENT;
        lex_line_comment(lx, tok);
        return 1;
    case '(':
    case ')':
        tok->kind = c == '(' ? PGN_TOK_OPEN : PGN_TOK_CLOSE;
        tok->length = 1;
        lx->pos++;
        return 1;
    case '$':
        lex_nag(lx, tok);
        return 1;
    case '!':
    case '?':
        lex_glyph(lx, tok);
        return 1;
    case '*':
        tok->kind = PGN_TOK_RESULT;
        tok->value = CN_PGN_RESULT_UNKNOWN;
        tok->length = 1;
        lx->pos++;
        return 1;
    case '.':
    case '}':
        lx->pos = run_of(lx, lx->pos, is_dot) + (c == '}');
        return 0;
    default:
        break;
    }
    if (c == 'e' && lx->length - lx->pos >= 4 && !memcmp(lx->text + lx->pos, "e.p.", 4)) {
        lx->pos += 4; /* the en-passant mark after a move */
        return 0;
    }
    if (is_symbol_byte(c)) return lex_symbol(lx, tok);
    tok->kind = PGN_TOK_JUNK;
    lx->pos = run_of(lx, lx->pos + 1, is_junk); /* at least one byte */
    tok->length = lx->pos - tok->start;
    return 1;
}

int pgn_lexer_skip_line(pgn_lexer *lx) {
    const char *nl = memchr(lx->text + lx->pos, '\n', lx->length - lx->pos);
    lx->pos = nl ? (size_t)(nl - lx->text) : lx->length;
    return nl != NULL;
}
