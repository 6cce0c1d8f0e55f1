/*
 * position.c - what a position is: the piece on a square, check, the
 * Polyglot key from scratch, and the consistency rules that every struct
 * from outside (a FEN, JS memory) must meet. FEN is in fen.c, make/unmake
 * in make_unmake.c. None of it is on perft's hot path (that uses the
 * copy-make in variants/copy_make.h).
 */
#include "position.h"

#include "relaxed.h"
#include "slider_attacks.h"
#include "zobrist.h"

/* Every byte of the struct is a field: positions compare with memcmp and
 * cross to JS as exactly these bytes. */
_Static_assert(sizeof(cn_position) == 96, "cn_position must be 96 bytes without padding");

int cn_piece_on(const cn_position *pos, unsigned square, int *color) {
    if (square >= 64) return -1;
    const bitboard b = bb_square(square);
    const int type = cn_type_on(pos, b);
    if (type >= 0 && color) *color = (pos->by_color[CN_BLACK] & b) ? CN_BLACK : CN_WHITE;
    return type;
}

int cn_in_check(const cn_position *pos) {
    return pos->relaxed ? cn_relaxed_king_attacked(pos, pos->side) : cn_king_attacked(pos, pos->side);
}

uint64_t cn_zobrist_key(const cn_position *p, const uint64_t *random) {
    uint64_t key = cn_state_key_in(p, random);
    for (int color = 0; color < 2; color++)
        for (int type = CN_PAWN; type <= CN_KING; type++) {
            bitboard b = p->by_type[type] & p->by_color[color];
            while (b) key ^= random[CN_POLYGLOT_PIECE_INDEX(color, type, bb_pop_lsb(&b))];
        }
    return key;
}

uint64_t cn_position_compute_key(const cn_position *p) { return cn_zobrist_key(p, cn_polyglot_random); }

/* --- validation -------------------------------------------------------------- */

int cn_castling_right_applies(const cn_position *p, unsigned right, unsigned rook_square) {
    const int color = cn_right_color(right);
    const unsigned back_rank = color == CN_WHITE ? 0u : 7u;
    const bitboard own = p->by_color[color];
    const bitboard king = p->by_type[CN_KING] & own;
    if (rook_square >= 64 || !king) return 0;
    const unsigned king_square = bb_lsb(king);
    if (square_rank(king_square) != back_rank || square_rank(rook_square) != back_rank) return 0;
    if (!(p->by_type[CN_ROOK] & own & bb_square(rook_square))) return 0;
    return cn_right_queenside(right) ? rook_square < king_square : rook_square > king_square;
}

int cn_ep_capture_legal(const cn_position *p) {
    if (p->ep_square == CN_NO_SQUARE) return 0;
    cn_move moves[CN_MAX_MOVES];
    const int count = cn_legal_moves(p, moves);
    for (int i = 0; i < count; i++)
        if (cn_move_kind(moves[i]) == CN_MOVE_EN_PASSANT) return 1;
    return 0;
}

int cn_ep_square_consistent(const cn_position *p, unsigned ep) {
    if (ep >= 64 || square_rank(ep) != (p->side == CN_WHITE ? 5u : 2u)) return 0;
    const int mover = p->side ^ 1;
    const unsigned pawn_square = cn_ep_victim(ep, p->side);
    const unsigned origin = p->side == CN_WHITE ? ep + 8 : ep - 8;
    const bitboard occupied = p->by_color[CN_WHITE] | p->by_color[CN_BLACK];
    if (!(p->by_type[CN_PAWN] & p->by_color[mover] & bb_square(pawn_square))) return 0;
    return !(occupied & (bb_square(ep) | bb_square(origin)));
}

/* Disjoint boards that agree with each other. */
static int boards_agree(const cn_position *p) {
    const bitboard white = p->by_color[CN_WHITE], black = p->by_color[CN_BLACK];
    if (white & black) return 0;
    bitboard seen = 0;
    for (int type = CN_PAWN; type <= CN_KING; type++) {
        if (p->by_type[type] & seen) return 0;
        seen |= p->by_type[type];
    }
    return seen == (white | black);
}

/* The pieces: boards that agree, one king and at most CN_MAX_MEN_PER_SIDE
 * men a side, no pawn on the first or last rank. */
static int pieces_consistent(const cn_position *p) {
    if (!boards_agree(p)) return 0;
    for (int color = 0; color < 2; color++) {
        const bitboard kings = p->by_type[CN_KING] & p->by_color[color];
        if (!kings || bb_more_than_one(kings)) return 0;
        if (bb_popcount(p->by_color[color]) > CN_MAX_MEN_PER_SIDE) return 0;
    }
    return !(p->by_type[CN_PAWN] & (CN_RANK_1 | CN_RANK_8));
}

/* Every right held applies and names its rook; no rook for a right not held. */
static int castling_consistent(const cn_position *p) {
    for (unsigned right = 0; right < 4; right++) {
        if (!(p->castling & (1u << right))) {
            if (p->castle_rook[right] != CN_NO_SQUARE) return 0;
        } else if (!cn_castling_right_applies(p, right, p->castle_rook[right])) {
            return 0;
        }
    }
    return 1;
}

/* A relaxed struct: boards that agree, a side's king (if any) on its king
 * square, castling rights as letters only (no rook squares), no Chess960. */
static cn_status validate_relaxed(const cn_position *p) {
    if (p->chess960 || !boards_agree(p) || (p->ep_square > 64)) return CN_ERR_BAD_POSITION;
    for (unsigned right = 0; right < 4; right++)
        if (p->castle_rook[right] != CN_NO_SQUARE) return CN_ERR_BAD_POSITION;
    for (int color = 0; color < 2; color++) {
        const unsigned king = p->relaxed_king[color];
        const bitboard allowed = king < 64 ? bb_square(king) : 0;
        if (king > CN_NO_SQUARE || (p->by_type[CN_KING] & p->by_color[color] & ~allowed)) return CN_ERR_BAD_POSITION;
    }
    return CN_OK;
}

cn_status cn_position_validate(const cn_position *p) {
    if (p->side > 1 || p->chess960 > 1 || p->castling > 15 || p->fullmove < 1) return CN_ERR_BAD_POSITION;
    for (size_t i = 0; i < sizeof p->reserved; i++)
        if (p->reserved[i]) return CN_ERR_BAD_POSITION;
    if (p->relaxed > 1) return CN_ERR_BAD_POSITION;
    if (p->relaxed) return validate_relaxed(p);
    if (p->relaxed_king[CN_WHITE] || p->relaxed_king[CN_BLACK]) return CN_ERR_BAD_POSITION;
    if (!pieces_consistent(p) || !castling_consistent(p)) return CN_ERR_BAD_POSITION;
    if (p->ep_square != CN_NO_SQUARE &&
        (!cn_ep_square_consistent(p, p->ep_square) || !cn_pawn_attacks_square(p, p->side, p->ep_square)))
        return CN_ERR_BAD_POSITION;
    if (cn_king_attacked(p, p->side ^ 1)) return CN_ERR_BAD_POSITION;
    return CN_OK;
}
