/*
 * relaxed.c - moves, make/unmake, check and perft on relaxed positions, by
 * chess.js 1.x's rules (see cn_fen_parse_relaxed): plain bitboard code off
 * the strict positions' paths, built for any men on any square.
 *
 * Room for moves: a relaxed position may hold up to 64 men, and no bound
 * below CN_MAX_MOVES is proven for every placement (a search over
 * placements of one side's men found no more than about 290 moves), so the
 * list is guarded: moves past CN_MAX_MOVES are never written.
 */
#include "relaxed.h"

#include <string.h>

#include "position.h"
#include "slider_attacks.h"

typedef struct move_list {
    cn_move *out;
    int count;
} move_list;

static void push(move_list *list, cn_move move) {
    if (list->count < CN_MAX_MOVES) list->out[list->count++] = move;
}

/* A move, or when `promotes` the four promotions (chess.js promotes a pawn
 * reaching its last rank to n, b, r or q). */
static void add(move_list *list, unsigned from, unsigned to, unsigned kind, int promotes) {
    if (!promotes) {
        push(list, cn_move_encode(from, to, kind, 0));
        return;
    }
    for (unsigned piece = CN_KNIGHT; piece <= CN_QUEEN; piece++)
        push(list, cn_move_encode(from, to, CN_MOVE_PROMOTION, piece));
}

static bitboard occupied_of(const cn_position *p) { return p->by_color[CN_WHITE] | p->by_color[CN_BLACK]; }

static int attacked(const cn_position *p, unsigned square, int by) {
    return attackers_to(p, square, occupied_of(p), by) != 0;
}

int cn_relaxed_king_attacked(const cn_position *p, int color) {
    const unsigned king = p->relaxed_king[color];
    return king < 64 && attacked(p, king, color ^ 1);
}

/* --- the pieces ----------------------------------------------------------- */

/* The piece on a square as color * 8 + type, or -1. */
static int piece_code(const cn_position *p, unsigned square) {
    int color = CN_WHITE;
    const int type = cn_piece_on(p, square, &color);
    return type < 0 ? -1 : color * 8 + type;
}

static void lift(cn_position *p, unsigned square) {
    const bitboard keep = ~bb_square(square);
    for (int type = CN_PAWN; type <= CN_KING; type++) p->by_type[type] &= keep;
    p->by_color[CN_WHITE] &= keep;
    p->by_color[CN_BLACK] &= keep;
}

static void place(cn_position *p, unsigned square, int code) {
    if (code < 0) return;
    p->by_type[code & 7] |= bb_square(square);
    p->by_color[code >> 3] |= bb_square(square);
}

/* Castling's rook squares for a king going from..to: from three files
 * beyond the king's kingside target (four queenside) to beside the king.
 * 0 when that square is off the board (nothing then moves with the king). */
static int castle_rook_squares(unsigned from, unsigned to, unsigned *rook_from, unsigned *rook_to) {
    const unsigned file = square_file(to);
    if (to > from) {
        if (file == 7) return 0;
        *rook_from = to + 1;
        *rook_to = to - 1;
    } else {
        if (file < 2) return 0;
        *rook_from = to - 2;
        *rook_to = to + 1;
    }
    return 1;
}

/* A move's piece changes as chess.js makes them: whatever stands on `to`
 * (also, for an en-passant capture onto a square chess.js let stand
 * occupied, a man of the mover's side) and on an en-passant victim's square
 * is lifted; castling a king moves whatever stands on the rook's square. */
static void apply_pieces(cn_position *p, cn_move move, int us) {
    const unsigned from = cn_move_from(move), to = cn_move_to(move), kind = cn_move_kind(move);
    const int mover = piece_code(p, from);
    unsigned rook_from, rook_to;
    lift(p, to);
    lift(p, from);
    place(p, to, kind == CN_MOVE_PROMOTION ? us * 8 + (int)cn_move_promotion(move) : mover);
    if (kind == CN_MOVE_EN_PASSANT) {
        lift(p, cn_ep_victim(to, us));
    } else if (kind == CN_MOVE_CASTLING && (mover & 7) == CN_KING &&
               castle_rook_squares(from, to, &rook_from, &rook_to)) {
        const int rook = piece_code(p, rook_from);
        lift(p, rook_from);
        place(p, rook_to, rook);
    }
}

/* --- generation ----------------------------------------------------------- */

