/*
 * pgn_chessjs.c - CN_PGN_MODE_CHESSJS: one game read with chess.js 1.4.0's
 * PGN grammar, for a caller that must accept and reject exactly the texts
 * chess.js's loadPgn does: tag values without escapes, at most one comment
 * after a move and none between a variation and the next move, suffix
 * annotations only right after the move, and nothing after the result.
 * Moves are recorded as written (TOKEN), not played: the caller resolves
 * them with its own rules. A text the grammar rejects gives one ERROR whose
 * message is chess.js's: the expectations recorded at the furthest failed
 * position, sorted, and the character found there.
 *
 * The grammar is a parsing expression grammar: each rule either matches
 * and moves on or fails and leaves the position where it was. A named rule
 * reports only its own name, at its start, when it fails.
 */
#include <string.h>

#include "pgn_reader.h"

/* Expectations, in the order chess.js's message sorts their names. */
enum {
    X_NAG,
    X_BRACE,
    X_END,
    X_MARKER,
    X_MOVE_NUMBER,
    X_REST,
    X_SAN,
    X_SUFFIX,
    X_TAG_NAME,
    X_TAG_PAIR,
    X_VARIATION,
    X_SPACE,
    X_COUNT
};
static const char *const expectation_names[X_COUNT] = {"NAG",
                                                       "brace comment",
                                                       "end of input",
                                                       "game termination marker",
                                                       "move number",
                                                       "rest of line comment",
                                                       "standard algebraic notation",
                                                       "suffix annotation",
                                                       "tag name",
                                                       "tag pair",
                                                       "variation",
                                                       "whitespace"};

/* Variations nested deeper than this stop the read (chess.js's own parser
 * runs out of stack between 1,000 and 3,000 on Node). */
#define MAX_NESTING 1000

typedef struct cj {
    const char *s;
    size_t n, i;
    int silent, nesting, too_deep;
    size_t fail_at;
    unsigned expected; /* bits X_* at fail_at */
    cn_pgn_output *out;
    cn_status status;
} cj;

