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
    if (line == 1 && column == 0 && length >= 3 && !memcmp(text, "\xEF\xBB\xBF", 3)) {
        lx->pos = 3; /* a UTF-8 byte order mark */
        lx->line_start = 3;
    }
}

#if CN_HAVE_SSE2
/* Bytes find_line_end_or tests at once. */
#define STEP_BYTES 16
/* The index of the first LF, CR or `also` in text[p, p + 16), or 16. */
static inline unsigned step_hit(const char *text, size_t p, char also) {
    const __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(text + p));
    const __m128i line_end =
        _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('\n')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\r')));
    const unsigned hits = (unsigned)_mm_movemask_epi8(_mm_or_si128(line_end, _mm_cmpeq_epi8(v, _mm_set1_epi8(also))));
    return hits ? bb_lsb(hits) : STEP_BYTES;
}
#else
#define STEP_BYTES 8
/* The bytes of w equal to the byte repeated in c8, as their high bits. A
 * borrow may flag a byte above the lowest hit too, never one below it. */
static inline uint64_t bytes_equal(uint64_t w, uint64_t c8) {
    const uint64_t x = w ^ c8;
    return (x - 0x0101010101010101u) & ~x & 0x8080808080808080u;
}
/* The index of the first LF, CR or `also` in text[p, p + 8), or 8. */
static inline unsigned step_hit(const char *text, size_t p, char also) {
    const uint64_t ones = 0x0101010101010101u;
    uint64_t w;
    memcpy(&w, text + p, sizeof w);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    w = __builtin_bswap64(w); /* text[p] in the low byte */
#endif
    const uint64_t hits =
        bytes_equal(w, ones * '\n') | bytes_equal(w, ones * '\r') | bytes_equal(w, ones * (unsigned char)also);
    return hits ? bb_lsb(hits) >> 3 : STEP_BYTES;
}
#endif

/* The first LF, CR or `also` in text[p..length), or length: one pass,
 * STEP_BYTES bytes a step, instead of a search for each byte. Comments are
 * most of a file with annotations, and each is read once this way. */
static size_t find_line_end_or(const char *text, size_t p, size_t length, char also) {
    for (; length - p >= STEP_BYTES; p += STEP_BYTES) {
        const unsigned hit = step_hit(text, p, also);
        if (hit < STEP_BYTES) return p + hit;
    }
    for (; p < length; p++)
        if (text[p] == '\n' || text[p] == '\r' || text[p] == also) return p;
    return length;
}

const char *pgn_next_line_end(const char *s, size_t n) {
    const size_t end = find_line_end_or(s, 0, n, '\n');
    return end < n ? s + end : NULL;
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

size_t pgn_lexer_line_end(pgn_lexer *lx, size_t p) { return find_line_end_or(lx->text, p, lx->length, '\n'); }

/* The first '}', LF or CR in text[p..length), or length: one search for a
 * comment's end and a line's (most comments close on their line). */
static size_t comment_stop(pgn_lexer *lx, size_t p) { return find_line_end_or(lx->text, p, lx->length, '}'); }

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
    const size_t end = find_line_end_or(lx->text, lx->pos, lx->length, '\n');
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
