/*
 * reference_movegen.h - the tests' reference move generator, shared by
 * test/c/engine_test.c and the fuzz harnesses (test/fuzz/fuzz_common.h).
 *
 * Deliberately independent of the engine: it steps over squares by (file,
 * rank) deltas instead of using any attack table, and decides legality by
 * playing each pseudo-legal move on its own copy of the bitboards and asking
 * whether the king is attacked; castling follows the rules as written (path
 * empty but for king and rook, no square the king crosses attacked). Slow
 * and simple: only the public position struct and move encoding are shared
 * with the engine, so a mistake in the engine's tables, masks or make cannot
 * hide in both.
 *
 *   int reference_legal_moves(const cn_position *p, cn_move *out)
 *       fills out (room for CN_MAX_MOVES) with the legal moves, in no
 *       particular order; reference_compare_moves orders moves for qsort.
 */
#ifndef CN_REFERENCE_MOVEGEN_H
#define CN_REFERENCE_MOVEGEN_H

#include <stdint.h>

#include "chess_native.h"

static inline int ref_on_board(int file, int rank) { return file >= 0 && file < 8 && rank >= 0 && rank < 8; }

static inline int ref_piece_at(const cn_position *p, int square, int *color) {
    uint64_t b = 1ULL << square;
    for (int t = 0; t < 6; t++)
        if (p->by_type[t] & b) {
            *color = (p->by_color[CN_BLACK] & b) ? CN_BLACK : CN_WHITE;
            return t;
        }
    return -1;
}

