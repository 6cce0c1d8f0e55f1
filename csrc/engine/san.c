/*
 * san.c - SAN output and input, built on the public engine API
 * (cn_legal_moves, cn_piece_on, cn_make, cn_in_check, cn_count_legal_moves)
 * plus the bit helpers, attack lookups and move_apply.h, so it works
 * unchanged whichever move generator is compiled in. One legal move list
 * serves every move's SAN (cn_moves_to_san), so formatting a whole list
 * stays linear, and a move is only made (on a copy) when it gives check, to
 * tell + from #.
 * Parsing generates no move list either (except for castling): the pieces
 * that reach the named square are the candidates, and each has its pieces
 * moved on a copy to see that it leaves its king safe.
 */
#include "include/san.h"

#include "bitboard.h"
#include "move_apply.h"
#include "pgn_san.h"
#include "position.h"
#include "relaxed.h"
#include "slider_attacks.h"

#include <stdint.h>
#include <string.h>

/* Index is the piece type: CN_PAWN = 0 .. CN_KING = 5. */
static const char piece_letters[] = "PNBRQK";

static int is_file_char(char c) { return c >= 'a' && c <= 'h'; }
static int is_rank_char(char c) { return c >= '1' && c <= '8'; }

static unsigned square_from_chars(char file, char rank) {
    return make_square((unsigned)(file - 'a'), (unsigned)(rank - '1'));
}

static int write_square(char *out, int length, unsigned square) {
    out[length++] = (char)('a' + square_file(square));
    out[length++] = (char)('1' + square_rank(square));
    return length;
}

/* Castling is king-takes-own-rook, so the rook's side of the king decides. */
static int is_king_side_castle(cn_move move) { return square_file(cn_move_to(move)) > square_file(cn_move_from(move)); }

/* What the formatter needs besides the move: the legal move list (for
 * disambiguation), a mailbox built once, and for each piece type the target
 * squares two or more of its legal moves share (only those need the list
 * scanned for rivals). */
typedef struct san_context {
    const cn_position *pos;
    const cn_move *legal;
    int legal_count;
    int8_t piece_at[64];
    uint64_t shared_targets[6];
} san_context;

static void san_context_init(san_context *ctx, const cn_position *pos, const cn_move *legal, int legal_count) {
    uint64_t seen[6] = {0, 0, 0, 0, 0, 0};
    ctx->pos = pos;
    ctx->legal = legal;
    ctx->legal_count = legal_count;
    memset(ctx->piece_at, -1, sizeof ctx->piece_at);
    for (int type = CN_PAWN; type <= CN_KING; type++) {
        uint64_t b = pos->by_type[type];
        while (b) {
            ctx->piece_at[bb_pop_lsb(&b)] = (int8_t)type;
        }
        ctx->shared_targets[type] = 0;
    }
    for (int i = 0; i < legal_count; i++) {
        cn_move move = legal[i];
        if (cn_move_kind(move) == CN_MOVE_CASTLING) continue;
        int piece = ctx->piece_at[cn_move_from(move)];
        if (piece <= CN_PAWN) /* pawns are told apart by their file */
            continue;
        uint64_t bit = bb_square(cn_move_to(move));
        ctx->shared_targets[piece] |= seen[piece] & bit;
        seen[piece] |= bit;
    }
}

/* File, else rank, else both: the same rule as chess.js's getDisambiguator,
 * applied to legal moves only, so a pinned twin needs no disambiguation. */
