/*
 * position.c - position state: FEN in and out, validation, the Polyglot
 * key, and make/unmake with an undo record.
 *
 * None of this is on perft's hot path (that uses the copy-make in
 * movegen_impl.h), so most of it favours plain code over speed. FEN parsing
 * is the exception: it is most of the cost of `new Position(fen)`.
 */
#include <stdio.h>
#include <string.h>

#include "include/chess_native.h"
#include "slider_attacks.h"
#include "text.h"
#include "zobrist.h"

#define MAX_MEN_PER_SIDE 16

/* Every byte of the struct is a field: positions compare with memcmp and
 * cross to JS as exactly these bytes. */
_Static_assert(sizeof(cn_position) == 96, "cn_position must be 96 bytes without padding");

static const char piece_letters[] = "pnbrqk";

/* FEN piece letter -> (colour << 3 | type) + 1, 0 for anything else. */
static const int8_t piece_codes[256] = {
    ['P'] = 1 + CN_PAWN,       ['N'] = 1 + CN_KNIGHT,     ['B'] = 1 + CN_BISHOP,     ['R'] = 1 + CN_ROOK,
    ['Q'] = 1 + CN_QUEEN,      ['K'] = 1 + CN_KING,       ['p'] = 1 + (8 | CN_PAWN), ['n'] = 1 + (8 | CN_KNIGHT),
    ['b'] = 1 + (8 | CN_BISHOP), ['r'] = 1 + (8 | CN_ROOK), ['q'] = 1 + (8 | CN_QUEEN), ['k'] = 1 + (8 | CN_KING),
};

/* --- small helpers ---------------------------------------------------------- */

static int color_of_square(const cn_position *p, bitboard b) { return (p->by_color[CN_BLACK] & b) ? CN_BLACK : CN_WHITE; }

static int type_of_square(const cn_position *p, bitboard b) {
    for (int type = CN_PAWN; type <= CN_KING; type++)
        if (p->by_type[type] & b) return type;
    return -1;
}

int cn_piece_on(const cn_position *pos, unsigned square, int *color) {
    if (square >= 64) return -1;
    bitboard b = bb_square(square);
    int type = type_of_square(pos, b);
    if (type >= 0 && color) *color = color_of_square(pos, b);
    return type;
}

static int king_attacked(const cn_position *p, int color) {
    bitboard king = p->by_type[CN_KING] & p->by_color[color];
    if (!king) return 0;
    return attackers_to(p, bb_lsb(king), p->by_color[0] | p->by_color[1], color ^ 1) != 0;
}

int cn_in_check(const cn_position *pos) { return king_attacked(pos, pos->side); }

/* A pawn of the side to move attacks the square (pseudo-legal en passant):
 * the Polyglot rule for when the en-passant square counts. */
static int ep_capturable(const cn_position *p, unsigned ep) {
    return (cn_pawn_attacks[p->side ^ 1][ep] & p->by_type[CN_PAWN] & p->by_color[p->side]) != 0;
}

/* The key's share from castling rights, en passant and the side to move. */
static uint64_t state_key(const cn_position *p) {
    uint64_t key = 0;
    for (unsigned right = 0; right < 4; right++)
        if (p->castling & (1u << right)) key ^= cn_polyglot_castling_key(right);
    if (p->ep_square != CN_NO_SQUARE) key ^= cn_polyglot_ep_key(p->ep_square);
    if (p->side == CN_WHITE) key ^= cn_polyglot_random[CN_POLYGLOT_TURN];
    return key;
}

uint64_t cn_position_compute_key(const cn_position *p) {
    uint64_t key = state_key(p);
    for (int color = 0; color < 2; color++)
        for (int type = CN_PAWN; type <= CN_KING; type++) {
            bitboard b = p->by_type[type] & p->by_color[color];
            while (b) key ^= cn_polyglot_piece_key(color, type, bb_pop_lsb(&b));
        }
    return key;
}

/* --- validation -------------------------------------------------------------- */

/* Castling right bit i: its colour and whether it is queenside. */
static int right_color(unsigned right) { return right >= 2 ? CN_BLACK : CN_WHITE; }
static int right_queenside(unsigned right) { return (int)(right & 1u); }

