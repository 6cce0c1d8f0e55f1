/*
 * fen.c - FEN and EPD in and out (X-FEN and Shredder-FEN castling rights).
 *
 * Parsing is most of the cost of `new Position(fen)`, so the board field is
 * read in one pass with few stores; errors name the field they are about.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "position.h"
#include "relaxed.h"
#include "sse2.h"
#include "text.h"
#include "zobrist.h"

static const char piece_letters[] = "pnbrqk";

/* Offset in cn_polyglot_random of the first square's key of each piece code. */
static const uint16_t piece_key_base[16] = {
#define KEY_BASE(color, type) [1 + ((color) << 3 | (type))] = CN_POLYGLOT_PIECE_INDEX(color, type, 0)
    KEY_BASE(CN_WHITE, CN_PAWN), KEY_BASE(CN_WHITE, CN_KNIGHT), KEY_BASE(CN_WHITE, CN_BISHOP),
    KEY_BASE(CN_WHITE, CN_ROOK), KEY_BASE(CN_WHITE, CN_QUEEN),  KEY_BASE(CN_WHITE, CN_KING),
    KEY_BASE(CN_BLACK, CN_PAWN), KEY_BASE(CN_BLACK, CN_KNIGHT), KEY_BASE(CN_BLACK, CN_BISHOP),
    KEY_BASE(CN_BLACK, CN_ROOK), KEY_BASE(CN_BLACK, CN_QUEEN),  KEY_BASE(CN_BLACK, CN_KING),
#undef KEY_BASE
};

const char *cn_fen_field_name(cn_fen_field field) {
    switch (field) {
    case CN_FEN_FIELD_COUNT:
        return "fields";
    case CN_FEN_FIELD_BOARD:
        return "board";
    case CN_FEN_FIELD_TURN:
        return "turn";
    case CN_FEN_FIELD_CASTLING:
        return "castling";
    case CN_FEN_FIELD_EN_PASSANT:
        return "enPassant";
    case CN_FEN_FIELD_HALFMOVE:
        return "halfmove";
    case CN_FEN_FIELD_FULLMOVE:
        return "fullmove";
    }
    return "fields";
}

/* --- parsing ------------------------------------------------------------------ */

typedef struct fen_token {
    const char *text;
    size_t length;
} fen_token;

/* The compilers check fen_fail's formats as printf's (MinGW names the C99
 * printf its stdio uses). */
#if defined(__MINGW32__)
__attribute__((format(__MINGW_PRINTF_FORMAT, 3, 4)))
#elif defined(__GNUC__) || defined(__clang__)
__attribute__((format(printf, 3, 4)))
#endif
static cn_status fen_fail(cn_fen_error *err, cn_fen_field field, const char *format, ...) {
    if (err) {
        va_list args;
        va_start(args, format);
        err->field = field;
        vsnprintf(err->message, sizeof err->message, format, args);
        va_end(args);
    }
    return CN_ERR_FEN;
}

/* A byte that is no part of what a field may hold: a printable one is shown
 * and told what is expected in full, any other described. */
static cn_status fail_on_byte(cn_fen_error *err, cn_fen_field field, const char *prefix, unsigned char c,
                              const char *expected_in_full, const char *expected) {
    if (c >= 0x20 && c < 0x7f) return fen_fail(err, field, "%s'%c' is not %s", prefix, c, expected_in_full);
    if (c >= 0x80) return fen_fail(err, field, "%sa non-ASCII character is not %s", prefix, expected);
    return fen_fail(err, field, "%sbyte 0x%02x is not %s", prefix, c, expected);
}

/* The token is exactly the one character c. */
static int token_is(const fen_token *t, char c) { return t->length == 1 && t->text[0] == c; }

/* Parses a decimal clock; -1 when not a plain non-negative number that fits. */
static int64_t parse_clock(const fen_token *t, uint64_t max) {
    if (t->length == 0 || t->length > 10) return -1;
    uint64_t value = 0;
    for (size_t i = 0; i < t->length; i++) {
        char c = t->text[i];
        if (c < '0' || c > '9') return -1;
        value = value * 10 + (uint64_t)(c - '0');
    }
    return value > max ? -1 : (int64_t)value;
}

/* What a board byte is to both board scans: a piece's code
 * (colour << 3 | type) + 1, a digit's value + BOARD_DIGIT, BOARD_SLASH, or 0
 * for anything else. */