static int write_disambiguation(const san_context *ctx, cn_move move, int piece, char *out, int length) {
    unsigned from = cn_move_from(move);
    unsigned to = cn_move_to(move);
    int rivals = 0, rival_on_same_file = 0, rival_on_same_rank = 0;

    if (!(ctx->shared_targets[piece] & bb_square(to))) return length;
    for (int i = 0; i < ctx->legal_count; i++) {
        cn_move other = ctx->legal[i];
        unsigned other_from = cn_move_from(other);
        if (cn_move_to(other) != to || other_from == from || cn_move_kind(other) == CN_MOVE_CASTLING) continue;
        if (ctx->piece_at[other_from] != piece) continue;
        rivals++;
        if (square_file(other_from) == square_file(from)) rival_on_same_file = 1;
        if (square_rank(other_from) == square_rank(from)) rival_on_same_rank = 1;
    }
    if (rivals == 0) return length;
    if (rival_on_same_file && rival_on_same_rank) return write_square(out, length, from);
    if (rival_on_same_file)
        out[length++] = (char)('1' + square_rank(from));
    else
        out[length++] = (char)('a' + square_file(from));
    return length;
}

/* Whether a legal move leaves the opponent's king attacked, from the pieces
 * after the move (the one thing that decides it) without making it. */
static int gives_check(const san_context *ctx, cn_move move) {
    const cn_position *pos = ctx->pos;
    if (pos->relaxed) return cn_relaxed_gives_check(pos, move);
    const int us = pos->side;
    const unsigned king = bb_lsb(pos->by_type[CN_KING] & pos->by_color[us ^ 1]);
    cn_position after = *pos;
    cn_apply_move_pieces(&after, move, (unsigned)ctx->piece_at[cn_move_from(move)], us, 0);
    return attackers_to(&after, king, after.by_color[CN_WHITE] | after.by_color[CN_BLACK], us) != 0;
}

/* SAN of a move from ctx->legal; returns its length. */
static int format_san(const san_context *ctx, cn_move move, char *out) {
    unsigned from = cn_move_from(move);
    unsigned to = cn_move_to(move);
    unsigned kind = cn_move_kind(move);
    int length = 0;

    if (kind == CN_MOVE_CASTLING) {
        const char *text = is_king_side_castle(move) ? "O-O" : "O-O-O";
        length = (int)strlen(text);
        memcpy(out, text, (size_t)length);
    } else {
        int piece = ctx->piece_at[from];
        int is_capture = kind == CN_MOVE_EN_PASSANT || ctx->piece_at[to] >= 0;
        if (piece == CN_PAWN) {
            if (is_capture) {
                out[length++] = (char)('a' + square_file(from));
                out[length++] = 'x';
            }
        } else {
            out[length++] = piece_letters[piece];
            length = write_disambiguation(ctx, move, piece, out, length);
            if (is_capture) out[length++] = 'x';
        }
        length = write_square(out, length, to);
        if (kind == CN_MOVE_PROMOTION) {
            out[length++] = '=';
            out[length++] = piece_letters[cn_move_promotion(move)];
        }
    }

    if (gives_check(ctx, move)) {
        /* Mate needs the position after the move: play it on a copy, the
         * caller's position stays untouched. */
        cn_position after = *ctx->pos;
        cn_undo undo;
        cn_make(&after, move, &undo);
        out[length++] = cn_count_legal_moves(&after) == 0 ? '#' : '+';
    }
    out[length] = '\0';
    return length;
}

int cn_move_to_san(const cn_position *pos, cn_move move, char *out) {
    cn_move legal[CN_MAX_MOVES];
    int legal_count = cn_legal_moves(pos, legal);
    int listed = 0;

    out[0] = '\0';
    /* cn_make trusts its caller; checking here keeps garbage in from
     * becoming a corrupted copy or a nonsense string. */
    for (int i = 0; i < legal_count && !listed; i++) listed = legal[i] == move;
    if (!listed) return 0;
    san_context ctx;
    san_context_init(&ctx, pos, legal, legal_count);
    return format_san(&ctx, move, out);
}

cn_status cn_moves_to_san(const cn_position *pos, const cn_move *legal, int count, char (*out)[CN_SAN_MAX]) {
    san_context ctx;
    if (count < 0 || count > CN_MAX_MOVES) return CN_ERR_BAD_ARGUMENT;
    san_context_init(&ctx, pos, legal, count);
    for (int i = 0; i < count; i++) format_san(&ctx, legal[i], out[i]);
    return CN_OK;
}

