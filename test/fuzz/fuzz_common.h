/*
 * fuzz_common.h - shared by the libFuzzer harnesses in this directory.
 *
 * Only the public engine API (chess_native.h, san.h) plus impl.h, so that
 * every runnable code path (pext, bmi2/popcnt/base magic) can be compared
 * with the others on the same fuzzed position. The harnesses compare the
 * engine's move set with the tests' reference generator
 * (test/c/reference_movegen.h).
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

#include "../c/reference_movegen.h"
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

static inline void fuzz_describe(const cn_position *p, char *buf) { cn_fen_write(p, buf, 128); }

/* The engine's legal moves equal the reference's, on every code path, and
 * the counting entry point agrees. Returns the count. */
static inline int fuzz_check_moves(const cn_position *p, cn_move *moves) {
    cn_move ref[CN_MAX_MOVES * 2], sorted[CN_MAX_MOVES];
    char fen[128];
    int n = cn_legal_moves(p, moves);
    FUZZ_CHECK(n >= 0 && n <= CN_MAX_MOVES, "move count %d", n);
    int rn = reference_legal_moves(p, ref);
    memcpy(sorted, moves, sizeof(cn_move) * (size_t)n);
    qsort(sorted, (size_t)n, sizeof(cn_move), reference_compare_moves);
    qsort(ref, (size_t)rn, sizeof(cn_move), reference_compare_moves);
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