static int is_space(const cj *p, size_t at) {
    if (at >= p->n) return 0;
    const char c = p->s[at];
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}
static int is_letter(const cj *p, size_t at) {
    if (at >= p->n) return 0;
    const char c = p->s[at];
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
static int is_digit(const cj *p, size_t at) { return at < p->n && p->s[at] >= '0' && p->s[at] <= '9'; }
static int is_san_char(const cj *p, size_t at) {
    if (is_letter(p, at)) return 1;
    if (at >= p->n) return 0;
    const char c = p->s[at];
    return (c >= '1' && c <= '8') || c == '-' || c == '=';
}
static int at_char(const cj *p, char c) { return p->i < p->n && p->s[p->i] == c; }
static int literal(cj *p, const char *text) {
    const size_t k = strlen(text);
    if (p->n - p->i < k || memcmp(p->s + p->i, text, k) != 0) return 0;
    p->i += k;
    return 1;
}

static void expect(cj *p, size_t at, int what) {
    if (p->silent > 0 || at < p->fail_at) return;
    if (at > p->fail_at) {
        p->fail_at = at;
        p->expected = 0;
    }
    p->expected |= 1u << what;
}

static void emit(cj *p, int32_t op, int32_t a, int32_t b, int32_t c) {
    if (p->status == CN_OK) p->status = pgn_out_record(p->out, op, a, b, c);
}
static int32_t bytes(cj *p, const char *text, size_t length) {
    int32_t offset = 0;
    if (p->status == CN_OK) p->status = pgn_out_bytes(p->out, text, length, &offset);
    return offset;
}

static void space(cj *p) {
    while (is_space(p, p->i)) p->i++;
    expect(p, p->i, X_SPACE);
}

/* A named rule: `rule` runs silently; on failure the position goes back
 * and the name is expected there. */
#define NAMED(p, what, call)                                                                                           \
    do {                                                                                                               \
        const size_t start_ = (p)->i;                                                                                  \
        (p)->silent++;                                                                                                 \
        ok = (call);                                                                                                   \
        (p)->silent--;                                                                                                 \
        if (!ok) {                                                                                                     \
            (p)->i = start_;                                                                                           \
            expect((p), start_, (what));                                                                               \
        }                                                                                                              \
    } while (0)

static int tag_name(cj *p) {
    const size_t start = p->i;
    while (is_letter(p, p->i)) p->i++;
    return p->i > start;
}

static int tag_pair_body(cj *p, size_t *name, size_t *name_end, size_t *value, size_t *value_end) {
    int ok;
    space(p);
    if (!literal(p, "[")) return 0;
    space(p);
    *name = p->i;
    NAMED(p, X_TAG_NAME, tag_name(p));
    if (!ok) return 0;
    *name_end = p->i;
    space(p);
    if (!literal(p, "\"")) return 0;
    *value = p->i;
    while (p->i < p->n && p->s[p->i] != '"') p->i++;
    *value_end = p->i;
    if (!literal(p, "\"")) return 0;
    space(p);
    return literal(p, "]");
}

static int tag_pair(cj *p) {
    size_t name = 0, name_end = 0, value = 0, value_end = 0;
    int ok;
    NAMED(p, X_TAG_PAIR, tag_pair_body(p, &name, &name_end, &value, &value_end));
    if (!ok) return 0;
    const int32_t at = bytes(p, p->s + name, name_end - name);
    bytes(p, p->s + value, value_end - value);
    emit(p, CN_PGN_OP_TAG, at, (int32_t)(name_end - name), (int32_t)(value_end - value));
    return 1;
}

/* The length of the UTF-8 sequence at s[0..n) if it is a character
 * JavaScript's String.prototype.trim removes, else 0. */
static size_t trimmed_space(const unsigned char *s, size_t n) {
    if (n >= 1 && (s[0] == ' ' || (s[0] >= 0x09 && s[0] <= 0x0d))) return 1;
    if (n >= 2 && s[0] == 0xc2 && s[1] == 0xa0) return 2;
    if (n < 3) return 0;
    const unsigned cp = ((s[0] & 0x0fu) << 12) | ((s[1] & 0x3fu) << 6) | (s[2] & 0x3fu);
    if ((s[0] & 0xf0) != 0xe0 || (s[1] & 0xc0) != 0x80 || (s[2] & 0xc0) != 0x80) return 0;
    const int blank = cp == 0x1680 || (cp >= 0x2000 && cp <= 0x200a) || cp == 0x2028 || cp == 0x2029 || cp == 0x202f ||
                      cp == 0x205f || cp == 0x3000 || cp == 0xfeff;
    return blank ? 3 : 0;
}

/* The start of the character ending at s[end): it begins at a byte that is
 * not a UTF-8 continuation. */
static size_t char_before(const char *s, size_t start, size_t end) {
    size_t k = end - 1;
    while (k > start && ((unsigned char)s[k] & 0xc0) == 0x80 && end - k < 4) k--;
    return k;
}

/* A ';' comment's text, trimmed as chess.js trims it. */
static void rest_of_line_text(cj *p, size_t start, size_t end) {
    const unsigned char *u = (const unsigned char *)p->s;
    for (size_t k; start < end && (k = trimmed_space(u + start, end - start)) > 0;) start += k;
    while (end > start) {
        const size_t c = char_before(p->s, start, end);
        if (trimmed_space(u + c, end - c) != end - c) break;
        end = c;
    }
    const int32_t at = bytes(p, p->s + start, end - start);
    emit(p, CN_PGN_OP_COMMENT, at, (int32_t)(end - start), 0);
}

/* A '{' comment's text with each run of line ends made one space. */
static void brace_text(cj *p, size_t start, size_t end) {
    if (p->status == CN_OK) p->status = pgn_out_reserve_bytes(p->out, end - start);
    if (p->status != CN_OK) return;
    char *w = p->out->strings + p->out->string_length;
    size_t n = 0;
    for (size_t k = start; k < end; k++) {
        const char c = p->s[k];
        if (c != '\r' && c != '\n')
            w[n++] = c;
        else if (k == start || (p->s[k - 1] != '\r' && p->s[k - 1] != '\n'))
            w[n++] = ' ';
    }
    emit(p, CN_PGN_OP_COMMENT, (int32_t)p->out->string_length, (int32_t)n, 0);
    p->out->string_length += n;
}

static int brace_comment(cj *p) {
    if (!literal(p, "{")) return 0;
    const char *close = memchr(p->s + p->i, '}', p->n - p->i);
    if (!close) return 0;
    const size_t start = p->i;
    p->i = (size_t)(close - p->s) + 1;
    brace_text(p, start, p->i - 1);
    return 1;
}

static int rest_of_line_comment(cj *p) {
    if (!literal(p, ";")) return 0;
    const size_t start = p->i;
    while (p->i < p->n && p->s[p->i] != '\r' && p->s[p->i] != '\n') p->i++;
    rest_of_line_text(p, start, p->i);
    return 1;
}

static int comment(cj *p) {
    int ok;
    NAMED(p, X_BRACE, brace_comment(p));
    if (ok) return 1;
    NAMED(p, X_REST, rest_of_line_comment(p));
    return ok;
}

static int move_number(cj *p) {
    while (is_digit(p, p->i)) p->i++;
    if (!literal(p, ".")) return 0;
    space(p);
    while (at_char(p, '.')) p->i++;
    return 1;
}

static int san(cj *p) {
    const size_t start = p->i;
    if (!literal(p, "O-O-O") && !literal(p, "O-O") && !literal(p, "0-0-0") && !literal(p, "0-0")) {
        if (!is_letter(p, p->i) || !is_san_char(p, p->i + 1)) return 0;
        p->i += 2;
        while (is_san_char(p, p->i)) p->i++;
    }
    if (at_char(p, '+') || at_char(p, '#')) p->i++;
    const int32_t at = bytes(p, p->s + start, p->i - start);
    emit(p, CN_PGN_OP_TOKEN, at, (int32_t)(p->i - start), 0);
    return 1;
}

static int suffix(cj *p) {
    const size_t start = p->i;
    while (p->i - start < 2 && (at_char(p, '!') || at_char(p, '?'))) p->i++;
    if (p->i == start) return 0;
    static const char *const glyphs[] = {"!", "?", "!!", "??", "!?", "?!"};
    for (int g = 0; g < 6; g++)
        if (strlen(glyphs[g]) == p->i - start && memcmp(glyphs[g], p->s + start, p->i - start) == 0)
            emit(p, CN_PGN_OP_NAG, g + 1, 0, 0);
    return 1;
}

static int nag(cj *p) {
    space(p);
    if (!literal(p, "$")) return 0;
    const size_t start = p->i;
    int32_t value = 0;
    for (; is_digit(p, p->i); p->i++)
        value = value > (INT32_MAX - 9) / 10 ? INT32_MAX : value * 10 + (p->s[p->i] - '0');
    if (p->i == start) return 0;
    emit(p, CN_PGN_OP_NAG, value, 0, 0);
    return 1;
}

static void line(cj *p);

static int variation_body(cj *p) {
    space(p);
    if (!literal(p, "(")) return 0;
    if (++p->nesting > MAX_NESTING) {
        p->too_deep = 1;
        return 0;
    }
    emit(p, CN_PGN_OP_VAR_START, 0, 0, 0);
    line(p);
    p->nesting--;
    space(p);
    if (!literal(p, ")")) return 0;
    emit(p, CN_PGN_OP_VAR_END, 0, 0, 0);
    return 1;
}

static int variation(cj *p) {
    /* A variation that fails takes back the records it wrote. */
    const size_t records = p->out->record_count, strings = p->out->string_length;
    int ok;
    NAMED(p, X_VARIATION, variation_body(p));
    if (!ok && p->status == CN_OK) {
        p->out->record_count = records;
        p->out->string_length = strings;
    }
    return ok && !p->too_deep;
}

static int move(cj *p) {
    const size_t start = p->i;
    int ok;
    space(p);
    NAMED(p, X_MOVE_NUMBER, move_number(p));
    space(p);
    NAMED(p, X_SAN, san(p));
    if (!ok) {
        p->i = start;
        return 0;
    }
    NAMED(p, X_SUFFIX, suffix(p));
    do NAMED(p, X_NAG, nag(p));
    while (ok);
    space(p);
    comment(p);
    while (variation(p));
    return !p->too_deep;
}

static void line(cj *p) {
    comment(p);
    while (move(p));
}

static const struct {
    const char *text;
    int result;
} markers[] = {{"1-0", CN_PGN_RESULT_WHITE},
               {"0-1", CN_PGN_RESULT_BLACK},
               {"1/2-1/2", CN_PGN_RESULT_DRAW},
               {"*", CN_PGN_RESULT_UNKNOWN}};

/* The result and the comment after it: chess.js gives that comment, when
 * it is not empty, to the last move of the mainline. */
static int marker(cj *p, int *result) {
    for (size_t k = 0; k < sizeof markers / sizeof *markers; k++) {
        if (!literal(p, markers[k].text)) continue;
        *result = markers[k].result;
        space(p);
        const size_t records = p->out->record_count, strings = p->out->string_length;
        if (comment(p) && p->status == CN_OK &&
            p->out->records[records * CN_PGN_RECORD_INTS + CN_PGN_COMMENT_LENGTH] == 0) {
            p->out->record_count = records;
            p->out->string_length = strings;
        }
        return 1;
    }
    return 0;
}

/* Appends the quoted character at s[at] as chess.js's message shows it. */
static void found_text(cj *p, char *message, size_t *n, size_t cap) {
    const unsigned char *u = (const unsigned char *)p->s + p->fail_at;
    const size_t left = p->n - p->fail_at;
    char buf[16];
    size_t k = 0;
    unsigned code = u[0];
    size_t width = 1;
    if (u[0] >= 0xc0 && left >= 2 && (u[1] & 0xc0) == 0x80) {
        width = u[0] >= 0xf0 ? 4 : u[0] >= 0xe0 ? 3 : 2;
        if (width > left) width = 1;
        code = width == 2 ? ((u[0] & 0x1fu) << 6) | (u[1] & 0x3fu) : 0x100;
    }
    const char *named = code == '\\'   ? "\\\\"
                        : code == '"'  ? "\\\""
                        : code == 0    ? "\\0"
                        : code == '\t' ? "\\t"
                        : code == '\n' ? "\\n"
                        : code == '\r' ? "\\r"
                                       : NULL;
    static const char hex[] = "0123456789ABCDEF";
    buf[k++] = '"';
    if (named) {
        memcpy(buf + k, named, strlen(named));
        k += strlen(named);
    } else if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) {
        buf[k++] = '\\';
        buf[k++] = 'x';
        buf[k++] = hex[code >> 4];
        buf[k++] = hex[code & 15];
    } else {
        memcpy(buf + k, u, width);
        k += width;
    }
    buf[k++] = '"';
    if (*n + k < cap) {
        memcpy(message + *n, buf, k);
        *n += k;
    }
}

