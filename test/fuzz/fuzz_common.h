/*
 * fuzz_common.h - shared by the libFuzzer harnesses in this directory.
 *
 * Only the public engine API (chess_native.h, san.h) plus impl.h, so that
 * every runnable code path (pext, bmi2/popcnt/base magic) can be compared
 * with the others on the same fuzzed position.
 *
 * The reference move generator below is deliberately independent of the
 * engine: it steps over squares by (file, rank) deltas instead of using any
 * attack table, and decides legality by playing each pseudo-legal move on
 * its own copy of the bitboards and asking whether the king is attacked.
 * Slow and simple; the harnesses compare its move set with cn_legal_moves.
 *
 * A failed check prints what failed and calls abort(), which libFuzzer
 * reports as a crash and saves the input.
 */
#ifndef CN_FUZZ_COMMON_H
#define CN_FUZZ_COMMON_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chess_native.h"
#include "impl.h"
#include "san.h"

#define FUZZ_CHECK(cond, ...)                                                                                          \
    do {                                                                                                               \
        if (!(cond)) {                                                                                                 \
            fprintf(stderr, "\nFUZZ CHECK FAILED %s:%d: %s\n  ", __FILE__, __LINE__, #cond);                           \
            fprintf(stderr, __VA_ARGS__);                                                                              \
            fputc('\n', stderr);                                                                                       \
            abort();                                                                                                   \
        }                                                                                                              \
    } while (0)

/* Positions a byte can pick: suite positions chosen for pins, en passant,
 * promotions, Chess960 castling and impossible-but-valid setups. The second
 * field is the chess960 flag they need. */
typedef struct fuzz_fen {
    const char *fen;
    int chess960;
} fuzz_fen;

static const fuzz_fen fuzz_fens[] = {
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 0},
    {"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 0},
    {"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 0},
    {"r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 0},
    {"r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1", 0},
    {"rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 0},
    {"r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", 0},
    {"3R4/8/q4k2/2B5/1NK5/3b4/8/8 w - - 0 1", 0},
    {"5R2/2P5/8/4k3/8/3rK2r/8/8 w - - 0 1", 0},
    {"8/8/8/1k6/3Pp3/8/8/4KQ2 b - d3 0 1", 0},
    {"1b1k4/8/8/1rPpK3/8/8/8/8 w - d6 0 1", 0},
    {"rnbqk1nr/bb3p1p/1q2r3/2pPp3/3P4/7P/1PP1NpPP/R1BQKBNR w KQkq c6 0 1", 0},
    {"8/5bk1/8/2Pp4/8/1K6/8/8 w - d6 0 1", 0},
    {"8/8/1k6/2b5/2pP4/8/5K2/8 b - d3 0 1", 0},
    {"r3k2r/1b4bq/8/8/8/8/7B/R3K2R w KQkq - 0 1", 0},
    {"r3k2r/8/3Q4/8/8/5q2/8/R3K2R b KQkq - 0 1", 0},
    {"2K2r2/4P3/8/8/8/8/8/3k4 w - - 0 1", 0},
    {"8/P1k5/K7/8/8/8/8/8 w - - 0 1", 0},
    {"n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1", 0},
    {"3k4/3p4/8/K1P4r/8/8/8/8 b - - 0 1", 0},
    {"QQQQQQQK/QQQQQQQQ/8/8/8/8/8/7k b - - 0 1", 0},
    {"r1k1r2q/p1ppp1pp/8/8/8/8/P1PPP1PP/R1K1R2Q w KQkq - 0 1", 1},
    {"r1k2r1q/p1ppp1pp/8/8/8/8/P1PPP1PP/R1K2R1Q w KQkq - 0 1", 1},
    {"8/8/8/4B2b/6nN/8/5P2/2R1K2k w Q - 0 1", 1},
    {"2r5/8/8/8/8/8/6PP/k2KR3 w K - 0 1", 1},
    {"4r3/3k4/8/8/8/8/6PP/qR1K1R2 w KQ - 0 1", 1},
    {"qr1kbb1r/1pp2ppp/3npn2/3pN3/1p3P2/4PN2/P1PP2PP/QR1KBB1R w HBhb - 0 1", 1},
    {"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", 1},
    {"rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/RKRNNQBB w CAca - 0 1", 1},
};
#define FUZZ_FEN_COUNT ((int)(sizeof fuzz_fens / sizeof fuzz_fens[0]))

static const cn_impl *fuzz_impls[4];
static int fuzz_impl_count;

static inline void fuzz_init(void) {
    if (cn_init() != CN_OK) {
        fprintf(stderr, "cn_init failed: %s\n", cn_init_message());
        abort();
    }
    const cn_impl *all[4] = {cn_impl_pext, cn_impl_bmi2, cn_impl_popcnt, cn_impl_base};
    for (int i = 0; i < FUZZ_FEN_COUNT; i++) {
        cn_position p;
        cn_fen_error err;
        if (cn_fen_parse(&p, fuzz_fens[i].fen, strlen(fuzz_fens[i].fen), fuzz_fens[i].chess960, &err) != CN_OK) {
            fprintf(stderr, "built-in FEN %s rejected: %s\n", fuzz_fens[i].fen, err.message);
            abort();
        }
    }
    fuzz_impl_count = 0;
    for (int i = 0; i < 4; i++)
        if (cn_impl_runnable(all[i])) fuzz_impls[fuzz_impl_count++] = all[i];
}

/* --- the independent reference generator ---------------------------------- */

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

static inline int ref_legal_moves(const cn_position *p, cn_move *out) {
    static const int knight[8][2] = {{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
    static const int dirs[8][2] = {{1, 0}, {0, 1}, {-1, 0}, {0, -1}, {1, 1}, {-1, 1}, {-1, -1}, {1, -1}};
    const int us = p->side, them = us ^ 1;
    const uint64_t own = p->by_color[us], occ = p->by_color[0] | p->by_color[1];
    int n = 0;
    for (int from = 0; from < 64; from++) {
        if (!(own & (1ULL << from))) continue;
        int color;
        const int type = ref_piece_at(p, from, &color);
        const int f = from & 7, r = from >> 3;
        if (type == CN_PAWN) {
            const int dir = us == CN_WHITE ? 1 : -1;
            const int last = us == CN_WHITE ? 7 : 0, start = us == CN_WHITE ? 1 : 6;
            const int r1 = r + dir;
            if (!ref_on_board(f, r1)) continue;
            for (int df = -1; df <= 1; df++) {
                if (!ref_on_board(f + df, r1)) continue;
                const int to = r1 * 8 + f + df;
                const uint64_t tb = 1ULL << to;
                int ok;
                if (df == 0)
                    ok = !(occ & tb);
                else
                    ok = (p->by_color[them] & tb) != 0;
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
        } else if (type == CN_KNIGHT || type == CN_KING) {
            for (int i = 0; i < 8; i++) {
                int nf = f + (type == CN_KNIGHT ? knight[i][0] : dirs[i][0]);
                int nr = r + (type == CN_KNIGHT ? knight[i][1] : dirs[i][1]);
                if (!ref_on_board(nf, nr) || (own & (1ULL << (nr * 8 + nf)))) continue;
                n = ref_add(p, out, n, from, nr * 8 + nf, CN_MOVE_NORMAL, 0);
            }
        } else {
            const int first = type == CN_BISHOP ? 4 : 0, end = type == CN_ROOK ? 4 : 8;
            for (int i = first; i < end; i++) {
                for (int nf = f + dirs[i][0], nr = r + dirs[i][1]; ref_on_board(nf, nr);
                     nf += dirs[i][0], nr += dirs[i][1]) {
                    uint64_t b = 1ULL << (nr * 8 + nf);
                    if (own & b) break;
                    n = ref_add(p, out, n, from, nr * 8 + nf, CN_MOVE_NORMAL, 0);
                    if (occ & b) break;
                }
            }
        }
    }
    /* Castling, for any king and rook placement on the back rank. */
    const uint64_t king_bb = p->by_type[CN_KING] & own;
    const int king = __builtin_ctzll(king_bb);
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
        /* The king's transit squares (not its destination) must not be
         * attacked with the king off the board; the destination is tested
         * by playing the move. */
        int safe = 1;
        const uint64_t transit = ref_rank_span(king, king_to) & ~(1ULL << king_to);
        for (int s = 0; s < 64 && safe; s++)
            if ((transit & (1ULL << s)) && ref_attacked(p, s, them, occ & ~(1ULL << king))) safe = 0;
        if (!safe) continue;
        n = ref_add(p, out, n, king, rook, CN_MOVE_CASTLING, 0);
    }
    return n;
}

static inline int fuzz_compare_moves(const void *a, const void *b) {
    return (int)*(const cn_move *)a - (int)*(const cn_move *)b;
}

static inline void fuzz_describe(const cn_position *p, char *buf) { cn_fen_write(p, buf, 128); }

/* The engine's legal moves equal the reference's, on every code path, and
 * the counting entry point agrees. Returns the count. */
static inline int fuzz_check_moves(const cn_position *p, cn_move *moves) {
    cn_move ref[CN_MAX_MOVES * 2], sorted[CN_MAX_MOVES];
    char fen[128];
    int n = cn_legal_moves(p, moves);
    FUZZ_CHECK(n >= 0 && n <= CN_MAX_MOVES, "move count %d", n);
    int rn = ref_legal_moves(p, ref);
    memcpy(sorted, moves, sizeof(cn_move) * (size_t)n);
    qsort(sorted, (size_t)n, sizeof(cn_move), fuzz_compare_moves);
    qsort(ref, (size_t)rn, sizeof(cn_move), fuzz_compare_moves);
    if (rn != n || memcmp(sorted, ref, sizeof(cn_move) * (size_t)n) != 0) {
        fuzz_describe(p, fen);
        fprintf(stderr, "movegen mismatch at %s (chess960 %d): engine %d, reference %d\n", fen, p->chess960, n, rn);
        for (int i = 0, j = 0; i < n || j < rn;) {
            if (j >= rn || (i < n && sorted[i] < ref[j]))
                fprintf(stderr, "  engine only: 0x%04x\n", sorted[i++]);
            else if (i >= n || ref[j] < sorted[i])
                fprintf(stderr, "  reference only: 0x%04x\n", ref[j++]);
            else
                i++, j++;
        }
        FUZZ_CHECK(0, "movegen differs from the reference");
    }
    FUZZ_CHECK(cn_count_legal_moves(p) == n, "count %d vs list %d", cn_count_legal_moves(p), n);
    for (int k = 0; k < fuzz_impl_count; k++) {
        cn_move other[CN_MAX_MOVES];
        int on = fuzz_impls[k]->generate(p, other);
        FUZZ_CHECK(on == n && memcmp(other, moves, sizeof(cn_move) * (size_t)n) == 0,
                   "path %s lists %d moves, active %d", fuzz_impls[k]->name, on, n);
        FUZZ_CHECK(fuzz_impls[k]->count(p) == n, "path %s counts differently", fuzz_impls[k]->name);
    }
    return n;
}

static inline void fuzz_dump(const char *label, const cn_position *p) {
    fprintf(stderr, "%s:", label);
    for (int t = 0; t < 6; t++) fprintf(stderr, " %016llx", (unsigned long long)p->by_type[t]);
    fprintf(stderr,
            " | %016llx %016llx | key %016llx full %u half %u side %u castling %u ep %u rooks %u %u %u %u 960 %u"
            " reserved %u %u %u %u %u %u\n",
            (unsigned long long)p->by_color[0], (unsigned long long)p->by_color[1], (unsigned long long)p->key,
            p->fullmove, p->halfmove, p->side, p->castling, p->ep_square, p->castle_rook[0], p->castle_rook[1],
            p->castle_rook[2], p->castle_rook[3], p->chess960, p->reserved[0], p->reserved[1], p->reserved[2],
            p->reserved[3], p->reserved[4], p->reserved[5]);
}

/* FEN out and back in gives the same position (except an en-passant square
 * that only Polyglot sees), and writing again gives the same text. */
static inline void fuzz_check_fen_round_trip(const cn_position *p, const cn_move *moves, int n) {
    char fen[128], fen2[128];
    size_t len = cn_fen_write(p, fen, sizeof fen);
    FUZZ_CHECK(len < 100 && strlen(fen) == len, "cn_fen_write length %zu", len);
    cn_position again;
    cn_fen_error err;
    cn_status status = cn_fen_parse(&again, fen, len, p->chess960, &err);
    FUZZ_CHECK(status == CN_OK, "re-parse of written FEN '%s' failed: %s", fen, err.message);
    cn_position expected = *p;
    int ep_legal = 0;
    for (int i = 0; i < n; i++) ep_legal |= cn_move_kind(moves[i]) == CN_MOVE_EN_PASSANT;
    if (!ep_legal) expected.ep_square = CN_NO_SQUARE;
    /* cn_position_validate does not look at reserved[] (documented as
     * zero); FEN cannot carry it. */
    memset(expected.reserved, 0, sizeof expected.reserved);
    expected.key = cn_position_compute_key(&expected);
    if (memcmp(&expected, &again, sizeof again) != 0) {
        fuzz_dump("expected", &expected);
        fuzz_dump("re-parsed", &again);
        FUZZ_CHECK(0, "round trip through '%s' changed the position", fen);
    }
    cn_fen_write(&again, fen2, sizeof fen2);
    FUZZ_CHECK(strcmp(fen, fen2) == 0, "FEN not canonical: '%s' then '%s'", fen, fen2);
}

/* Every legal move's UCI and SAN strings parse back to that move. */
static inline void fuzz_check_notation(const cn_position *p, const cn_move *moves, int n) {
    for (int i = 0; i < n; i++) {
        char uci[6], san[CN_SAN_MAX];
        cn_move back = CN_MOVE_NONE;
        int ulen = cn_move_to_uci(p, moves[i], uci);
        FUZZ_CHECK(ulen == (int)strlen(uci) && (ulen == 4 || ulen == 5), "uci length %d", ulen);
        cn_status st = cn_move_from_uci(p, uci, (size_t)ulen, &back);
        FUZZ_CHECK(st == CN_OK, "UCI %s of a legal move does not parse (status %d)", uci, st);
        FUZZ_CHECK(back == moves[i], "UCI %s parses to 0x%04x, expected 0x%04x", uci, back, moves[i]);
        int slen = cn_move_to_san(p, moves[i], san);
        FUZZ_CHECK(slen > 0 && slen < CN_SAN_MAX && slen == (int)strlen(san), "SAN length %d", slen);
        back = CN_MOVE_NONE;
        st = cn_move_from_san(p, san, (size_t)slen, &back);
        FUZZ_CHECK(st == CN_OK && back == moves[i], "SAN %s parses to 0x%04x (status %d), expected 0x%04x", san, back,
                   st, moves[i]);
    }
}

/* cn_make keeps the incremental key and validity; cn_unmake restores the
 * position bit for bit. */
static inline void fuzz_check_make_unmake(const cn_position *p, cn_move move) {
    cn_position c = *p;
    cn_undo undo;
    cn_make(&c, move, &undo);
    FUZZ_CHECK(c.key == cn_position_compute_key(&c), "incremental key after move 0x%04x", move);
    FUZZ_CHECK(cn_position_validate(&c) == CN_OK, "position invalid after move 0x%04x", move);
    cn_unmake(&c, &undo);
    FUZZ_CHECK(memcmp(&c, p, sizeof c) == 0, "unmake of 0x%04x is not bit-identical", move);
}

/* Exact-size heap copy, so that ASan catches a read past len. */
static inline char *fuzz_exact_copy(const uint8_t *data, size_t len) {
    char *copy = malloc(len ? len : 1);
    if (len) memcpy(copy, data, len);
    return copy;
}

#endif /* CN_FUZZ_COMMON_H */