/* --- parsing ------------------------------------------------------------- */

/* What a SAN string says about the move; -1 marks a part it leaves open. */
typedef struct san_pattern {
    int castle_side; /* 0: not castling, 1: O-O, 2: O-O-O */
    int piece;       /* CN_PAWN .. CN_KING */
    int from_file;
    int from_rank;
    unsigned to;
    int promotion; /* CN_KNIGHT .. CN_QUEEN, or -1 for none */
} san_pattern;

enum { SAN_KING_SIDE = 1, SAN_QUEEN_SIDE = 2 };

static int piece_from_letter(char c) {
    switch (c) {
    case 'N':
        return CN_KNIGHT;
    case 'B':
        return CN_BISHOP;
    case 'R':
        return CN_ROOK;
    case 'Q':
        return CN_QUEEN;
    case 'K':
        return CN_KING;
    default:
        return -1;
    }
}

/* After '=' a lowercase letter is unambiguous and shows up in real PGN. */
static int promotion_from_letter(char c, int lowercase_ok) {
    if (lowercase_ok && c >= 'a' && c <= 'z') c = (char)(c - 'a' + 'A');
    int piece = piece_from_letter(c);
    return piece == CN_KING ? -1 : piece;
}

/* "O-O", "O-O-O" or the same with zeros (not mixed). */
static int parse_castling(const char *body, size_t n) {
    char o = body[0];
    if (o != 'O' && o != '0') return 0;
    if (n == 3 && body[1] == '-' && body[2] == o) return SAN_KING_SIDE;
    if (n == 5 && body[1] == '-' && body[2] == o && body[3] == '-' && body[4] == o) return SAN_QUEEN_SIDE;
    return 0;
}

/* [NBRQK] [file] [rank] [x] square */
static cn_status parse_piece_move(const char *body, size_t n, san_pattern *pattern) {
    pattern->piece = piece_from_letter(body[0]);
    if (n < 3) return CN_ERR_BAD_MOVE;
    if (!is_file_char(body[n - 2]) || !is_rank_char(body[n - 1])) return CN_ERR_BAD_MOVE;
    pattern->to = square_from_chars(body[n - 2], body[n - 1]);

    /* Whatever sits between the letter and the square: disambiguation. */
    size_t hint_end = n - 2;
    if (hint_end > 1 && body[hint_end - 1] == 'x') hint_end--;
    size_t i = 1;
    if (i < hint_end && is_file_char(body[i])) pattern->from_file = body[i++] - 'a';
    if (i < hint_end && is_rank_char(body[i])) pattern->from_rank = body[i++] - '1';
    return i == hint_end ? CN_OK : CN_ERR_BAD_MOVE;
}

/* file [[x] file] rank [[=] promotion]: a capture may lack its 'x' ("ed5"),
 * as in real files; a pawn's file and the target name one move. */
static cn_status parse_pawn_move(const char *body, size_t n, san_pattern *pattern) {
    size_t i;
    pattern->piece = CN_PAWN;
    pattern->from_file = body[0] - 'a';
    const size_t x = n >= 2 && body[1] == 'x';
    if (x || (n >= 3 && is_file_char(body[1]))) {
        if (n < 3 + x || !is_file_char(body[1 + x]) || !is_rank_char(body[2 + x])) return CN_ERR_BAD_MOVE;
        int file_step = body[1 + x] - body[0];
        if (file_step != 1 && file_step != -1) /* "exe5" or "axh6" */
            return CN_ERR_BAD_MOVE;
        pattern->to = square_from_chars(body[1 + x], body[2 + x]);
        i = 3 + x;
    } else {
        if (n < 2 || !is_rank_char(body[1])) return CN_ERR_BAD_MOVE;
        pattern->to = square_from_chars(body[0], body[1]);
        i = 2;
    }
    if (i < n) {
        int after_equals = body[i] == '=';
        if (after_equals && ++i >= n) return CN_ERR_BAD_MOVE;
        pattern->promotion = promotion_from_letter(body[i], after_equals);
        if (pattern->promotion < 0) return CN_ERR_BAD_MOVE;
        i++;
    }
    return i == n ? CN_OK : CN_ERR_BAD_MOVE;
}