enum { BOARD_DIGIT = 16, BOARD_SLASH = 32 };
static const uint8_t board_bytes[256] = {
    ['P'] = 1 + CN_PAWN,         ['N'] = 1 + CN_KNIGHT,     ['B'] = 1 + CN_BISHOP,      ['R'] = 1 + CN_ROOK,
    ['Q'] = 1 + CN_QUEEN,        ['K'] = 1 + CN_KING,       ['p'] = 1 + (8 | CN_PAWN),  ['n'] = 1 + (8 | CN_KNIGHT),
    ['b'] = 1 + (8 | CN_BISHOP), ['r'] = 1 + (8 | CN_ROOK), ['q'] = 1 + (8 | CN_QUEEN), ['k'] = 1 + (8 | CN_KING),
    ['1'] = BOARD_DIGIT + 1,     ['2'] = BOARD_DIGIT + 2,   ['3'] = BOARD_DIGIT + 3,    ['4'] = BOARD_DIGIT + 4,
    ['5'] = BOARD_DIGIT + 5,     ['6'] = BOARD_DIGIT + 6,   ['7'] = BOARD_DIGIT + 7,    ['8'] = BOARD_DIGIT + 8,
    ['/'] = BOARD_SLASH,
};

/* The men a board scan places, until read_board makes the position's
 * bitboards of them. With SSE2, each square's piece code (0 when empty; a1
 * first), gathered into bitboards 16 squares at a time (code_planes);
 * elsewhere (the wasm build, arm64) a bitboard per piece code, built as the
 * scan goes: cheaper there than gathering the codes without SIMD. */
typedef struct board_men {
#if CN_HAVE_SSE2
    uint8_t squares[64];
#else
    bitboard by_code[16];
#endif
} board_men;

static inline void place_man(board_men *men, unsigned code, unsigned square) {
#if CN_HAVE_SSE2
    men->squares[square] = (uint8_t)code;
#else
    men->by_code[code] |= bb_square(square);
#endif
}

/* Reads a well-formed board field at t->text (up to t->length bytes, ending
 * at whitespace or there) into *men and *pieces_key (the pieces' share of the key), and sets
 * t->length to the field's length. Returns 0 for any malformed field, whose
 * error scan_board_or_fail then finds. A rank's squares only grow, so one
 * test at its end replaces the per-square overflow tests; until then a
 * square may run past its rank, kept on the board by the mask. */
static int scan_board_fast(fen_token *t, board_men *men, uint64_t *pieces_key) {
    unsigned square = 56, rank_end = 64; /* the next square; one past the rank's last */
    unsigned previous_digit = 0;
    uint64_t key = 0;
    size_t i = 0;
    for (; i < t->length; i++) {
        const unsigned kind = board_bytes[(unsigned char)t->text[i]];
        if (kind - 1u < BOARD_DIGIT - 1u) {
            place_man(men, kind, square & 63u);
            key ^= cn_polyglot_random[piece_key_base[kind] + (square & 63u)];
            square++;
            previous_digit = 0;
        } else if (kind > BOARD_DIGIT && kind < BOARD_SLASH) {
            if (previous_digit) return 0;
            square += kind - BOARD_DIGIT;
            previous_digit = 1;
        } else if (kind == BOARD_SLASH) {
            if (square != rank_end || rank_end == 8) return 0;
            rank_end -= 8;
            square = rank_end - 8;
            previous_digit = 0;
        } else {
            break;
        }
    }
    if ((i < t->length && !cn_is_space(t->text[i])) || square != rank_end || rank_end != 8) return 0;
    t->length = i;
    *pieces_key = key;
    return 1;
}

/* As scan_board_fast, for any field: the error that names what is wrong
 * with a malformed one. */