/* Does the right still make sense on this board? King and rook of the
 * right colour on the back rank, the rook on the right's side of the king. */
static int castling_right_applies(const cn_position *p, unsigned right, unsigned rook_square) {
    int color = right_color(right);
    unsigned back_rank = color == CN_WHITE ? 0u : 7u;
    bitboard own = p->by_color[color];
    bitboard king = p->by_type[CN_KING] & own;
    if (rook_square >= 64 || !king) return 0;
    unsigned king_square = bb_lsb(king);
    if (square_rank(king_square) != back_rank || square_rank(rook_square) != back_rank) return 0;
    if (!(p->by_type[CN_ROOK] & own & bb_square(rook_square))) return 0;
    if (right_queenside(right) ? rook_square >= king_square : rook_square <= king_square) return 0;
    return 1;
}

/* An en-passant square is consistent: right rank for the side to move, the
 * pawn that just moved two squares in front of it, its path empty. */
static int ep_square_consistent(const cn_position *p, unsigned ep) {
    if (ep >= 64) return 0;
    int mover = p->side ^ 1;
    if (square_rank(ep) != (p->side == CN_WHITE ? 5u : 2u)) return 0;
    unsigned pawn_square = p->side == CN_WHITE ? ep - 8 : ep + 8;
    unsigned origin = p->side == CN_WHITE ? ep + 8 : ep - 8;
    bitboard occupied = p->by_color[0] | p->by_color[1];
    if (!(p->by_type[CN_PAWN] & p->by_color[mover] & bb_square(pawn_square))) return 0;
    if (occupied & (bb_square(ep) | bb_square(origin))) return 0;
    return 1;
}

cn_status cn_position_validate(const cn_position *p) {
    if (p->side > 1 || p->chess960 > 1 || p->castling > 15 || p->fullmove < 1) return CN_ERR_BAD_POSITION;
    for (size_t i = 0; i < sizeof p->reserved; i++)
        if (p->reserved[i]) return CN_ERR_BAD_POSITION;
    const bitboard white = p->by_color[CN_WHITE], black = p->by_color[CN_BLACK];
    if (white & black) return CN_ERR_BAD_POSITION;
    bitboard seen = 0;
    for (int type = CN_PAWN; type <= CN_KING; type++) {
        if (p->by_type[type] & seen) return CN_ERR_BAD_POSITION;
        seen |= p->by_type[type];
    }
    if (seen != (white | black)) return CN_ERR_BAD_POSITION;
    for (int color = 0; color < 2; color++) {
        bitboard kings = p->by_type[CN_KING] & p->by_color[color];
        if (!kings || bb_more_than_one(kings)) return CN_ERR_BAD_POSITION;
        if (bb_popcount(p->by_color[color]) > MAX_MEN_PER_SIDE) return CN_ERR_BAD_POSITION;
    }
    if (p->by_type[CN_PAWN] & (CN_RANK_1 | CN_RANK_8)) return CN_ERR_BAD_POSITION;
    if (p->ep_square != CN_NO_SQUARE && (!ep_square_consistent(p, p->ep_square) || !ep_capturable(p, p->ep_square)))
        return CN_ERR_BAD_POSITION;
    for (unsigned right = 0; right < 4; right++) {
        if (!(p->castling & (1u << right))) {
            if (p->castle_rook[right] != CN_NO_SQUARE) return CN_ERR_BAD_POSITION;
        } else if (!castling_right_applies(p, right, p->castle_rook[right])) {
            return CN_ERR_BAD_POSITION;
        }
    }
    if (king_attacked(p, p->side ^ 1)) return CN_ERR_BAD_POSITION;
    return CN_OK;
}

/* --- FEN parsing ------------------------------------------------------------- */

const char *cn_fen_field_name(cn_fen_field field) {
    switch (field) {
    case CN_FEN_FIELD_COUNT: return "fields";
    case CN_FEN_FIELD_BOARD: return "board";
    case CN_FEN_FIELD_TURN: return "turn";
    case CN_FEN_FIELD_CASTLING: return "castling";
    case CN_FEN_FIELD_EN_PASSANT: return "enPassant";
    case CN_FEN_FIELD_HALFMOVE: return "halfmove";
    case CN_FEN_FIELD_FULLMOVE: return "fullmove";
    }
    return "fields";
}