static int is_check_mark(char c) { return c == '+' || c == '#'; }

/* Drops, from the end: one annotation (! ? !! ?? !? ?!), one + or #, and an
 * "e.p." mark with the spaces before it; the check mark may stand on either
 * side of "e.p." ("exd6 e.p.+", "exd6+ e.p."). Returns the length left. */
static size_t strip_suffixes(const char *san, size_t len) {
    size_t end = len;
    for (int marks = 0; marks < 2 && end > 0 && (san[end - 1] == '!' || san[end - 1] == '?'); marks++) end--;
    int check_seen = end > 0 && is_check_mark(san[end - 1]);
    if (check_seen) end--;
    if (end >= 4 && memcmp(san + end - 4, "e.p.", 4) == 0) {
        end -= 4;
        while (end > 0 && san[end - 1] == ' ') end--;
        if (!check_seen && end > 0 && is_check_mark(san[end - 1])) end--;
    }
    return end;
}

/* Whether a pseudo-legal move leaves its own king unattacked (its pieces
 * moved on a copy). */
static int leaves_king_safe(const cn_position *pos, cn_move move) {
    const int us = pos->side;
    cn_position after = *pos;
    cn_apply_move_pieces(&after, move, (unsigned)cn_type_on(pos, bb_square(cn_move_from(move))), us, 0);
    return !cn_king_attacked(&after, us);
}

/* The squares a pawn move of the pattern can come from (before the hints),
 * and the move's kind; 0 when the pattern cannot be a
 * pawn move here. A push ("e4") names its own file, a capture ("exd5") an
 * adjacent one (the parser allows no other). */
static uint64_t pawn_origins(const cn_position *pos, const san_pattern *p, unsigned *kind) {
    const int us = pos->side;
    const uint64_t occupied = pos->by_color[CN_WHITE] | pos->by_color[CN_BLACK];
    const uint64_t to_bb = bb_square(p->to);
    const int up = us == CN_WHITE ? 8 : -8;
    uint64_t from_set;
    if ((int)square_file(p->to) == p->from_file) {
        const int from = (int)p->to - up;
        if ((to_bb & occupied) || from < 0 || from > 63) return 0;
        from_set = bb_square((unsigned)from);
        if (!(from_set & pos->by_type[CN_PAWN] & pos->by_color[us])) { /* else a double push over an empty square */
            const int from2 = from - up;
            if ((from_set & occupied) || from2 < 0 || from2 > 63 ||
                square_rank((unsigned)from2) != (us == CN_WHITE ? 1u : 6u))
                return 0;
            from_set = bb_square((unsigned)from2);
        }
    } else {
        from_set = cn_pawn_attacks[us ^ 1][p->to] & (CN_FILE_A << p->from_file);
        if (p->to == pos->ep_square)
            *kind = CN_MOVE_EN_PASSANT;
        else if (!(to_bb & pos->by_color[us ^ 1]))
            return 0;
    }
    if (square_rank(p->to) == (us == CN_WHITE ? 7u : 0u)) {
        if (p->promotion < 0) return 0;
        *kind = CN_MOVE_PROMOTION;

    } else if (p->promotion >= 0) {
        return 0;
    }
    return from_set;
}

/* Our pieces of the pattern's type that reach its square, narrowed by the
 * hints (pseudo-legal: pins are not looked at); sets the move's kind. */