static cn_status scan_board_or_fail(fen_token *t, board_men *men, uint64_t *pieces_key, cn_fen_error *err) {
    unsigned rank = 7, file = 0;
    int previous_digit = 0;
    uint64_t key = 0;
    for (size_t i = 0; i < t->length; i++) {
        const unsigned char c = (unsigned char)t->text[i];
        const unsigned kind = board_bytes[c];
        const unsigned code = kind < BOARD_DIGIT ? kind : 0;
        if (code) {
            if (file >= 8) return fen_fail(err, CN_FEN_FIELD_BOARD, "board: rank %u has more than 8 squares", rank + 1);
            place_man(men, code, make_square(file, rank));
            key ^= cn_polyglot_random[piece_key_base[code] + make_square(file, rank)];
            file++;
            previous_digit = 0;
        } else if (c >= '1' && c <= '8') {
            if (previous_digit)
                return fen_fail(err, CN_FEN_FIELD_BOARD, "board: two digits in a row in rank %u", rank + 1);
            file += (unsigned)(c - '0');
            previous_digit = 1;
            if (file > 8) return fen_fail(err, CN_FEN_FIELD_BOARD, "board: rank %u has more than 8 squares", rank + 1);
        } else if (c == '/') {
            if (file != 8)
                return fen_fail(err, CN_FEN_FIELD_BOARD, "board: rank %u has %u squares, expected 8", rank + 1, file);
            if (rank == 0) return fen_fail(err, CN_FEN_FIELD_BOARD, "board: more than 8 ranks");
            rank--;
            file = 0;
            previous_digit = 0;
        } else if (cn_is_space((char)c)) {
            t->length = i;
            break;
        } else {
            return fail_on_byte(err, CN_FEN_FIELD_BOARD, "board: ", c, "a piece letter (PNBRQK/pnbrqk) or digit",
                                "a piece letter or digit");
        }
    }
    if (file != 8)
        return fen_fail(err, CN_FEN_FIELD_BOARD, "board: rank %u has %u squares, expected 8", rank + 1, file);
    if (rank != 0) return fen_fail(err, CN_FEN_FIELD_BOARD, "board: %u ranks, expected 8", 8 - rank);
    *pieces_key = key;
    return CN_OK;
}

#if CN_HAVE_SSE2
/* The four bit planes of the squares' codes, as bitboards: shifting each
 * 16-bit lane left by 7 - j moves bit j of both its bytes to their top
 * bits, which movemask gathers, 16 squares at a time. */
static void code_planes(const uint8_t squares[64], bitboard planes[4]) {
    for (unsigned chunk = 0; chunk < 4; chunk++) {
        const __m128i codes = _mm_loadu_si128((const __m128i *)(const void *)(squares + 16 * chunk));
        const unsigned shift = 16 * chunk;
        planes[0] |= (bitboard)(unsigned)_mm_movemask_epi8(_mm_slli_epi16(codes, 7)) << shift;
        planes[1] |= (bitboard)(unsigned)_mm_movemask_epi8(_mm_slli_epi16(codes, 6)) << shift;
        planes[2] |= (bitboard)(unsigned)_mm_movemask_epi8(_mm_slli_epi16(codes, 5)) << shift;
        planes[3] |= (bitboard)(unsigned)_mm_movemask_epi8(_mm_slli_epi16(codes, 4)) << shift;
    }
}
#endif

/* The position's bitboards of the men. Piece codes hold type + 1 in bits
 * 0-2 and the colour in bit 3: with SSE2, the four bit planes of the codes
 * give every bitboard. */
static void set_bitboards(cn_position *p, const board_men *men) {
#if CN_HAVE_SSE2
    bitboard planes[4] = {0, 0, 0, 0};
    code_planes(men->squares, planes);
    const bitboard plane0 = planes[0], plane1 = planes[1], plane2 = planes[2], plane3 = planes[3];
    const bitboard occupied = plane0 | plane1 | plane2; /* type + 1 is never 0 */
    p->by_type[CN_PAWN] = ~plane2 & ~plane1 & plane0;   /* type + 1 = 1 */
    p->by_type[CN_KNIGHT] = ~plane2 & plane1 & ~plane0; /* 2 */
    p->by_type[CN_BISHOP] = ~plane2 & plane1 & plane0;  /* 3 */
    p->by_type[CN_ROOK] = plane2 & ~plane1 & ~plane0;   /* 4 */
    p->by_type[CN_QUEEN] = plane2 & ~plane1 & plane0;   /* 5 */
    p->by_type[CN_KING] = plane2 & plane1 & ~plane0;    /* 6 */
    p->by_color[CN_WHITE] = occupied & ~plane3;
    p->by_color[CN_BLACK] = plane3;
#else
    bitboard white = 0, black = 0;
    for (unsigned type = 0; type < 6; type++) {
        white |= men->by_code[1 + type];
        black |= men->by_code[1 + (8 | type)];
        p->by_type[type] = men->by_code[1 + type] | men->by_code[1 + (8 | type)];
    }
    p->by_color[CN_WHITE] = white;
    p->by_color[CN_BLACK] = black;
#endif
}

/* How many men each side has: with SSE2 both counts at once, the bytes'
 * counts summed by psadbw, for about half the instructions of two. */