static void pawn_moves(const cn_position *p, move_list *list) {
    const int us = p->side;
    const bitboard occupied = occupied_of(p), them = p->by_color[us ^ 1];
    const unsigned last = us == CN_WHITE ? 7u : 0u, second = us == CN_WHITE ? 1u : 6u;
    bitboard pawns = p->by_type[CN_PAWN] & p->by_color[us];
    while (pawns) {
        const unsigned from = bb_pop_lsb(&pawns);
        if (square_rank(from) == last) continue; /* chess.js would push it off its board */
        const unsigned one = us == CN_WHITE ? from + 8 : from - 8;
        const int promotes = square_rank(one) == last;
        if (!(occupied & bb_square(one))) {
            add(list, from, one, CN_MOVE_NORMAL, promotes);
            const unsigned two = us == CN_WHITE ? one + 8 : one - 8;
            if (square_rank(from) == second && !(occupied & bb_square(two))) add(list, from, two, CN_MOVE_NORMAL, 0);
        }
        bitboard targets = cn_pawn_attacks[us][from];
        while (targets) {
            const unsigned to = bb_pop_lsb(&targets);
            if (them & bb_square(to))
                add(list, from, to, CN_MOVE_NORMAL, promotes);
            else if (to == p->ep_square && !promotes) /* a move cannot be both */
                add(list, from, to, CN_MOVE_EN_PASSANT, 0);
        }
    }
}

static bitboard piece_attacks(int type, unsigned from, bitboard occupied) {
    switch (type) {
    case CN_KNIGHT:
        return cn_knight_attacks[from];
    case CN_BISHOP:
        return bishop_attacks(from, occupied);
    case CN_ROOK:
        return rook_attacks(from, occupied);
    case CN_QUEEN:
        return bishop_attacks(from, occupied) | rook_attacks(from, occupied);
    default:
        return cn_king_attacks[from];
    }
}

static void piece_moves(const cn_position *p, move_list *list) {
    const bitboard own = p->by_color[p->side], occupied = occupied_of(p);
    for (int type = CN_KNIGHT; type <= CN_KING; type++) {
        bitboard pieces = p->by_type[type] & own;
        while (pieces) {
            const unsigned from = bb_pop_lsb(&pieces);
            bitboard targets = piece_attacks(type, from, occupied) & ~own;
            while (targets) add(list, from, bb_pop_lsb(&targets), CN_MOVE_NORMAL, 0);
        }
    }
}

/* chess.js's castling: the right, a man on the king square, the squares
 * between it and the target empty (queenside also the third, when on the
 * board), the king square and the two it crosses unattacked. The man is
 * the king, or what took it and stands there still (chess.js castles that
 * man then, and no rook with it); not the opponent's king, which would
 * leave its side's king square behind. */
static void castling_moves(const cn_position *p, move_list *list) {
    const int us = p->side, them = us ^ 1;
    const unsigned king = p->relaxed_king[us];
    if (king >= 64 || !(occupied_of(p) & bb_square(king)) ||
        (p->by_type[CN_KING] & p->by_color[them] & bb_square(king)))
        return;
    const unsigned rights = (unsigned)(p->castling >> (2 * us)) & 3u; /* 1: kingside, 2: queenside */
    const unsigned file = square_file(king);
    const bitboard occupied = occupied_of(p);
    if ((rights & 1u) && file <= 5 && !(occupied & (bb_square(king + 1) | bb_square(king + 2))) &&
        !attacked(p, king, them) && !attacked(p, king + 1, them) && !attacked(p, king + 2, them))
        push(list, cn_move_encode(king, king + 2, CN_MOVE_CASTLING, 0));
    if ((rights & 2u) && file >= 2 && !(occupied & (bb_square(king - 1) | bb_square(king - 2))) &&
        (file < 3 || !(occupied & bb_square(king - 3))) && !attacked(p, king, them) && !attacked(p, king - 1, them) &&
        !attacked(p, king - 2, them))
        push(list, cn_move_encode(king, king - 2, CN_MOVE_CASTLING, 0));
}

/* Whether the mover's king square (where its king goes, when it moves) is
 * unattacked after the move; always without a king square. */
static int leaves_king_safe(const cn_position *p, cn_move move) {
    const int us = p->side;
    unsigned king = p->relaxed_king[us];
    if (king >= 64) return 1;
    if (p->by_type[CN_KING] & bb_square(cn_move_from(move))) king = cn_move_to(move);
    cn_position after = *p;
    apply_pieces(&after, move, us);
    return !attacked(&after, king, us ^ 1);
}

/* The pseudo-legal moves go to a list of their own: `out` gets the legal
 * ones and nothing past them. */
int cn_relaxed_moves(const cn_position *p, cn_move *out) {
    cn_move pseudo[CN_MAX_MOVES];
    move_list list = {pseudo, 0};
    pawn_moves(p, &list);
    piece_moves(p, &list);
    castling_moves(p, &list);
    int legal = 0;
    for (int i = 0; i < list.count; i++)
        if (leaves_king_safe(p, pseudo[i])) out[legal++] = pseudo[i];
    return legal;
}

/* --- make and unmake ------------------------------------------------------ */

/* chess.js's castling rights after a move: a king move loses its side's,
 * a move from a rook corner of the mover's side or onto one of the
 * opponent's that corner's. */
static uint8_t rights_after(uint8_t castling, int mover, unsigned from, unsigned to, int us) {
    static const uint8_t corner[2][2] = {{7, 0}, {63, 56}}; /* [color][kingside, queenside] */
    static const uint8_t right[2][2] = {{CN_WHITE_OO, CN_WHITE_OOO}, {CN_BLACK_OO, CN_BLACK_OOO}};
    if ((mover & 7) == CN_KING) castling &= (uint8_t)~cn_side_rights(us);
    for (int side = 0; side < 2; side++) {
        if (from == corner[us][side]) castling &= (uint8_t)~right[us][side];
        if (to == corner[us ^ 1][side]) castling &= (uint8_t)~right[us ^ 1][side];
    }
    return castling;
}