/* Is `square` attacked by colour `by`, walking rays over `occ`? */
static inline int ref_attacked(const cn_position *p, int square, int by, uint64_t occ) {
    static const int knight[8][2] = {{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
    static const int king[8][2] = {{1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}, {1, -1}};
    const uint64_t them = p->by_color[by] & occ;
    const int f = square & 7, r = square >> 3;
    for (int i = 0; i < 8; i++) {
        int nf = f + knight[i][0], nr = r + knight[i][1];
        if (ref_on_board(nf, nr) && (p->by_type[CN_KNIGHT] & them & (1ULL << (nr * 8 + nf)))) return 1;
        nf = f + king[i][0];
        nr = r + king[i][1];
        if (ref_on_board(nf, nr) && (p->by_type[CN_KING] & them & (1ULL << (nr * 8 + nf)))) return 1;
    }
    /* A pawn of `by` attacks from one rank behind (as seen from `by`). */
    int pr = by == CN_WHITE ? r - 1 : r + 1;
    for (int df = -1; df <= 1; df += 2)
        if (ref_on_board(f + df, pr) && (p->by_type[CN_PAWN] & them & (1ULL << (pr * 8 + f + df)))) return 1;
    for (int i = 0; i < 8; i++) {
        const int diagonal = king[i][0] != 0 && king[i][1] != 0;
        const uint64_t sliders = (p->by_type[CN_QUEEN] | p->by_type[diagonal ? CN_BISHOP : CN_ROOK]) & them;
        for (int nf = f + king[i][0], nr = r + king[i][1]; ref_on_board(nf, nr); nf += king[i][0], nr += king[i][1]) {
            uint64_t b = 1ULL << (nr * 8 + nf);
            if (sliders & b) return 1;
            if (occ & b) break;
        }
    }
    return 0;
}

static inline void ref_remove(cn_position *p, int square) {
    uint64_t b = ~(1ULL << square);
    for (int t = 0; t < 6; t++) p->by_type[t] &= b;
    p->by_color[0] &= b;
    p->by_color[1] &= b;
}

static inline void ref_put(cn_position *p, int square, int color, int type) {
    p->by_type[type] |= 1ULL << square;
    p->by_color[color] |= 1ULL << square;
}

/* Plays the move on the bitboards only and reports whether our king is
 * then attacked. */
static inline int ref_leaves_king_attacked(const cn_position *p, int from, int to, int kind, int promo_type) {
    cn_position c = *p;
    const int us = p->side;
    int color;
    int type = ref_piece_at(p, from, &color);
    if (kind == CN_MOVE_CASTLING) {
        int queenside = to < from;
        int rank = from >> 3;
        ref_remove(&c, from);
        ref_remove(&c, to);
        ref_put(&c, rank * 8 + (queenside ? 2 : 6), us, CN_KING);
        ref_put(&c, rank * 8 + (queenside ? 3 : 5), us, CN_ROOK);
    } else {
        ref_remove(&c, to);
        ref_remove(&c, from);
        if (kind == CN_MOVE_EN_PASSANT) ref_remove(&c, us == CN_WHITE ? to - 8 : to + 8);
        ref_put(&c, to, us, kind == CN_MOVE_PROMOTION ? promo_type : type);
    }
    uint64_t king = c.by_type[CN_KING] & c.by_color[us];
    return ref_attacked(&c, __builtin_ctzll(king), us ^ 1, c.by_color[0] | c.by_color[1]);
}

static inline int ref_add(const cn_position *p, cn_move *out, int n, int from, int to, int kind, int promo_type) {
    if (ref_leaves_king_attacked(p, from, to, kind, promo_type)) return n;
    unsigned promo = kind == CN_MOVE_PROMOTION ? (unsigned)(promo_type - CN_KNIGHT) : 0u;
    out[n++] = (cn_move)((unsigned)from | ((unsigned)to << 6) | (promo << 12) | ((unsigned)kind << 14));
    return n;
}

/* Squares strictly between a and b on one rank, plus b. */
static inline uint64_t ref_rank_span(int a, int b) {
    uint64_t m = 0;
    if (a == b) return 0;
    int step = b > a ? 1 : -1;
    for (int s = a + step;; s += step) {
        m |= 1ULL << s;
        if (s == b) break;
    }
    return m;
}

/* A pawn's pushes (one or two steps), captures, en passant and promotions. */
static inline int ref_pawn_moves(const cn_position *p, cn_move *out, int n, int from) {
    const int us = p->side;
    const uint64_t occ = p->by_color[0] | p->by_color[1];
    const int f = from & 7, r = from >> 3;
    const int dir = us == CN_WHITE ? 1 : -1;
    const int last = us == CN_WHITE ? 7 : 0, start = us == CN_WHITE ? 1 : 6;
    const int r1 = r + dir;
    if (!ref_on_board(f, r1)) return n;
    for (int df = -1; df <= 1; df++) {
        if (!ref_on_board(f + df, r1)) continue;
        const int to = r1 * 8 + f + df;
        const uint64_t tb = 1ULL << to;
        const int ok = df == 0 ? !(occ & tb) : (p->by_color[us ^ 1] & tb) != 0;
        if (df != 0 && !ok && p->ep_square == to) {
            n = ref_add(p, out, n, from, to, CN_MOVE_EN_PASSANT, 0);
            continue;
        }
        if (!ok) continue;
        if (r1 == last)
            for (int promo = CN_QUEEN; promo >= CN_KNIGHT; promo--)
                n = ref_add(p, out, n, from, to, CN_MOVE_PROMOTION, promo);
        else
            n = ref_add(p, out, n, from, to, CN_MOVE_NORMAL, 0);
        if (df == 0 && r == start) {
            const int to2 = (r1 + dir) * 8 + f;
            if (!(occ & (1ULL << to2))) n = ref_add(p, out, n, from, to2, CN_MOVE_NORMAL, 0);
        }
    }
    return n;
}

/* A knight's or king's steps, given as (file, rank) deltas. */
static inline int ref_step_moves(const cn_position *p, cn_move *out, int n, int from, const int steps[8][2]) {
    const uint64_t own = p->by_color[p->side];
    for (int i = 0; i < 8; i++) {
        const int nf = (from & 7) + steps[i][0], nr = (from >> 3) + steps[i][1];
        if (!ref_on_board(nf, nr) || (own & (1ULL << (nr * 8 + nf)))) continue;
        n = ref_add(p, out, n, from, nr * 8 + nf, CN_MOVE_NORMAL, 0);
    }
    return n;
}

/* A slider's moves along directions[first, end), each up to the first
 * piece (captured when it is theirs). */
static inline int ref_slider_moves(const cn_position *p, cn_move *out, int n, int from, const int directions[8][2],
                                   int first, int end) {
    const uint64_t own = p->by_color[p->side], occ = p->by_color[0] | p->by_color[1];
    for (int i = first; i < end; i++) {
        const int df = directions[i][0], dr = directions[i][1];
        for (int nf = (from & 7) + df, nr = (from >> 3) + dr; ref_on_board(nf, nr); nf += df, nr += dr) {
            const uint64_t b = 1ULL << (nr * 8 + nf);
            if (own & b) break;
            n = ref_add(p, out, n, from, nr * 8 + nf, CN_MOVE_NORMAL, 0);
            if (occ & b) break;
        }
    }
    return n;
}

/* Castling, for any king and rook placement on the back rank: not out of
 * check, the squares both cross and land on empty but for themselves, no
 * square the king crosses attacked (with the king off the board); the
 * king's destination is tested by playing the move. */
static inline int ref_castling_moves(const cn_position *p, cn_move *out, int n) {
    const int us = p->side, them = us ^ 1;
    const uint64_t occ = p->by_color[0] | p->by_color[1];
    const int king = __builtin_ctzll(p->by_type[CN_KING] & p->by_color[us]);
    if (ref_attacked(p, king, them, occ)) return n;
    for (int right = 2 * us; right < 2 * us + 2; right++) {
        if (!(p->castling & (1u << right))) continue;
        const int rook = p->castle_rook[right];
        const int queenside = right & 1, rank = us == CN_WHITE ? 0 : 7;
        const int king_to = rank * 8 + (queenside ? 2 : 6), rook_to = rank * 8 + (queenside ? 3 : 5);
        const uint64_t movers = (1ULL << king) | (1ULL << rook);
        const uint64_t need_empty =
            (ref_rank_span(king, king_to) | ref_rank_span(rook, rook_to) | (1ULL << king_to) | (1ULL << rook_to)) &
            ~movers;
        if (occ & need_empty) continue;
        int safe = 1;
        const uint64_t transit = ref_rank_span(king, king_to) & ~(1ULL << king_to);
        for (int s = 0; s < 64 && safe; s++)
            if ((transit & (1ULL << s)) && ref_attacked(p, s, them, occ & ~(1ULL << king))) safe = 0;
        if (safe) n = ref_add(p, out, n, king, rook, CN_MOVE_CASTLING, 0);
    }
    return n;
}

static inline int reference_legal_moves(const cn_position *p, cn_move *out) {
    static const int knight_steps[8][2] = {{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
    /* Orthogonal first, then diagonal: a king steps in all eight. */
    static const int directions[8][2] = {{1, 0}, {0, 1}, {-1, 0}, {0, -1}, {1, 1}, {-1, 1}, {-1, -1}, {1, -1}};
    const uint64_t own = p->by_color[p->side];
    int n = 0;
    for (int from = 0; from < 64; from++) {
        if (!(own & (1ULL << from))) continue;
        int color;
        switch (ref_piece_at(p, from, &color)) {
        case CN_PAWN:
            n = ref_pawn_moves(p, out, n, from);
            break;
        case CN_KNIGHT:
            n = ref_step_moves(p, out, n, from, knight_steps);
            break;
        case CN_BISHOP:
            n = ref_slider_moves(p, out, n, from, directions, 4, 8);
            break;
        case CN_ROOK:
            n = ref_slider_moves(p, out, n, from, directions, 0, 4);
            break;
        case CN_QUEEN:
            n = ref_slider_moves(p, out, n, from, directions, 0, 8);
            break;
        default:
            n = ref_step_moves(p, out, n, from, directions);
            break;
        }
    }
    return ref_castling_moves(p, out, n);
}

/* For qsort: moves as numbers, so that two move sets compare with memcmp. */
static inline int reference_compare_moves(const void *a, const void *b) {
    return (int)*(const cn_move *)a - (int)*(const cn_move *)b;
}

#endif /* CN_REFERENCE_MOVEGEN_H */