static void count_men(const cn_position *p, int men[2]) {
#if CN_HAVE_SSE2
    const __m128i m1 = _mm_set1_epi8(0x55), m2 = _mm_set1_epi8(0x33), m4 = _mm_set1_epi8(0x0f);
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)p->by_color);
    v = _mm_sub_epi8(v, _mm_and_si128(_mm_srli_epi16(v, 1), m1));
    v = _mm_add_epi8(_mm_and_si128(v, m2), _mm_and_si128(_mm_srli_epi16(v, 2), m2));
    v = _mm_and_si128(_mm_add_epi8(v, _mm_srli_epi16(v, 4)), m4);
    const __m128i sums = _mm_sad_epu8(v, _mm_setzero_si128());
    men[CN_WHITE] = _mm_cvtsi128_si32(sums);
    men[CN_BLACK] = _mm_cvtsi128_si32(_mm_srli_si128(sums, 8));
#else
    men[CN_WHITE] = bb_popcount(p->by_color[CN_WHITE]);
    men[CN_BLACK] = bb_popcount(p->by_color[CN_BLACK]);
#endif
}

/* The board field's men: p's bitboards, and in p->key the pieces' share of
 * the key. */
static cn_status read_board(cn_position *p, fen_token *t, cn_fen_error *err) {
    board_men men;
    memset(&men, 0, sizeof men);
    if (!scan_board_fast(t, &men, &p->key)) {
        memset(&men, 0, sizeof men); /* what the fast scan placed before it gave up */
        const cn_status status = scan_board_or_fail(t, &men, &p->key, err);
        if (status != CN_OK) return status;
    }
    set_bitboards(p, &men);
    return CN_OK;
}

/* The board field: its men (read_board), one king and at most
 * CN_MAX_MEN_PER_SIDE men a side, no pawn on the first or last rank. */
static cn_status parse_board(cn_position *p, fen_token *t, cn_fen_error *err) {
    static const char *color_names[2] = {"white", "black"};
    const cn_status status = read_board(p, t, err);
    if (status != CN_OK) return status;
    int men_of[2];
    count_men(p, men_of);
    for (int color = 0; color < 2; color++) {
        const bitboard kings = p->by_type[CN_KING] & p->by_color[color];
        const int men = men_of[color];
        if (!kings || bb_more_than_one(kings))
            return fen_fail(err, CN_FEN_FIELD_BOARD, "board: %s has %d kings, expected 1", color_names[color],
                            bb_popcount(kings));
        if (men > CN_MAX_MEN_PER_SIDE)
            return fen_fail(err, CN_FEN_FIELD_BOARD, "board: %s has %d men, at most %d are possible",
                            color_names[color], men, CN_MAX_MEN_PER_SIDE);
    }
    if (p->by_type[CN_PAWN] & (CN_RANK_1 | CN_RANK_8))
        return fen_fail(err, CN_FEN_FIELD_BOARD, "board: a pawn stands on the first or last rank");
    return CN_OK;
}

static cn_status parse_turn(cn_position *p, const fen_token *t, cn_fen_error *err) {
    if (token_is(t, 'w'))
        p->side = CN_WHITE;
    else if (token_is(t, 'b'))
        p->side = CN_BLACK;
    else
        return fen_fail(err, CN_FEN_FIELD_TURN, "turn: expected 'w' or 'b'");
    if (cn_king_attacked(p, p->side ^ 1))
        return fen_fail(err, CN_FEN_FIELD_TURN, "turn: %s is in check but it is %s's move",
                        p->side == CN_WHITE ? "black" : "white", p->side == CN_WHITE ? "white" : "black");
    return CN_OK;
}

/* Outermost rook of `color` on the back rank on one side of the king, or -1. */
static int outermost_rook(const cn_position *p, int color, int queenside) {
    const unsigned back_rank = color == CN_WHITE ? 0u : 7u;
    const unsigned king_square = bb_lsb(p->by_type[CN_KING] & p->by_color[color]);
    if (square_rank(king_square) != back_rank) return -1;
    bitboard rooks = p->by_type[CN_ROOK] & p->by_color[color] & (CN_RANK_1 << (8 * back_rank));
    int found = -1;
    while (rooks) {
        const unsigned square = bb_pop_lsb(&rooks);
        if (queenside && square < king_square && found < 0) found = (int)square; /* lowest */
        if (!queenside && square > king_square) found = (int)square;             /* highest */
    }
    return found;
}

