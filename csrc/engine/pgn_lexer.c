/*
 * pgn_lexer.c - splits PGN text into tokens (pgn_lexer.h). Every loop
 * advances through the text once, so time is linear whatever the tokens.
 */
#include "pgn_lexer.h"

#include <string.h>

#include "bitboard.h"
#include "include/pgn.h"
#include "sse2.h"

void pgn_lexer_init(pgn_lexer *lx, const char *text, size_t length, uint32_t line, uint32_t column) {
    lx->text = text ? text : ""; /* an empty text may come without storage */
    lx->length = length;
    lx->pos = 0;
    lx->line = line;
    lx->line_start = 0;
    lx->column_base = column;
    lx->open_escape = 0;
    lx->partial = 0;
    lx->first_line = line;
    lx->first_column = column;
    lx->counted_line = 0; /* no count yet: lines start at 1 */
    lx->cr_clear = 0;
    if (line == 1 && column == 0 && length >= 3 && !memcmp(text, "\xEF\xBB\xBF", 3)) {
        lx->pos = 3; /* a UTF-8 byte order mark */
        lx->line_start = 3;
    }
}

const char *pgn_next_line_end(const char *s, size_t n) {
    const char *lf = memchr(s, '\n', n);
    const char *cr = memchr(s, '\r', lf ? (size_t)(lf - s) : n);
    return cr ? cr : lf;
}

static void new_line(pgn_lexer *lx, size_t next) {
    lx->line++;
    lx->line_start = next;
    lx->column_base = 0;
}

/* Byte classes, one table lookup instead of a chain of comparisons on the
 * lexer's hottest loops. SYMBOL: a move or symbol byte; DIGIT: 0-9; START:
 * a byte that starts or separates a token (anything else is junk, bytes
 * 0x80 and up included). */
enum { CLASS_SYMBOL = 1, CLASS_DIGIT = 2, CLASS_START = 4 };

static const unsigned char byte_class[256] = {
    4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, /* 00 */
    4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, /* 10 */
    4, 4, 0, 5, 4, 0, 0, 0, 4, 4, 4, 5, 0, 5, 4, 5, /* 20 */
    7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 5, 4, 0, 5, 0, 4, /* 30 */
    0, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, /* 40 */
    5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 4, 0, 0, 0, 5, /* 50 */
    0, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, /* 60 */
    5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 4, 0, 4, 0, 0, /* 70 */
};

static int is_symbol_byte(unsigned char c) { return byte_class[c] & CLASS_SYMBOL; }

/* A '%' escape line at p: skipped to its end. */
static CN_NOINLINE size_t skip_escape(pgn_lexer *lx, size_t p) {
    const char *nl = pgn_next_line_end(lx->text + p, lx->length - p);
    if (!nl) lx->open_escape = p + 1; /* may go on past a partial text */
    return nl ? (size_t)(nl - lx->text) : lx->length;
}

/* A CR at p - 1: a line end unless an LF follows. Returns where to go on,
 * p - 1 when an LF may follow in the next text (the CR is read again). */
static CN_NOINLINE size_t after_cr(pgn_lexer *lx, size_t p) {
    if (p < lx->length && lx->text[p] == '\n') return p; /* the LF ends the line */
    if (p == lx->length && lx->partial) return p - 1;
    new_line(lx, p); /* a CR alone ends a line too */
    return p;
}

/* Whitespace, control bytes and '%' escape lines from p; returns the first
 * byte after them (a CR left for the next text stops there too). */
static inline size_t skip_space(pgn_lexer *lx, size_t p) {
    const char *text = lx->text;
    const size_t length = lx->length;
    while (p < length) {
        const unsigned char c = (unsigned char)text[p];
        if (c == ' ') {
            p++;
            continue;
        }
        if (c > ' ') {
            if (c != '%' || p != lx->line_start || lx->column_base != 0) break;
            p = skip_escape(lx, p);
            continue;
        }
        p++; /* newlines, tabs, NUL and other control bytes */
        if (c == '\n') {
            new_line(lx, p);
        } else if (c == '\r') {
            const size_t next = after_cr(lx, p);
            if (next < p) return next;
        }
    }
    return p;
}

/* Bytes find_cr searches ahead at once. */
#define CR_WINDOW ((size_t)4096)

/* find_cr past the text known to hold no CR: searches a window ahead, so
 * text without CRs (most files) costs one search per window, not one per
 * comment. */