static void append(char *message, size_t *n, size_t cap, const char *text) {
    const size_t k = strlen(text);
    if (*n + k < cap) {
        memcpy(message + *n, text, k);
        *n += k;
    }
}

/* The ERROR and WHERE records of the furthest failure. */
static void syntax_error(cj *p) {
    char message[512];
    size_t n = 0;
    int count = 0, seen = 0;
    for (int x = 0; x < X_COUNT; x++) count += (p->expected >> x) & 1;
    append(message, &n, sizeof message, "Expected ");
    for (int x = 0; x < X_COUNT; x++) {
        if (!((p->expected >> x) & 1)) continue;
        if (seen > 0) append(message, &n, sizeof message, count == 2 ? " or " : seen == count - 1 ? ", or " : ", ");
        append(message, &n, sizeof message, expectation_names[x]);
        seen++;
    }
    append(message, &n, sizeof message, " but ");
    if (p->fail_at < p->n)
        found_text(p, message, &n, sizeof message);
    else
        append(message, &n, sizeof message, "end of input");
    append(message, &n, sizeof message, " found.");
    uint32_t line_number = 1, column = 1;
    for (size_t k = 0; k < p->fail_at; k++) {
        if (p->s[k] == '\n')
            line_number++, column = 1;
        else if (((unsigned char)p->s[k] & 0xc0) != 0x80)
            column++;
    }
    const int32_t at = bytes(p, message, n);
    emit(p, CN_PGN_OP_ERROR, at, (int32_t)n, 0);
    emit(p, CN_PGN_OP_WHERE, (int32_t)line_number, (int32_t)column, 0);
}