/* One letter of the castling field: K/Q/k/q (X-FEN: the outermost rook on
 * that side) or a rook's file A-H/a-h (Shredder-FEN). Sets the right's bit
 * index and the rook's square (-1 when there is no such rook). */
static cn_status parse_castling_letter(const cn_position *p, char c, unsigned *right, int *rook_square,
                                       cn_fen_error *err) {
    const int color = (c >= 'a' && c <= 'z') ? CN_BLACK : CN_WHITE;
    const char upper = (char)(color == CN_BLACK ? c - 'a' + 'A' : c);
    if (upper == 'K' || upper == 'Q') {
        *right = (unsigned)(2 * color + (upper == 'Q'));
        *rook_square = outermost_rook(p, color, upper == 'Q');
        return CN_OK;
    }
    if (upper < 'A' || upper > 'H')
        return fail_on_byte(err, CN_FEN_FIELD_CASTLING, "castling: ", (unsigned char)c,
                            "a castling right (KQkq or rook files A-H/a-h)", "a castling right");
    const unsigned file = (unsigned)(upper - 'A');
    const unsigned king_file = square_file(bb_lsb(p->by_type[CN_KING] & p->by_color[color]));
    if (file == king_file) return fen_fail(err, CN_FEN_FIELD_CASTLING, "castling: '%c' names the king's own file", c);
    *right = (unsigned)(2 * color + (file < king_file));
    *rook_square = (int)make_square(file, color == CN_WHITE ? 0u : 7u);
    return CN_OK;
}

static cn_status parse_castling(cn_position *p, const fen_token *t, cn_fen_error *err) {
    p->castling = 0;
    memset(p->castle_rook, CN_NO_SQUARE, sizeof p->castle_rook);
    if (token_is(t, '-')) return CN_OK;
    if (t->length == 0 || t->length > 4)
        return fen_fail(err, CN_FEN_FIELD_CASTLING, "castling: expected '-' or up to four of KQkq");
    unsigned seen = 0;
    for (size_t i = 0; i < t->length; i++) {
        unsigned right = 0;
        int rook_square = -1;
        const cn_status status = parse_castling_letter(p, t->text[i], &right, &rook_square, err);
        if (status != CN_OK) return status;
        if (seen & (1u << right))
            return fen_fail(err, CN_FEN_FIELD_CASTLING, "castling: right '%c' is given twice", t->text[i]);
        seen |= 1u << right;
        /* Rights that cannot apply are dropped, as the published suites expect. */
        if (rook_square >= 0 && cn_castling_right_applies(p, right, (unsigned)rook_square)) {
            p->castling |= (uint8_t)(1u << right);
            p->castle_rook[right] = (uint8_t)rook_square;
        }
    }
    return CN_OK;
}

/* The en-passant field's syntax, '-' or a square: *square gets the square,
 * or CN_NO_SQUARE for '-'. What the square must satisfy is the caller's. */
static cn_status read_en_passant(const fen_token *t, unsigned *square, cn_fen_error *err) {
    *square = CN_NO_SQUARE;
    if (token_is(t, '-')) return CN_OK;
    if (t->length != 2 || t->text[0] < 'a' || t->text[0] > 'h' || t->text[1] < '1' || t->text[1] > '8')
        return fen_fail(err, CN_FEN_FIELD_EN_PASSANT, "enPassant: expected '-' or a square such as e3");
    *square = make_square((unsigned)(t->text[0] - 'a'), (unsigned)(t->text[1] - '1'));
    return CN_OK;
}

static cn_status parse_en_passant(cn_position *p, const fen_token *t, cn_fen_error *err) {
    unsigned ep;
    p->ep_square = CN_NO_SQUARE;
    const cn_status status = read_en_passant(t, &ep, err);
    if (status != CN_OK || ep == CN_NO_SQUARE) return status;
    const char expected_rank = p->side == CN_WHITE ? '6' : '3';
    if (t->text[1] != expected_rank)
        return fen_fail(err, CN_FEN_FIELD_EN_PASSANT,
                        "enPassant: %.2s is on the wrong rank; with %s to move it must be on rank %c", t->text,
                        p->side == CN_WHITE ? "white" : "black", expected_rank);
    if (!cn_ep_square_consistent(p, ep))
        return fen_fail(err, CN_FEN_FIELD_EN_PASSANT, "enPassant: no pawn can just have moved two squares past %.2s",
                        t->text);
    /* Kept only when a pawn can capture, as Polyglot hashes it. */
    if (cn_pawn_attacks_square(p, p->side, ep)) p->ep_square = (uint8_t)ep;
    return CN_OK;
}