static uint64_t pattern_origins(const cn_position *pos, const san_pattern *p, unsigned *kind) {
    const uint64_t ours = pos->by_color[pos->side];
    const uint64_t occupied = pos->by_color[CN_WHITE] | pos->by_color[CN_BLACK];
    uint64_t from_set;
    if (bb_square(p->to) & ours) return 0;
    switch (p->piece) {
    case CN_KNIGHT:
        from_set = cn_knight_attacks[p->to];
        break;
    case CN_BISHOP:
        from_set = bishop_attacks(p->to, occupied);
        break;
    case CN_ROOK:
        from_set = rook_attacks(p->to, occupied);
        break;
    case CN_QUEEN:
        from_set = bishop_attacks(p->to, occupied) | rook_attacks(p->to, occupied);
        break;
    case CN_KING:
        from_set = cn_king_attacks[p->to];
        break; /* castling is the castle pattern */
    default:
        from_set = pawn_origins(pos, p, kind);
        break;
    }
    from_set &= pos->by_type[p->piece] & ours;
    if (p->from_file >= 0) from_set &= CN_FILE_A << p->from_file;
    if (p->from_rank >= 0) from_set &= CN_RANK_1 << (8 * p->from_rank);
    return from_set;
}

/*
 * The legal moves that fit a non-castling pattern, found without a move
 * list: the pseudo-legal candidates (pattern_origins) each kept when their
 * king is not left attacked. Out of check, a move by a piece other than the
 * king that is not en passant cannot expose its king unless it leaves a
 * line through the king on which an enemy slider of that line's kind
 * stands; otherwise the move's pieces are moved on a copy to see. Returns how many fit;
 * *found is one of them.
 */
static int resolve_pattern(const cn_position *pos, const san_pattern *p, int in_check, cn_move *found) {
    const int us = pos->side;
    const uint64_t theirs = pos->by_color[us ^ 1];
    unsigned kind = CN_MOVE_NORMAL;
    uint64_t from_set = pattern_origins(pos, p, &kind);
    if (!from_set) return 0;
    const unsigned king = bb_lsb(pos->by_type[CN_KING] & pos->by_color[us]);
    const int simple =
        p->piece != CN_KING && kind != CN_MOVE_EN_PASSANT && !(in_check < 0 ? cn_in_check(pos) : in_check);
    const uint64_t straight = (pos->by_type[CN_ROOK] | pos->by_type[CN_QUEEN]) & theirs;
    const uint64_t diagonal = (pos->by_type[CN_BISHOP] | pos->by_type[CN_QUEEN]) & theirs;
    int fits = 0;
    while (from_set) {
        const unsigned from = bb_pop_lsb(&from_set);
        const cn_move move = cn_move_encode(from, p->to, kind, (unsigned)p->promotion);
        const uint64_t line = cn_line[king][from];
        const int orthogonal = square_file(king) == square_file(from) || square_rank(king) == square_rank(from);
        const int exposed = line && !(line & bb_square(p->to)) && (line & (orthogonal ? straight : diagonal));
        if ((simple && !exposed) || leaves_king_safe(pos, move)) {
            fits++;
            *found = move;
        }
    }
    return fits;
}

/* The legal castling move on the pattern's side: at most one. Returns how
 * many there are; *found is it. */
static int resolve_castling(const cn_position *pos, int castle_side, cn_move *found) {
    cn_move legal[CN_MAX_MOVES];
    const int legal_count = cn_legal_moves(pos, legal);
    int fits = 0;
    for (int i = 0; i < legal_count; i++) {
        if (cn_move_kind(legal[i]) != CN_MOVE_CASTLING) continue;
        if ((is_king_side_castle(legal[i]) ? SAN_KING_SIDE : SAN_QUEEN_SIDE) == castle_side) {
            fits++;
            *found = legal[i];
        }
    }
    return fits;
}

/* What the SAN body (suffixes stripped) says about the move. */
/* Whether a legal move fits a pattern. */
static int fits_pattern(const cn_position *pos, const san_pattern *p, cn_move move) {
    const unsigned from = cn_move_from(move), kind = cn_move_kind(move);
    if (kind == CN_MOVE_CASTLING || p->castle_side)
        return kind == CN_MOVE_CASTLING &&
               p->castle_side == (is_king_side_castle(move) ? SAN_KING_SIDE : SAN_QUEEN_SIDE);
    if (cn_piece_on(pos, from, NULL) != p->piece || cn_move_to(move) != p->to) return 0;
    if ((p->from_file >= 0 && (int)square_file(from) != p->from_file) ||
        (p->from_rank >= 0 && (int)square_rank(from) != p->from_rank))
        return 0;
    return kind == CN_MOVE_PROMOTION ? (int)cn_move_promotion(move) == p->promotion : p->promotion < 0;
}