static const char *find_cr_ahead(pgn_lexer *lx, size_t p, size_t before) {
    size_t from = p > lx->cr_clear ? p : lx->cr_clear;
    for (;;) {
        const size_t window = lx->length - from > CR_WINDOW ? from + CR_WINDOW : lx->length;
        const char *cr = memchr(lx->text + from, '\r', window - from);
        if (cr) {
            lx->cr_clear = (size_t)(cr - lx->text);
            return lx->cr_clear < before ? cr : NULL;
        }
        lx->cr_clear = window;
        if (window >= before) return NULL;
        from = window;
    }
}

/* The first CR in text[p..before), or NULL. The lexer only moves on, so
 * text[p..cr_clear) holds none. */
static inline const char *find_cr(pgn_lexer *lx, size_t p, size_t before) {
    return before <= lx->cr_clear ? NULL : find_cr_ahead(lx, p, before);
}

/* The first LF or CR in text[p..before), or NULL: a line ends at either. */
static inline const char *line_end_before(pgn_lexer *lx, size_t p, size_t before) {
    const char *lf = memchr(lx->text + p, '\n', before - p);
    const char *cr = find_cr(lx, p, lf ? (size_t)(lf - lx->text) : before);
    return cr ? cr : lf;
}

static size_t run_of(const pgn_lexer *lx, size_t from, int (*member)(unsigned char)) {
    while (from < lx->length && member((unsigned char)lx->text[from])) from++;
    return from;
}

static int is_digit(unsigned char c) { return byte_class[c] & CLASS_DIGIT; }
static int is_dot(unsigned char c) { return c == '.'; }
static int is_glyph(unsigned char c) { return c == '!' || c == '?'; }
static int is_junk(unsigned char c) { return !(byte_class[c] & CLASS_START); }

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

/* The symbol at lx->pos (a move, a result, ...), its first byte c. */
static inline void lex_symbol(pgn_lexer *lx, pgn_token *tok, unsigned char c) {
    const size_t end = run_of(lx, lx->pos + 1, is_symbol_byte);
    tok->kind = PGN_TOK_SYMBOL;
    tok->length = end - lx->pos;
    if (c == '0' || c == '1') { /* the results' first bytes */
        tok->value = result_of(lx->text + lx->pos, tok->length);
        if (tok->value) tok->kind = PGN_TOK_RESULT;
    }
    lx->pos = end;
}

/* The end of the run at p that is no token (not space, not the end): a
 * move number ("12.", "12...", "12" alone, not "0000"), dots, a stray '}',
 * "e.p."; p when there is none. No run holds a newline. */
static inline size_t run_end(const pgn_lexer *lx, size_t p) {
    const char *text = lx->text;
    const unsigned char c = (unsigned char)text[p];
    if (is_digit(c)) {
        const size_t digits_end = run_of(lx, p + 1, is_digit);
        if (digits_end < lx->length && text[digits_end] == '.') return run_of(lx, digits_end + 1, is_dot);
        const int bare = digits_end == lx->length || !is_symbol_byte((unsigned char)text[digits_end]);
        const int uci_null = digits_end - p == 4 && !memcmp(text + p, "0000", 4);
        return bare && !uci_null ? digits_end : p;
    }
    if (c == '.') return run_of(lx, p + 1, is_dot);
    if (c == '}') return p + 1;
    if (c == 'e' && lx->length - p >= 4 && !memcmp(text + p, "e.p.", 4)) return p + 4; /* en passant, after a move */
    return p;
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

#if CN_HAVE_SSE2
/* The first `c`, LF or CR in text[p..length), or length: 16 bytes a step,
 * one search for a line's end and a comment's (most close on their line). */
static size_t first_of(const pgn_lexer *lx, size_t p, char c) {
    const char *text = lx->text;
    const size_t length = lx->length;
    const __m128i wanted = _mm_set1_epi8(c), lf = _mm_set1_epi8('\n'), cr = _mm_set1_epi8('\r');
    for (; length - p >= 16; p += 16) {
        const __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(text + p));
        const __m128i hit =
            _mm_or_si128(_mm_cmpeq_epi8(v, wanted), _mm_or_si128(_mm_cmpeq_epi8(v, lf), _mm_cmpeq_epi8(v, cr)));
        const unsigned mask = (unsigned)_mm_movemask_epi8(hit);
        if (mask) return p + bb_lsb(mask);
    }
    for (; p < length; p++)
        if (text[p] == c || text[p] == '\n' || text[p] == '\r') break;
    return p;
}

size_t pgn_lexer_line_end(pgn_lexer *lx, size_t p) { return first_of(lx, p, '\n'); }

/* The first '}', LF or CR in text[p..length), or length. */
static size_t comment_stop(pgn_lexer *lx, size_t p) { return first_of(lx, p, '}'); }
#else
size_t pgn_lexer_line_end(pgn_lexer *lx, size_t p) {
    const char *nl = line_end_before(lx, p, lx->length);
    return nl ? (size_t)(nl - lx->text) : lx->length;
}