/* The two clocks of a 6-field FEN. The limits are those of the struct's
 * fields; make saturates at them, so every position it reaches writes a FEN
 * that parses. */
static cn_status parse_clocks(const fen_token t[2], uint16_t *halfmove, uint32_t *fullmove, cn_fen_error *err) {
    int64_t value = parse_clock(&t[0], UINT16_MAX);
    if (value < 0) return fen_fail(err, CN_FEN_FIELD_HALFMOVE, "halfmove: expected a whole number from 0 to 65535");
    *halfmove = (uint16_t)value;
    value = parse_clock(&t[1], UINT32_MAX);
    if (value < 1)
        return fen_fail(err, CN_FEN_FIELD_FULLMOVE, "fullmove: expected a whole number from 1 to 4294967295");
    *fullmove = (uint32_t)value;
    return CN_OK;
}

/* Splits fen[i, len) at whitespace into tokens[*count], tokens[*count + 1],
 * ...; 0 when that makes more than 6 fields. */
static int split_fields(const char *fen, size_t len, size_t i, fen_token tokens[6], size_t *count) {
    size_t n = *count; /* a local: stores through tokens would make *count be read again */
    while (i < len) {
        if (cn_is_space(fen[i])) {
            i++;
            continue;
        }
        const size_t start = i;
        do i++;
        while (i < len && !cn_is_space(fen[i]));
        if (n == 6) {
            *count = n;
            return 0;
        }
        tokens[n].text = fen + start;
        tokens[n].length = i - start;
        n++;
    }
    *count = n;
    return 1;
}

/* The error for a FEN whose field count is wrong, or CN_OK. */
static cn_status check_field_count(int split, size_t count, cn_fen_error *err) {
    if (!split) return fen_fail(err, CN_FEN_FIELD_COUNT, "fields: more than 6 fields");
    if (count != 4 && count != 6)
        return fen_fail(err, CN_FEN_FIELD_COUNT, "fields: %zu fields, expected 6 (FEN) or 4 (EPD)", count);
    return CN_OK;
}

/* The board field, then the split into fields. parse_board finds the end of
 * the board field itself (one pass over its characters); a wrong number of
 * fields is still the error reported first, as if the FEN had been split
 * before anything was parsed. */
static cn_status parse_board_and_split(cn_position *p, const char *fen, size_t len, fen_token tokens[6], size_t *count,
                                       cn_fen_error *err) {
    size_t i = 0;
    while (i < len && cn_is_space(fen[i])) i++;
    tokens[0].text = fen + i;
    tokens[0].length = len - i;
    const cn_status status = parse_board(p, &tokens[0], err);
    if (status != CN_OK) {
        *count = 0;
        const int split = split_fields(fen, len, 0, tokens, count);
        return check_field_count(split, *count, err) != CN_OK ? CN_ERR_FEN : status;
    }
    *count = 1; /* an empty board field fails above */
    const int split = split_fields(fen, len, i + tokens[0].length, tokens, count);
    return check_field_count(split, *count, err);
}

cn_status cn_fen_parse(cn_position *out, const char *fen, size_t len, int chess960, cn_fen_error *err) {
    fen_token tokens[6];
    size_t count;
    cn_status status;
    if (fen == NULL) return fen_fail(err, CN_FEN_FIELD_COUNT, "fields: empty FEN");
    /* Every field is set below; not a memset of the whole struct, which GCC
     * turns into a rep stos that is slow to start. */
    cn_position p;
    memset(p.reserved, 0, sizeof p.reserved);
    p.relaxed = 0;
    p.relaxed_king[CN_WHITE] = p.relaxed_king[CN_BLACK] = 0;
    p.chess960 = chess960 ? 1 : 0;
    p.halfmove = 0; /* the clocks and key are final in *out only */
    p.fullmove = 1;
    if ((status = parse_board_and_split(&p, fen, len, tokens, &count, err)) != CN_OK) return status;
    if ((status = parse_turn(&p, &tokens[1], err)) != CN_OK) return status;
    if ((status = parse_castling(&p, &tokens[2], err)) != CN_OK) return status;
    if ((status = parse_en_passant(&p, &tokens[3], err)) != CN_OK) return status;
    uint16_t halfmove = 0;
    uint32_t fullmove = 1;
    if (count == 6 && (status = parse_clocks(&tokens[4], &halfmove, &fullmove, err)) != CN_OK) return status;
    const uint64_t key = p.key ^ cn_state_key(&p); /* parse_board left the pieces' share */
    /* The last fields go straight to *out: stored into p just before the
     * copy, they would stall its wide loads. */
    *out = p;
    out->key = key;
    out->halfmove = halfmove;
    out->fullmove = fullmove;
    return CN_OK;
}