/* The move on p; undo (may be NULL: then the key is left stale) gets what
 * cn_relaxed_unmake needs. */
static void play(cn_position *p, cn_move move, cn_undo *undo) {
    const int us = p->side;
    const unsigned from = cn_move_from(move), to = cn_move_to(move), kind = cn_move_kind(move);
    const int mover = piece_code(p, from), target = piece_code(p, to);
    if (undo) {
        cn_save_state(p, undo);
        undo->captured = (int8_t)target;
        undo->moved_aside = (int8_t)(kind == CN_MOVE_EN_PASSANT ? piece_code(p, cn_ep_victim(to, us)) : -1);
        undo->move = move;
    }
    apply_pieces(p, move, us);
    if ((mover & 7) == CN_KING) p->relaxed_king[us] = (uint8_t)to;
    p->castling = rights_after(p->castling, mover, from, to, us);
    const int double_step = (mover & 7) == CN_PAWN && (from + 16 == to || to + 16 == from);
    p->ep_square = double_step ? cn_ep_square_after(p, from, to, us) : (uint8_t)CN_NO_SQUARE;
    /* A castled man is chess.js's king move whatever it is: no pawn move. */
    if (((mover & 7) == CN_PAWN && kind != CN_MOVE_CASTLING) || target >= 0)
        p->halfmove = 0;
    else if (p->halfmove < UINT16_MAX)
        p->halfmove++;
    if (us == CN_BLACK && p->fullmove < UINT32_MAX) p->fullmove++;
    p->side = (uint8_t)(us ^ 1);
    if (undo) p->key = cn_position_compute_key(p);
}

void cn_relaxed_make(cn_position *p, cn_move move, cn_undo *undo) { play(p, move, undo); }

void cn_relaxed_unmake(cn_position *p, const cn_undo *undo) {
    const int us = p->side ^ 1;
    const cn_move move = undo->move;
    const unsigned from = cn_move_from(move), to = cn_move_to(move), kind = cn_move_kind(move);
    const int placed = piece_code(p, to);
    unsigned rook_from, rook_to;
    lift(p, to);
    place(p, from, kind == CN_MOVE_PROMOTION ? us * 8 + CN_PAWN : placed);
    place(p, to, undo->captured);
    if (kind == CN_MOVE_EN_PASSANT) {
        place(p, cn_ep_victim(to, us), undo->moved_aside);
    } else if (kind == CN_MOVE_CASTLING && (placed & 7) == CN_KING &&
               castle_rook_squares(from, to, &rook_from, &rook_to)) {
        const int rook = piece_code(p, rook_to);
        lift(p, rook_to);
        place(p, rook_from, rook);
    }
    if ((placed & 7) == CN_KING) p->relaxed_king[us] = (uint8_t)from;
    cn_restore_state(p, undo, us);
}

int cn_relaxed_gives_check(const cn_position *p, cn_move move) {
    cn_position after = *p;
    play(&after, move, NULL);
    return cn_relaxed_king_attacked(&after, p->side ^ 1);
}

int cn_relaxed_ep_shown(const cn_position *p) {
    const unsigned ep = p->ep_square;
    const int us = p->side;
    if (ep >= 64 || square_rank(ep) == (us == CN_WHITE ? 0u : 7u)) return 0;
    const unsigned victim = cn_ep_victim(ep, us);
    const bitboard pawns = p->by_type[CN_PAWN] & p->by_color[us];
    for (int step = -1; step <= 1; step += 2) {
        const int file = (int)square_file(victim) + step;
        if (file < 0 || file > 7) continue;
        const unsigned from = (unsigned)((int)victim + step);
        if ((pawns & bb_square(from)) && leaves_king_safe(p, cn_move_encode(from, ep, CN_MOVE_EN_PASSANT, 0))) return 1;
    }
    return 0;
}

/* --- perft ---------------------------------------------------------------- */

uint64_t cn_relaxed_perft(const cn_position *p, int depth) {
    if (depth <= 0) return 1;
    cn_move moves[CN_MAX_MOVES];
    const int count = cn_relaxed_moves(p, moves);
    if (depth == 1) return (uint64_t)count;
    uint64_t nodes = 0;
    for (int i = 0; i < count; i++) {
        cn_position child = *p;
        play(&child, moves[i], NULL);
        nodes += cn_relaxed_perft(&child, depth - 1);
    }
    return nodes;
}

int cn_relaxed_divide(const cn_position *p, int depth, cn_move *moves, uint64_t *counts) {
    const int count = cn_relaxed_moves(p, moves);
    for (int i = 0; i < count; i++) {
        cn_position child = *p;
        play(&child, moves[i], NULL);
        counts[i] = cn_relaxed_perft(&child, depth - 1);
    }
    return count;
}
