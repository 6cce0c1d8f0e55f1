/*
 * pgn_setup.c - a game's start position from its FEN and Variant tags.
 * Chess960 comes from the Variant tag, from Shredder/X-FEN castling
 * letters, or from castling rights whose king or rook stand off the
 * standard squares.
 */
#include <stdio.h>
#include <string.h>

#include "pgn_reader.h"

static int lower(char c) { return c >= 'A' && c <= 'Z' ? c + 32 : c; }

static int equals_lower(const char *s, size_t n, const char *word) {
    if (strlen(word) != n) return 0;
    for (size_t i = 0; i < n; i++)
        if (lower(s[i]) != word[i]) return 0;
    return 1;
}

static int variant_of(const char *s, size_t n) {
    static const char *const standard[] = {"", "standard", "from position", "fromposition", "normal", "chess"};
    static const char *const c960[] = {"chess960",       "chess 960",      "960",           "fischerandom",
                                       "fischer random", "fischer-random", "fischerrandom", "chess960/fischerandom"};
    for (size_t i = 0; i < sizeof standard / sizeof *standard; i++)
        if (equals_lower(s, n, standard[i])) return 0;
    for (size_t i = 0; i < sizeof c960 / sizeof *c960; i++)
        if (equals_lower(s, n, c960[i])) return 1;
    return 2;
}

void pgn_setup_tag(pgn_reader *r, const pgn_token *tok, int32_t value_offset, int32_t value_length) {
    const char *name = r->lx.text + tok->start;
    uint32_t *at = NULL;
    if (tok->length == 3 && !memcmp(name, "FEN", 3)) {
        r->fen_offset = value_offset;
        r->fen_length = value_length;
        r->has_fen = 1;
        at = r->fen_at;
    } else if (tok->length == 7 && !memcmp(name, "Variant", 7)) {
        r->variant = variant_of(r->out->strings + value_offset, (size_t)value_length);
        at = r->variant_at;
    }
    if (!at) return;
    at[0] = tok->line; /* errors about the tag point at it */
    at[1] = pgn_lexer_char_column(&r->lx, tok);
}

/* Castling letters other than KQkq (Shredder-FEN, X-FEN file letters). */
static int has_file_castling(const char *fen, size_t n) {
    int field = 0;
    for (size_t i = 0; i < n; i++) {
        if (fen[i] == ' ') {
            field += i == 0 || fen[i - 1] != ' ';
        } else if (field == 2 && fen[i] != '-' && !strchr("KQkq", fen[i])) {
            return 1;
        }
    }
    return 0;
}

/* Castling rights whose king or rook stand off e1/e8, a/h. */
static int needs_chess960(const cn_position *pos) {
    static const uint8_t standard_rook[4] = {7, 0, 63, 56};
    static const uint8_t king_square[2] = {4, 60};
    for (int i = 0; i < 4; i++) {
        if (!(pos->castling & (1u << i))) continue;
        int color = 0;
        if (pos->castle_rook[i] != standard_rook[i] || cn_piece_on(pos, king_square[i / 2], &color) != CN_KING)
            return 1;
    }
    return 0;
}

/* Parses the FEN tag into *pos; returns 0 (error written) when it is bad,
 * empty included: python-chess and chess.js reject an empty FEN too. */
static int parse_fen(pgn_reader *r, cn_position *pos, int *chess960) {
    const char *fen = r->out->strings + r->fen_offset;
    const size_t n = (size_t)r->fen_length;
    cn_fen_error err;
    *chess960 = r->variant == 1 || has_file_castling(fen, n);
    if (cn_fen_parse(pos, fen, n, *chess960, &err) == CN_OK) {
        if (!*chess960 && needs_chess960(pos)) {
            *chess960 = 1;
            return cn_fen_parse(pos, fen, n, 1, &err) == CN_OK;
        }
        return 1;
    }
    if (!*chess960 && cn_fen_parse(pos, fen, n, 1, &err) == CN_OK) {
        *chess960 = 1;
        return 1;
    }
    char message[160];
    snprintf(message, sizeof message, "bad FEN tag: %s", err.message);
    pgn_error_at(r, r->fen_at[0], r->fen_at[1], 0, message);
    return 0;
}

const cn_position *pgn_standard_start(pgn_reader *r, int chess960) {
    if (!(r->standard_parsed >> chess960 & 1)) {
        cn_fen_parse(&r->standard[chess960], "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 56, chess960,
                     NULL);
        r->standard_parsed |= 1 << chess960;
    }
    return &r->standard[chess960];
}

void pgn_setup_start(pgn_reader *r) {
    pgn_line *main = &r->lines[0];
    int chess960 = r->variant == 1, bad = 0;
    main->live = 1;
    main->pos = *pgn_standard_start(r, chess960);
    if (r->has_fen && !parse_fen(r, &main->pos, &chess960)) {
        bad = 1;
        main->live = 0;
    }
    if (r->variant == 2) {
        pgn_error_at(r, r->variant_at[0], r->variant_at[1], 0, "unsupported variant");
        main->live = 0;
    }
    main->has_move = 0;
    main->repeated_opens = 0;
    main->ply = 0;
    main->check = -1;
    main->active = 1;
    r->movetext = 1;
    pgn_emit(r, CN_PGN_OP_START, r->fen_length > 0 ? r->fen_offset : 0, r->fen_length,
             (chess960 ? CN_PGN_START_CHESS960 : 0) | (bad ? CN_PGN_START_BAD_FEN : 0));
}