/* --- relaxed positions ---------------------------------------------------------- */

/* Each side's king square: a king of the side on the board stands there. */
static cn_status place_relaxed_kings(cn_position *p, const unsigned kings[2], cn_fen_error *err) {
    static const char *color_names[2] = {"white", "black"};
    for (int color = 0; color < 2; color++) {
        if (kings[color] > CN_NO_SQUARE)
            return fen_fail(err, CN_FEN_FIELD_BOARD, "board: %s's king square %u is not 0..64", color_names[color],
                            kings[color]);
        const bitboard allowed = kings[color] < 64 ? bb_square(kings[color]) : 0;
        if (p->by_type[CN_KING] & p->by_color[color] & ~allowed)
            return fen_fail(err, CN_FEN_FIELD_BOARD, "board: a %s king stands off its king square", color_names[color]);
        p->relaxed_king[color] = (uint8_t)kings[color];
    }
    return CN_OK;
}

/* '-' or each of KQkq at most once, in any order. */
static cn_status parse_relaxed_castling(cn_position *p, const fen_token *t, cn_fen_error *err) {
    static const char letters[4] = {'K', 'Q', 'k', 'q'}; /* by right bit */
    p->castling = 0;
    memset(p->castle_rook, CN_NO_SQUARE, sizeof p->castle_rook);
    if (token_is(t, '-')) return CN_OK;
    if (t->length == 0 || t->length > 4) return fen_fail(err, CN_FEN_FIELD_CASTLING, "castling: expected '-' or KQkq");
    for (size_t i = 0; i < t->length; i++) {
        const char *letter = memchr(letters, t->text[i], sizeof letters);
        if (!letter)
            return fail_on_byte(err, CN_FEN_FIELD_CASTLING, "castling: ", (unsigned char)t->text[i],
                                "a castling right (KQkq)", "a castling right");
        const uint8_t bit = (uint8_t)(1u << (letter - letters));
        if (p->castling & bit)
            return fen_fail(err, CN_FEN_FIELD_CASTLING, "castling: right '%c' is given twice", t->text[i]);
        p->castling |= bit;
    }
    return CN_OK;
}

/* '-' or any square: kept as given. */
static cn_status parse_relaxed_en_passant(cn_position *p, const fen_token *t, cn_fen_error *err) {
    unsigned ep;
    const cn_status status = read_en_passant(t, &ep, err);
    p->ep_square = (uint8_t)ep;
    return status;
}

static cn_status parse_relaxed_turn(cn_position *p, const fen_token *t, cn_fen_error *err) {
    if (!token_is(t, 'w') && !token_is(t, 'b')) return fen_fail(err, CN_FEN_FIELD_TURN, "turn: expected 'w' or 'b'");
    p->side = token_is(t, 'w') ? CN_WHITE : CN_BLACK;
    return CN_OK;
}

cn_status cn_fen_parse_relaxed(cn_position *out, const char *fen, size_t len, unsigned white_king, unsigned black_king,
                               cn_fen_error *err) {
    fen_token tokens[6];
    size_t count = 0;
    cn_status status;
    const unsigned kings[2] = {white_king, black_king};
    if (fen == NULL) return fen_fail(err, CN_FEN_FIELD_COUNT, "fields: empty FEN");
    const int split = split_fields(fen, len, 0, tokens, &count);
    if ((status = check_field_count(split, count, err)) != CN_OK) return status;
    cn_position p;
    memset(&p, 0, sizeof p);
    p.relaxed = 1;
    p.fullmove = 1;
    const size_t board_length = tokens[0].length;
    if ((status = read_board(&p, &tokens[0], err)) != CN_OK) return status;
    if (tokens[0].length != board_length)
        return fen_fail(err, CN_FEN_FIELD_BOARD, "board: expected 8 ranks of 8 squares");
    if ((status = place_relaxed_kings(&p, kings, err)) != CN_OK) return status;
    if ((status = parse_relaxed_turn(&p, &tokens[1], err)) != CN_OK) return status;
    if ((status = parse_relaxed_castling(&p, &tokens[2], err)) != CN_OK) return status;
    if ((status = parse_relaxed_en_passant(&p, &tokens[3], err)) != CN_OK) return status;
    if (count == 6 && (status = parse_clocks(&tokens[4], &p.halfmove, &p.fullmove, err)) != CN_OK) return status;
    p.key ^= cn_state_key(&p);
    *out = p;
    return CN_OK;
}