/* The legal moves that fit a pattern, from the legal move list: a relaxed
 * position's moves, whose rules the pattern resolvers above do not know. */
static int resolve_listed(const cn_position *pos, const san_pattern *p, cn_move *found) {
    cn_move legal[CN_MAX_MOVES];
    const int legal_count = cn_legal_moves(pos, legal);
    int fits = 0;
    for (int i = 0; i < legal_count; i++)
        if (fits_pattern(pos, p, legal[i])) {
            *found = legal[i];
            fits++;
        }
    return fits;
}

static cn_status parse_pattern(const char *body, size_t n, san_pattern *pattern) {
    pattern->castle_side = parse_castling(body, n);
    if (pattern->castle_side) return CN_OK;
    if (piece_from_letter(body[0]) >= 0) return parse_piece_move(body, n, pattern);
    if (is_file_char(body[0])) return parse_pawn_move(body, n, pattern);
    return CN_ERR_BAD_MOVE;
}

/* The shapes most moves are written in, read at once: a pawn push ("e4"),
 * a pawn capture ("exd5") or a piece move without a hint ("Nf3", "Nxf3"),
 * each maybe with one + or #. Returns 0 for any other token (parse_pattern
 * reads it, to the same pattern where it is one of these). */
static int parse_common(const char *san, size_t n, san_pattern *pattern) {
    if (n > 0 && is_check_mark(san[n - 1])) n--;
    if (n < 2 || n > 4 || !is_file_char(san[n - 2]) || !is_rank_char(san[n - 1])) return 0;
    pattern->to = square_from_chars(san[n - 2], san[n - 1]);
    if (n == 2) { /* san[0] is the target's file */
        pattern->piece = CN_PAWN;
        pattern->from_file = san[0] - 'a';
        return 1;
    }
    if (n == 3 && piece_from_letter(san[0]) >= 0) {
        pattern->piece = piece_from_letter(san[0]);
        return 1;
    }
    if (n != 4 || san[1] != 'x') return 0;
    if (piece_from_letter(san[0]) >= 0) {
        pattern->piece = piece_from_letter(san[0]);
        return 1;
    }
    if (!is_file_char(san[0]) || (san[2] - san[0] != 1 && san[0] - san[2] != 1)) return 0;
    pattern->piece = CN_PAWN;
    pattern->from_file = san[0] - 'a';
    return 1;
}

cn_status pgn_move_from_san(const cn_position *pos, int in_check, const char *san, size_t len, cn_move *out) {
    san_pattern pattern = {0, -1, -1, -1, 0, -1};
    if (san == NULL) return CN_ERR_BAD_MOVE;
    if (!parse_common(san, len, &pattern)) {
        const size_t n = strip_suffixes(san, len);
        if (n == 0) return CN_ERR_BAD_MOVE;
        const cn_status status = parse_pattern(san, n, &pattern);
        if (status != CN_OK) return status;
    }
    cn_move found = CN_MOVE_NONE;
    const int fits = pos->relaxed          ? resolve_listed(pos, &pattern, &found)
                     : pattern.castle_side ? resolve_castling(pos, pattern.castle_side, &found)
                                           : resolve_pattern(pos, &pattern, in_check, &found);
    if (fits != 1) /* none, or ambiguous */
        return CN_ERR_ILLEGAL_MOVE;
    *out = found;
    return CN_OK;
}

cn_status cn_move_from_san(const cn_position *pos, const char *san, size_t len, cn_move *out) {
    return pgn_move_from_san(pos, -1, san, len, out);
}