typedef struct fen_token {
    const char *text;
    size_t length;
} fen_token;

static cn_status fen_fail(cn_fen_error *err, cn_fen_field field, const char *message) {
    if (err) {
        err->field = field;
        snprintf(err->message, sizeof err->message, "%s", message);
    }
    return CN_ERR_FEN;
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

/* Bit j of each of the 8 bytes of `word` (byte i at bits 8i..8i+7) as bit i
 * of the result: the multiply moves byte i's bit to bit 56 + i, and no two
 * partial products meet at or above bit 56. */
static inline uint64_t byte_bits(uint64_t word, unsigned j) {
    return (((word >> j) & 0x0101010101010101ULL) * 0x0102040810204080ULL) >> 56;
}

/* Offset in cn_polyglot_random of the first square's key of each piece code. */
static const uint16_t piece_key_base[16] = {
#define KEY_BASE(color, type) [1 + ((color) << 3 | (type))] = CN_POLYGLOT_PIECE_INDEX(color, type, 0)
    KEY_BASE(CN_WHITE, CN_PAWN), KEY_BASE(CN_WHITE, CN_KNIGHT), KEY_BASE(CN_WHITE, CN_BISHOP),
    KEY_BASE(CN_WHITE, CN_ROOK), KEY_BASE(CN_WHITE, CN_QUEEN),  KEY_BASE(CN_WHITE, CN_KING),
    KEY_BASE(CN_BLACK, CN_PAWN), KEY_BASE(CN_BLACK, CN_KNIGHT), KEY_BASE(CN_BLACK, CN_BISHOP),
    KEY_BASE(CN_BLACK, CN_ROOK), KEY_BASE(CN_BLACK, CN_QUEEN),  KEY_BASE(CN_BLACK, CN_KING),
#undef KEY_BASE
};

/* Parses the board field at t->text: up to t->length bytes, stopping at a
 * field separator; t->length becomes the field's length. */
static cn_status parse_board(cn_position *p, fen_token *t, cn_fen_error *err) {
    char message[120];
    unsigned rank = 7, file = 0;
    int previous_digit = 0;
    /* Each rank's piece codes as the bytes of one word (file a lowest),
     * turned into bitboards after the loop: or-ing each piece into an array
     * of bitboards by code made every run of one piece ("PPPPPPPP") a chain
     * of read-modify-writes through memory. */
    uint64_t rows[8] = {0}, row = 0;
    uint64_t pieces_key = 0;
    for (size_t i = 0; i < t->length; i++) {
        const unsigned char c = (unsigned char)t->text[i];
        const int code = piece_codes[c];
        if (code) {
            if (file >= 8) {
                snprintf(message, sizeof message, "board: rank %u has more than 8 squares", rank + 1);
                return fen_fail(err, CN_FEN_FIELD_BOARD, message);
            }
            row |= (uint64_t)code << (8 * file);
            /* The pieces' share of the key, while the square is at hand. */
            pieces_key ^= cn_polyglot_random[piece_key_base[code] + make_square(file, rank)];
            file++;
            previous_digit = 0;
        } else if (c >= '1' && c <= '8') {
            if (previous_digit) {
                snprintf(message, sizeof message, "board: two digits in a row in rank %u", rank + 1);
                return fen_fail(err, CN_FEN_FIELD_BOARD, message);
            }
            file += (unsigned)(c - '0');
            previous_digit = 1;
            if (file > 8) {
                snprintf(message, sizeof message, "board: rank %u has more than 8 squares", rank + 1);
                return fen_fail(err, CN_FEN_FIELD_BOARD, message);
            }
        } else if (c == '/') {
            if (file != 8) {
                snprintf(message, sizeof message, "board: rank %u has %u squares, expected 8", rank + 1, file);
                return fen_fail(err, CN_FEN_FIELD_BOARD, message);
            }
            if (rank == 0) return fen_fail(err, CN_FEN_FIELD_BOARD, "board: more than 8 ranks");
            rows[rank--] = row;
            row = 0;
            file = 0;
            previous_digit = 0;
        } else if (cn_is_space((char)c)) {
            t->length = i;
            break;
        } else {
            if (c >= 0x20 && c < 0x7f)
                snprintf(message, sizeof message, "board: '%c' is not a piece letter (PNBRQK/pnbrqk) or digit", c);
            else
                snprintf(message, sizeof message, c >= 0x80 ? "board: a non-ASCII character is not a piece letter or digit"
                                                            : "board: byte 0x%02x is not a piece letter or digit", c);
            return fen_fail(err, CN_FEN_FIELD_BOARD, message);
        }
    }
    if (file != 8) {
        snprintf(message, sizeof message, "board: rank %u has %u squares, expected 8", rank + 1, file);
        return fen_fail(err, CN_FEN_FIELD_BOARD, message);
    }
    if (rank != 0) {
        snprintf(message, sizeof message, "board: %u ranks, expected 8", 8 - rank);
        return fen_fail(err, CN_FEN_FIELD_BOARD, message);
    }
    rows[0] = row;
    /* Codes hold type + 1 in bits 0-2 and the colour in bit 3: the four bit
     * planes of the rows give every bitboard. */
    bitboard plane0 = 0, plane1 = 0, plane2 = 0, plane3 = 0;
    for (unsigned r = 0; r < 8; r++) {
        plane0 |= byte_bits(rows[r], 0) << (8 * r);
        plane1 |= byte_bits(rows[r], 1) << (8 * r);
        plane2 |= byte_bits(rows[r], 2) << (8 * r);
        plane3 |= byte_bits(rows[r], 3) << (8 * r);
    }
    const bitboard occupied = plane0 | plane1 | plane2; /* type + 1 is never 0 */
    p->by_type[CN_PAWN] = ~plane2 & ~plane1 & plane0;   /* type + 1 = 1 */
    p->by_type[CN_KNIGHT] = ~plane2 & plane1 & ~plane0; /* 2 */
    p->by_type[CN_BISHOP] = ~plane2 & plane1 & plane0;  /* 3 */
    p->by_type[CN_ROOK] = plane2 & ~plane1 & ~plane0;   /* 4 */
    p->by_type[CN_QUEEN] = plane2 & ~plane1 & plane0;   /* 5 */
    p->by_type[CN_KING] = plane2 & plane1 & ~plane0;    /* 6 */
    p->by_color[CN_WHITE] = occupied & ~plane3;
    p->by_color[CN_BLACK] = plane3;
    p->key = pieces_key; /* cn_fen_parse adds the rest */
    static const char *color_names[2] = {"white", "black"};
    for (int color = 0; color < 2; color++) {
        const bitboard kings = p->by_type[CN_KING] & p->by_color[color];
        if (!kings || bb_more_than_one(kings)) {
            snprintf(message, sizeof message, "board: %s has %d kings, expected 1", color_names[color], bb_popcount(kings));
            return fen_fail(err, CN_FEN_FIELD_BOARD, message);
        }
        if (bb_popcount(p->by_color[color]) > MAX_MEN_PER_SIDE) {
            snprintf(message, sizeof message, "board: %s has %d men, at most %d are possible", color_names[color],
                     bb_popcount(p->by_color[color]), MAX_MEN_PER_SIDE);
            return fen_fail(err, CN_FEN_FIELD_BOARD, message);
        }
    }
    if (p->by_type[CN_PAWN] & (CN_RANK_1 | CN_RANK_8))
        return fen_fail(err, CN_FEN_FIELD_BOARD, "board: a pawn stands on the first or last rank");
    return CN_OK;
}

/* Outermost rook of `color` on the back rank on one side of the king. */
static int outermost_rook(const cn_position *p, int color, int queenside) {
    unsigned back_rank = color == CN_WHITE ? 0u : 7u;
    bitboard king = p->by_type[CN_KING] & p->by_color[color];
    unsigned king_square = bb_lsb(king);
    if (square_rank(king_square) != back_rank) return -1;
    bitboard rooks = p->by_type[CN_ROOK] & p->by_color[color] & (CN_RANK_1 << (8 * back_rank));
    int found = -1;
    while (rooks) {
        unsigned square = bb_pop_lsb(&rooks);
        if (queenside && square < king_square && found < 0) found = (int)square;        /* lowest */
        if (!queenside && square > king_square) found = (int)square;                      /* highest */
    }
    return found;
}

static cn_status parse_castling(cn_position *p, const fen_token *t, cn_fen_error *err) {
    char message[120];
    p->castling = 0;
    memset(p->castle_rook, CN_NO_SQUARE, sizeof p->castle_rook);
    if (token_is(t, '-')) return CN_OK;
    if (t->length == 0 || t->length > 4)
        return fen_fail(err, CN_FEN_FIELD_CASTLING, "castling: expected '-' or up to four of KQkq");
    unsigned seen = 0;
    for (size_t i = 0; i < t->length; i++) {
        char c = t->text[i];
        int color = (c >= 'a' && c <= 'z') ? CN_BLACK : CN_WHITE;
        char upper = (char)(color == CN_BLACK ? c - 'a' + 'A' : c);
        int rook_square = -1;
        unsigned right;
        if (upper == 'K' || upper == 'Q') {
            right = (unsigned)(2 * color + (upper == 'Q'));
            rook_square = outermost_rook(p, color, upper == 'Q');
        } else if (upper >= 'A' && upper <= 'H') {
            unsigned file = (unsigned)(upper - 'A');
            unsigned king_square = bb_lsb(p->by_type[CN_KING] & p->by_color[color]);
            rook_square = (int)make_square(file, color == CN_WHITE ? 0u : 7u);
            right = (unsigned)(2 * color + (file < square_file(king_square)));
            if (file == square_file(king_square)) {
                snprintf(message, sizeof message, "castling: '%c' names the king's own file", c);
                return fen_fail(err, CN_FEN_FIELD_CASTLING, message);
            }
        } else {
            if ((unsigned char)c >= 0x20 && (unsigned char)c < 0x7f)
                snprintf(message, sizeof message, "castling: '%c' is not a castling right (KQkq or rook files A-H/a-h)", c);
            else
                snprintf(message, sizeof message, (unsigned char)c >= 0x80 ? "castling: a non-ASCII character is not a castling right"
                                                                           : "castling: byte 0x%02x is not a castling right", (unsigned char)c);
            return fen_fail(err, CN_FEN_FIELD_CASTLING, message);
        }
        if (seen & (1u << right)) {
            snprintf(message, sizeof message, "castling: right '%c' is given twice", c);
            return fen_fail(err, CN_FEN_FIELD_CASTLING, message);
        }
        seen |= 1u << right;
        /* Rights that cannot apply are dropped, as the published suites expect. */
        if (rook_square >= 0 && castling_right_applies(p, right, (unsigned)rook_square)) {
            p->castling |= (uint8_t)(1u << right);
            p->castle_rook[right] = (uint8_t)rook_square;
        }
    }
    return CN_OK;
}

static cn_status parse_en_passant(cn_position *p, const fen_token *t, cn_fen_error *err) {
    char message[120];
    p->ep_square = CN_NO_SQUARE;
    if (token_is(t, '-')) return CN_OK;
    if (t->length != 2 || t->text[0] < 'a' || t->text[0] > 'h' || t->text[1] < '1' || t->text[1] > '8')
        return fen_fail(err, CN_FEN_FIELD_EN_PASSANT, "enPassant: expected '-' or a square such as e3");
    unsigned ep = make_square((unsigned)(t->text[0] - 'a'), (unsigned)(t->text[1] - '1'));
    char expected_rank = p->side == CN_WHITE ? '6' : '3';
    if (t->text[1] != expected_rank) {
        snprintf(message, sizeof message, "enPassant: %.2s is on the wrong rank; with %s to move it must be on rank %c",
                 t->text, p->side == CN_WHITE ? "white" : "black", expected_rank);
        return fen_fail(err, CN_FEN_FIELD_EN_PASSANT, message);
    }
    if (!ep_square_consistent(p, ep)) {
        snprintf(message, sizeof message, "enPassant: no pawn can just have moved two squares past %.2s", t->text);
        return fen_fail(err, CN_FEN_FIELD_EN_PASSANT, message);
    }
    /* Kept only when a pawn can capture, as Polyglot hashes it. */
    if (ep_capturable(p, ep)) p->ep_square = (uint8_t)ep;
    return CN_OK;
}

/* Splits fen[i, len) at separators into tokens[*count], tokens[*count + 1],
 * ...; 0 when that makes more than 6 fields. */
static int split_fields(const char *fen, size_t len, size_t i, fen_token tokens[6], size_t *count) {
    while (i < len) {
        while (i < len && cn_is_space(fen[i])) i++;
        if (i >= len) break;
        size_t start = i;
        while (i < len && !cn_is_space(fen[i])) i++;
        if (*count == 6) return 0;
        tokens[*count].text = fen + start;
        tokens[*count].length = i - start;
        ++*count;
    }
    return 1;
}

/* The error for a FEN whose field count is wrong, or CN_OK. */
static cn_status check_field_count(int split, size_t count, cn_fen_error *err) {
    char message[120];
    if (!split) return fen_fail(err, CN_FEN_FIELD_COUNT, "fields: more than 6 fields");
    if (count != 4 && count != 6) {
        snprintf(message, sizeof message, "fields: %zu fields, expected 6 (FEN) or 4 (EPD)", count);
        return fen_fail(err, CN_FEN_FIELD_COUNT, message);
    }
    return CN_OK;
}

cn_status cn_fen_parse(cn_position *out, const char *fen, size_t len, int chess960, cn_fen_error *err) {
    fen_token tokens[6];
    size_t count = 0, i = 0;
    char message[120];
    cn_status status;
    if (fen == NULL) return fen_fail(err, CN_FEN_FIELD_COUNT, "fields: empty FEN");

    /* Every field is set below; not a memset of the whole struct, which GCC
     * turns into a rep stos that is slow to start. */
    cn_position p;
    memset(p.reserved, 0, sizeof p.reserved);
    p.chess960 = chess960 ? 1 : 0;
    p.halfmove = 0; /* the clocks and key are final in *out only */
    p.fullmove = 1;
    /* parse_board finds the end of the board field itself (one pass over
     * its characters); a wrong number of fields is still the error reported
     * first, as if the FEN had been split before anything was parsed. */
    while (i < len && cn_is_space(fen[i])) i++;
    tokens[0].text = fen + i;
    tokens[0].length = len - i;
    if ((status = parse_board(&p, &tokens[0], err)) != CN_OK) {
        count = 0;
        const int split = split_fields(fen, len, 0, tokens, &count);
        return check_field_count(split, count, err) != CN_OK ? CN_ERR_FEN : status;
    }
    count = 1; /* an empty board field fails above */
    const int split = split_fields(fen, len, i + tokens[0].length, tokens, &count);
    if ((status = check_field_count(split, count, err)) != CN_OK) return status;

    if (token_is(&tokens[1], 'w'))
        p.side = CN_WHITE;
    else if (token_is(&tokens[1], 'b'))
        p.side = CN_BLACK;
    else
        return fen_fail(err, CN_FEN_FIELD_TURN, "turn: expected 'w' or 'b'");
    if (king_attacked(&p, p.side ^ 1)) {
        snprintf(message, sizeof message, "turn: %s is in check but it is %s's move",
                 p.side == CN_WHITE ? "black" : "white", p.side == CN_WHITE ? "white" : "black");
        return fen_fail(err, CN_FEN_FIELD_TURN, message);
    }

    if ((status = parse_castling(&p, &tokens[2], err)) != CN_OK) return status;
    if ((status = parse_en_passant(&p, &tokens[3], err)) != CN_OK) return status;

    uint16_t halfmove = 0;
    uint32_t fullmove = 1;
    if (count == 6) {
        /* The limits are those of the struct's fields; make saturates at
         * them, so every position it reaches writes a FEN that parses. */
        int64_t value = parse_clock(&tokens[4], UINT16_MAX);
        if (value < 0) return fen_fail(err, CN_FEN_FIELD_HALFMOVE, "halfmove: expected a whole number from 0 to 65535");
        halfmove = (uint16_t)value;
        value = parse_clock(&tokens[5], UINT32_MAX);
        if (value < 1) return fen_fail(err, CN_FEN_FIELD_FULLMOVE, "fullmove: expected a whole number from 1 to 4294967295");
        fullmove = (uint32_t)value;
    }
    const uint64_t key = p.key ^ state_key(&p); /* parse_board left the pieces' share */
    /* The last fields go straight to *out: stored into p just before the
     * copy, they would stall its wide loads. */
    *out = p;
    out->key = key;
    out->halfmove = halfmove;
    out->fullmove = fullmove;
    return CN_OK;
}

/* --- FEN output -------------------------------------------------------------- */

/* FEN shows the en-passant square only when the capture is legal, as
 * chess.js does (the stored square follows the Polyglot pseudo-legal rule). */
static int ep_capture_legal(const cn_position *p) {
    if (p->ep_square == CN_NO_SQUARE) return 0;
    cn_move moves[CN_MAX_MOVES];
    int count = cn_legal_moves(p, moves);
    for (int i = 0; i < count; i++)
        if (cn_move_kind(moves[i]) == CN_MOVE_EN_PASSANT) return 1;
    return 0;
}

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

size_t cn_fen_write(const cn_position *p, char *buf, size_t cap) {
    char fen[128];
    char squares[64];
    size_t n = 0;
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
    fen[n++] = ' ';
    fen[n++] = p->side == CN_WHITE ? 'w' : 'b';
    fen[n++] = ' ';
    if (!p->castling) {
        fen[n++] = '-';
    } else {
        static const char standard_letters[4] = {'K', 'Q', 'k', 'q'};
        for (unsigned right = 0; right < 4; right++) {
            if (!(p->castling & (1u << right))) continue;
            char letter = standard_letters[right];
            /* X-FEN letter when the rook is the outermost one, otherwise
             * the rook's file (Shredder-FEN). */
            if (outermost_rook(p, right_color(right), right_queenside(right)) != p->castle_rook[right]) {
                letter = (char)('A' + square_file(p->castle_rook[right]));
                if (right_color(right) == CN_BLACK) letter = (char)(letter - 'A' + 'a');
            }
            fen[n++] = letter;
        }
    }
    fen[n++] = ' ';
    if (ep_capture_legal(p)) {
        fen[n++] = (char)('a' + square_file(p->ep_square));
        fen[n++] = (char)('1' + square_rank(p->ep_square));
    } else {
        fen[n++] = '-';
    }
    fen[n++] = ' ';
    n = append_number(fen, n, p->halfmove);
    fen[n++] = ' ';
    n = append_number(fen, n, p->fullmove);
    if (cap == 0) return n;
    size_t copy = n < cap - 1 ? n : cap - 1;
    memcpy(buf, fen, copy);
    buf[copy] = 0;
    return n;
}

/* --- make / unmake ------------------------------------------------------------- */

static void toggle_piece(cn_position *p, int color, int type, unsigned square) {
    bitboard b = bb_square(square);
    p->by_type[type] ^= b;
    p->by_color[color] ^= b;
    p->key ^= cn_polyglot_piece_key(color, type, square);
}

static void set_castling(cn_position *p, uint8_t rights) {
    uint8_t changed = p->castling ^ rights;
    for (unsigned right = 0; right < 4; right++) {
        if (!(changed & (1u << right))) continue;
        p->key ^= cn_polyglot_castling_key(right);
        p->castle_rook[right] = CN_NO_SQUARE; /* rights are only ever lost */
    }
    p->castling = rights;
}

static void set_ep_square(cn_position *p, uint8_t ep) {
    if (p->ep_square != CN_NO_SQUARE) p->key ^= cn_polyglot_ep_key(p->ep_square);
    p->ep_square = ep;
    if (ep != CN_NO_SQUARE) p->key ^= cn_polyglot_ep_key(ep);
}

void cn_make(cn_position *p, cn_move move, cn_undo *undo) {
    const int us = p->side, them = us ^ 1;
    const unsigned from = cn_move_from(move), to = cn_move_to(move), kind = cn_move_kind(move);
    const int piece = type_of_square(p, bb_square(from));
    undo->key = p->key;
    undo->fullmove = p->fullmove;
    undo->halfmove = p->halfmove;
    undo->castling = p->castling;
    undo->ep_square = p->ep_square;
    memcpy(undo->castle_rook, p->castle_rook, sizeof undo->castle_rook);
    undo->captured = -1;
    undo->move = move;

    uint8_t rights = p->castling;
    uint8_t new_ep = CN_NO_SQUARE;
    if (kind == CN_MOVE_CASTLING) {
        const unsigned king_to = castle_king_to(from, to), rook_to = castle_rook_to(from, to);
        toggle_piece(p, us, CN_KING, from);
        toggle_piece(p, us, CN_ROOK, to);
        toggle_piece(p, us, CN_KING, king_to);
        toggle_piece(p, us, CN_ROOK, rook_to);
    } else {
        if (kind == CN_MOVE_EN_PASSANT) {
            undo->captured = CN_PAWN;
            toggle_piece(p, them, CN_PAWN, us == CN_WHITE ? to - 8 : to + 8);
        } else if (p->by_color[them] & bb_square(to)) {
            undo->captured = (int8_t)type_of_square(p, bb_square(to));
            toggle_piece(p, them, undo->captured, to);
        }
        toggle_piece(p, us, piece, from);
        toggle_piece(p, us, kind == CN_MOVE_PROMOTION ? (int)cn_move_promotion(move) : piece, to);
        if (piece == CN_PAWN && (from ^ to) == 16u) {
            unsigned ep = (from + to) >> 1;
            if (cn_pawn_attacks[us][ep] & p->by_type[CN_PAWN] & p->by_color[them]) new_ep = (uint8_t)ep;
        }
    }
    if (piece == CN_KING) rights &= (uint8_t)(us == CN_WHITE ? ~(CN_WHITE_OO | CN_WHITE_OOO) : ~(CN_BLACK_OO | CN_BLACK_OOO));
    for (unsigned right = 0; right < 4; right++)
        if ((rights & (1u << right)) && (p->castle_rook[right] == from || p->castle_rook[right] == to))
            rights &= (uint8_t)~(1u << right);
    set_castling(p, rights);
    set_ep_square(p, new_ep);
    if (piece == CN_PAWN || undo->captured >= 0)
        p->halfmove = 0;
    else if (p->halfmove < UINT16_MAX)
        p->halfmove++;
    if (us == CN_BLACK && p->fullmove < UINT32_MAX) p->fullmove++;
    p->side = (uint8_t)them;
    p->key ^= cn_polyglot_random[CN_POLYGLOT_TURN];
}

void cn_unmake(cn_position *p, const cn_undo *undo) {
    const int them = p->side, us = them ^ 1;
    const cn_move move = undo->move;
    const unsigned from = cn_move_from(move), to = cn_move_to(move), kind = cn_move_kind(move);
    if (kind == CN_MOVE_CASTLING) {
        const unsigned king_to = castle_king_to(from, to), rook_to = castle_rook_to(from, to);
        toggle_piece(p, us, CN_KING, king_to);
        toggle_piece(p, us, CN_ROOK, rook_to);
        toggle_piece(p, us, CN_KING, from);
        toggle_piece(p, us, CN_ROOK, to);
    } else {
        const int placed = type_of_square(p, bb_square(to));
        toggle_piece(p, us, placed, to);
        toggle_piece(p, us, kind == CN_MOVE_PROMOTION ? CN_PAWN : placed, from);
        if (kind == CN_MOVE_EN_PASSANT)
            toggle_piece(p, them, CN_PAWN, us == CN_WHITE ? to - 8 : to + 8);
        else if (undo->captured >= 0)
            toggle_piece(p, them, undo->captured, to);
    }
    p->side = (uint8_t)us;
    p->castling = undo->castling;
    memcpy(p->castle_rook, undo->castle_rook, sizeof p->castle_rook);
    p->ep_square = undo->ep_square;
    p->halfmove = undo->halfmove;
    p->fullmove = undo->fullmove;
    p->key = undo->key;
}