/* --- output ------------------------------------------------------------------- */

/* Appends a decimal number; returns the new length. */
static size_t append_number(char *out, size_t n, uint32_t value) {
    char digits[10];
    int count = 0;
    do {
        digits[count++] = (char)('0' + value % 10);
        value /= 10;
    } while (value);
    while (count) out[n++] = digits[--count];
    return n;
}

/* Appends the board field; returns the new length. */
static size_t append_board(const cn_position *p, char *fen, size_t n) {
    char squares[64];
    memset(squares, 0, sizeof squares);
    for (int color = 0; color < 2; color++)
        for (int type = CN_PAWN; type <= CN_KING; type++) {
            bitboard b = p->by_type[type] & p->by_color[color];
            char letter = color == CN_WHITE ? (char)(piece_letters[type] - 'a' + 'A') : piece_letters[type];
            while (b) squares[bb_pop_lsb(&b)] = letter;
        }
    for (int rank = 7; rank >= 0; rank--) {
        int empty = 0;
        for (unsigned file = 0; file < 8; file++) {
            char letter = squares[make_square(file, (unsigned)rank)];
            if (!letter) {
                empty++;
                continue;
            }
            if (empty) fen[n++] = (char)('0' + empty);
            empty = 0;
            fen[n++] = letter;
        }
        if (empty) fen[n++] = (char)('0' + empty);
        if (rank) fen[n++] = '/';
    }
    return n;
}

/* Appends the castling field: the X-FEN letter when the rook is the
 * outermost one on its side (a relaxed position's rights are letters
 * only), otherwise the rook's file (Shredder-FEN). */
static size_t append_castling(const cn_position *p, char *fen, size_t n) {
    static const char standard_letters[4] = {'K', 'Q', 'k', 'q'};
    if (!p->castling) {
        fen[n++] = '-';
        return n;
    }
    for (unsigned right = 0; right < 4; right++) {
        if (!(p->castling & (1u << right))) continue;
        char letter = standard_letters[right];
        if (!p->relaxed &&
            outermost_rook(p, cn_right_color(right), cn_right_queenside(right)) != p->castle_rook[right]) {
            letter = (char)('A' + square_file(p->castle_rook[right]));
            if (cn_right_color(right) == CN_BLACK) letter = (char)(letter - 'A' + 'a');
        }
        fen[n++] = letter;
    }
    return n;
}

/* The four position fields of the FEN into fen; returns their length. */
static size_t append_epd(const cn_position *p, char *fen) {
    size_t n = append_board(p, fen, 0);
    fen[n++] = ' ';
    fen[n++] = p->side == CN_WHITE ? 'w' : 'b';
    fen[n++] = ' ';
    n = append_castling(p, fen, n);
    fen[n++] = ' ';
    if (p->relaxed ? cn_relaxed_ep_shown(p) : cn_ep_capture_legal(p)) {
        fen[n++] = (char)('a' + square_file(p->ep_square));
        fen[n++] = (char)('1' + square_rank(p->ep_square));
    } else {
        fen[n++] = '-';
    }
    return n;
}

/* Copies fen[0, n) with a NUL into buf, cut to cap; returns n. */
static size_t copy_out(const char *fen, size_t n, char *buf, size_t cap) {
    if (cap == 0) return n;
    size_t copy = n < cap - 1 ? n : cap - 1;
    memcpy(buf, fen, copy);
    buf[copy] = 0;
    return n;
}

size_t cn_fen_write(const cn_position *p, char *buf, size_t cap) {
    char fen[CN_FEN_WRITE_MAX];
    size_t n = append_epd(p, fen);
    fen[n++] = ' ';
    n = append_number(fen, n, p->halfmove);
    fen[n++] = ' ';
    n = append_number(fen, n, p->fullmove);
    return copy_out(fen, n, buf, cap);
}

size_t cn_epd_write(const cn_position *p, char *buf, size_t cap) {
    char fen[CN_FEN_WRITE_MAX];
    return copy_out(fen, append_epd(p, fen), buf, cap);
}
