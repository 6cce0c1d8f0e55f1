/*
 * pgn_utf8.c - UTF-8 validation of the text a game keeps (tag values and
 * comments), one string at a time, with an error at the first bad byte.
 */
#include <string.h>

#include "pgn_reader.h"

/* The offset of the first byte of s[0..n) that is not UTF-8 as RFC 3629
 * defines it, or n. The second byte's range rules out overlong forms (C0,
 * C1; E0 80..9F; F0 80..8F), UTF-16 surrogates (ED A0..BF: U+D800..U+DFFF)
 * and code points above U+10FFFF (F4 90..BF; F5..FF lead nothing). */
static size_t invalid_utf8_at(const unsigned char *s, size_t n) {
    size_t i = 0;
    while (i < n) {
        /* Eight ASCII bytes at a time: most PGN text is ASCII. */
        uint64_t word;
        while (n - i >= sizeof word) {
            memcpy(&word, s + i, sizeof word);
            if (word & 0x8080808080808080u) break;
            i += sizeof word;
        }
        if (i == n) break;
        const unsigned c = s[i];
        if (c < 0x80) {
            i++;
            continue;
        }
        size_t extra;
        unsigned low = 0x80, high = 0xBF; /* the second byte's range */
        if (c >= 0xC2 && c <= 0xDF) {
            extra = 1;
        } else if (c >= 0xE0 && c <= 0xEF) {
            extra = 2;
            low = c == 0xE0 ? 0xA0 : low;
            high = c == 0xED ? 0x9F : high;
        } else if (c >= 0xF0 && c <= 0xF4) {
            extra = 3;
            low = c == 0xF0 ? 0x90 : low;
            high = c == 0xF4 ? 0x8F : high;
        } else {
            return i;
        }
        if (n - i <= extra || s[i + 1] < low || s[i + 1] > high) return i;
        for (size_t k = 2; k <= extra; k++)
            if ((s[i + k] & 0xC0) != 0x80) return i;
        i += extra + 1;
    }
    return n;
}

void pgn_check_utf8_slow(pgn_reader *r, const pgn_token *tok, size_t start, size_t length) {
    const char *text = r->lx.text;
    const size_t bad = start + invalid_utf8_at((const unsigned char *)text + start, length);
    if (bad == start + length) return;
    /* Line and byte column of the bad byte, counted on from the token's
     * first byte with the lexer's line ends; pgn_error turns the byte
     * column into characters. The bad byte is no line end, nor the LF of
     * a CRLF. */
    pgn_token at = *tok;
    size_t p = tok->begin;
    for (const char *nl; (nl = pgn_next_line_end(text + p, bad - p)) != NULL;) {
        p = (size_t)(nl - text) + 1;
        if (*nl == '\r' && p < bad && text[p] == '\n') p++;
        at.line++;
        at.column = 1;
    }
    at.column += (uint32_t)(bad - p);
    at.begin = bad;
    pgn_error(r, &at, 0, "invalid UTF-8");
}