/* V8's message when chess.js's parser runs out of stack; syntax errors start "Expected ". */
static const char too_deep_message[] = "Maximum call stack size exceeded";

cn_status pgn_read_chessjs(cn_pgn_input *in, cn_pgn_output *out) {
    cj p = {.s = in->text, .n = in->length, .out = out, .status = CN_OK};
    const size_t records = out->record_count, strings = out->string_length;
    int result = CN_PGN_RESULT_NONE, ok;
    emit(&p, CN_PGN_OP_GAME, 1, 1, 0);
    while (tag_pair(&p));
    space(&p);
    line(&p);
    space(&p);
    NAMED(&p, X_MARKER, marker(&p, &result));
    space(&p);
    if (p.i < p.n && !p.too_deep) expect(&p, p.i, X_END);
    if ((p.i < p.n || p.too_deep) && p.status == CN_OK) {
        out->record_count = records;
        out->string_length = strings;
        emit(&p, CN_PGN_OP_GAME, 1, 1, 0);
        if (p.too_deep) {
            const int32_t at = bytes(&p, too_deep_message, sizeof too_deep_message - 1);
            emit(&p, CN_PGN_OP_ERROR, at, (int32_t)sizeof too_deep_message - 1, 0);
            emit(&p, CN_PGN_OP_WHERE, 1, 1, 0);
        } else {
            syntax_error(&p);
        }
        result = CN_PGN_RESULT_NONE;
    }
    emit(&p, CN_PGN_OP_END, result, 0, 0);
    if (p.status == CN_OK) out->games++;
    in->consumed = in->length;
    return p.status;
}