/* The first '}', LF or CR in text[p..length), or length. */
static size_t comment_stop(pgn_lexer *lx, size_t p) {
    const char *close = memchr(lx->text + p, '}', lx->length - p);
    const size_t limit = close ? (size_t)(close - lx->text) : lx->length;
    const char *nl = line_end_before(lx, p, limit);
    return nl ? (size_t)(nl - lx->text) : limit;
}
#endif

/* '{' comment: to '}', or, unterminated, to the line before a tag line or the end. */
static void lex_brace_comment(pgn_lexer *lx, pgn_token *tok) {
    const size_t start = lx->pos + 1;
    size_t p = start;
    for (;;) {
        const size_t stop = comment_stop(lx, p);
        if (stop == lx->length) break;
        if (lx->text[stop] == '}') {
            tok->length = stop - start;
            lx->pos = stop + 1;
            return;
        }
        p = stop + 1;
        if (lx->text[stop] == '\r' && p < lx->length && lx->text[p] == '\n') p++;
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
    const char *nl = line_end_before(lx, lx->pos, lx->length);
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

/* Starts tok at `at`, as the token at lx->line; every field but TAG's
 * value range is set. */
static inline void start_token(const pgn_lexer *lx, pgn_token *tok, size_t at) {
    tok->kind = PGN_TOK_END;
    tok->begin = tok->start = at;
    tok->length = 0;
    tok->line = lx->line;
    tok->column = (uint32_t)(at - lx->line_start) + lx->column_base + 1;
    tok->value = tok->unterminated = 0;
}

/* The tokens that are neither symbols nor '{' comments, at lx->pos. Out of
 * line: the common tokens' path stays short. */
static CN_NOINLINE void lex_other(pgn_lexer *lx, pgn_token *tok, unsigned char c) {
    switch (c) {
    case '[':
        pgn_lex_tag(lx, tok);
        return;
    case ';':
        tok->kind = PGN_TOK_COMMENT;
        lex_line_comment(lx, tok);
        return;
    case '(':
    case ')':
        tok->kind = c == '(' ? PGN_TOK_OPEN : PGN_TOK_CLOSE;
        tok->length = 1;
        lx->pos++;
        return;
    case '$':
        lex_nag(lx, tok);
        return;
    case '!':
    case '?':
        lex_glyph(lx, tok);
        return;
    case '*':
        tok->kind = PGN_TOK_RESULT;
        tok->value = CN_PGN_RESULT_UNKNOWN;
        tok->length = 1;
        lx->pos++;
        return;
    default:
        tok->kind = PGN_TOK_JUNK;
        lx->pos = run_of(lx, lx->pos + 1, is_junk); /* at least one byte */
        tok->length = lx->pos - tok->start;
        return;
    }
}

void pgn_lexer_next(pgn_lexer *lx, pgn_token *tok) {
    size_t p = lx->pos, at;
    for (;;) {
        at = p = skip_space(lx, p);
        if (p >= lx->length) break;
        p = run_end(lx, p);
        if (p == at) { /* a token */
            const unsigned char c = (unsigned char)lx->text[at];
            lx->pos = at;
            start_token(lx, tok, at);
            if (is_symbol_byte(c)) {
                lex_symbol(lx, tok, c);
            } else if (c == '{') {
                tok->kind = PGN_TOK_COMMENT;
                tok->start = at + 1;
                lex_brace_comment(lx, tok);
            } else {
                lex_other(lx, tok, c);
            }
            return;
        }
        if (lx->partial && p >= lx->length) break; /* END, beginning at the skipped run */
    }
    lx->pos = p;
    start_token(lx, tok, at);
}

int pgn_lexer_skip_line(pgn_lexer *lx) {
    const char *nl = pgn_next_line_end(lx->text + lx->pos, lx->length - lx->pos);
    lx->pos = nl ? (size_t)(nl - lx->text) : lx->length;
    return nl != NULL;
}

uint32_t pgn_lexer_char_column(pgn_lexer *lx, const pgn_token *tok) {
    const uint32_t base = tok->line == lx->first_line ? lx->first_column : 0;
    const size_t line_start = tok->begin - (tok->column - 1 - base);
    size_t at = line_start;
    uint32_t chars = base;
    if (lx->counted_line == tok->line && lx->counted_at >= line_start && lx->counted_at <= tok->begin) {
        at = lx->counted_at;
        chars = lx->counted_chars;
    }
    for (; at < tok->begin; at++) chars += ((unsigned char)lx->text[at] & 0xC0) != 0x80;
    lx->counted_line = tok->line;
    lx->counted_at = at;
    lx->counted_chars = chars;
    return chars + 1;
}
