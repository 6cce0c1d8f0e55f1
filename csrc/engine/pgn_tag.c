/*
 * pgn_tag.c - the tag pair token: [Name "value"] on one line. A string
 * left open runs to the end of its line (flagged unterminated); a '[' line
 * of any other shape is a BAD_TAG token covering the rest of the line.
 */
#include <string.h>

#include "pgn_lexer.h"

static int is_name_byte(unsigned char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-' ||
           c == '+' || c == '#' || c == '=' || c == ':' || c == '/';
}

static size_t skip_blanks(const pgn_lexer *lx, size_t p) {
    while (p < lx->length && (lx->text[p] == ' ' || lx->text[p] == '\t')) p++;
    return p;
}

/* The closing quote of the string opening before p, or the line end. */
static size_t string_end(const pgn_lexer *lx, size_t p, size_t end, int *closed) {
    while (p < end) {
        const char c = lx->text[p];
        if (c == '"') {
            *closed = 1;
            return p;
        }
        p += c == '\\' && p + 1 < end ? 2 : 1;
    }
    *closed = 0;
    return end;
}

static void bad_tag(pgn_lexer *lx, pgn_token *tok, size_t end) {
    tok->kind = PGN_TOK_BAD_TAG;
    tok->length = end - tok->start;
    lx->pos = end;
}

void pgn_lex_tag(pgn_lexer *lx, pgn_token *tok) {
    const size_t end = pgn_lexer_line_end(lx, lx->pos);
    size_t p = skip_blanks(lx, lx->pos + 1);
    const size_t name_start = p;
    while (p < end && is_name_byte((unsigned char)lx->text[p])) p++;
    const size_t name_end = p;
    p = skip_blanks(lx, p);
    if (name_end == name_start || p >= end || lx->text[p] != '"') {
        bad_tag(lx, tok, end);
        return;
    }
    int closed = 0;
    const size_t value_end = string_end(lx, p + 1, end, &closed);
    tok->kind = PGN_TOK_TAG;
    tok->start = name_start;
    tok->length = name_end - name_start;
    tok->value_start = p + 1;
    tok->value_length = value_end - (p + 1);
    if (!closed) {
        while (tok->value_length && lx->text[tok->value_start + tok->value_length - 1] == '\r') tok->value_length--;
        tok->unterminated = 1;
        lx->pos = end;
        return;
    }
    p = skip_blanks(lx, value_end + 1);
    lx->pos = p < end && lx->text[p] == ']' ? p + 1 : p;
}
