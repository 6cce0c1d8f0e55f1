/*
 * split_test.c - the split into work units (csrc/engine/include/split.h)
 * against a brute-force one: every move sequence to the split ply played
 * out, its position written as FEN, the FENs sorted and counted. The units
 * must be exactly those FENs with those counts (so positions FEN writes
 * alike, en-passant squares included, are one unit), their counts per root
 * move must add up to the engine's divide, and a level's 128-bit counts
 * must carry and refuse to overflow.
 *
 * Entry point: int split_tests_run(void), returning the number of failures.
 * #included by engine_test.c; every other name starts with sp_.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chess_native.h"
#include "split.h"

int split_tests_run(void);

static int sp_failures;
static long sp_checks;

#define SP_CHECK(cond, ...)                                                                                            \
    do {                                                                                                               \
        sp_checks++;                                                                                                   \
        if (!(cond)) {                                                                                                 \
            sp_failures++;                                                                                             \
            printf("split_test FAIL (line %d): ", __LINE__);                                                           \
            printf(__VA_ARGS__);                                                                                       \
            printf("\n");                                                                                              \
        }                                                                                                              \
    } while (0)

#define SP_FEN_BYTES 100

/* FENs of the positions some plies below a root, one per move sequence. */
typedef struct sp_fens {
    char (*fen)[SP_FEN_BYTES];
    size_t count, capacity;
} sp_fens;

static void sp_collect(const cn_position *pos, int plies, sp_fens *out) {
    if (plies == 0) {
        if (out->count == out->capacity) {
            out->capacity = out->capacity ? out->capacity * 2 : 1024;
            out->fen = realloc(out->fen, out->capacity * SP_FEN_BYTES);
        }
        cn_position clocks_reset = *pos;
        clocks_reset.halfmove = 0;
        clocks_reset.fullmove = 1;
        cn_fen_write(&clocks_reset, out->fen[out->count++], SP_FEN_BYTES);
        return;
    }
    cn_move moves[CN_MAX_MOVES];
    const int count = cn_legal_moves(pos, moves);
    for (int i = 0; i < count; i++) {
        cn_position child = *pos;
        cn_undo undo;
        cn_make(&child, moves[i], &undo);
        sp_collect(&child, plies - 1, out);
    }
}

static int sp_compare_fens(const void *a, const void *b) { return strcmp(a, b); }

/* A unit as the brute force sees it: its FEN and count. */
typedef struct sp_unit {
    char fen[SP_FEN_BYTES];
    uint64_t count;
} sp_unit;

static int sp_compare_units(const void *a, const void *b) {
    return strcmp(((const sp_unit *)a)->fen, ((const sp_unit *)b)->fen);
}

/* The split's units as FENs with counts, sorted by FEN; checks each unit
 * is the position its FEN describes. */
static sp_unit *sp_units_of(const cn_split *split, const char *label) {
    sp_unit *units = malloc((split->count ? split->count : 1) * sizeof *units);
    for (size_t u = 0; u < split->count; u++) {
        cn_fen_write(&split->positions[u], units[u].fen, SP_FEN_BYTES);
        units[u].count = split->multiplicities[2 * u];
        SP_CHECK(split->multiplicities[2 * u + 1] == 0, "%s: unit %zu counts beyond 2^64", label, u);
        cn_position parsed;
        SP_CHECK(cn_fen_parse(&parsed, units[u].fen, strlen(units[u].fen), split->positions[u].chess960, NULL) ==
                         CN_OK &&
                     memcmp(&parsed, &split->positions[u], sizeof parsed) == 0,
                 "%s: unit %s is not the position its FEN describes", label, units[u].fen);
    }
    qsort(units, split->count, sizeof *units, sp_compare_units);
    return units;
}

/* Runs of equal FENs in sorted fens[] as units; returns their number. */
static size_t sp_count_runs(const sp_fens *fens, sp_unit *out) {
    size_t n = 0;
    for (size_t i = 0; i < fens->count; i++) {
        if (n > 0 && strcmp(out[n - 1].fen, fens->fen[i]) == 0) {
            out[n - 1].count++;
            continue;
        }
        memcpy(out[n].fen, fens->fen[i], SP_FEN_BYTES);
        out[n++].count = 1;
    }
    return n;
}

/* Per root move: sum over units of its count * perft(unit, depth) equals cn_divide's. */
static void sp_check_roots(const cn_position *root, const cn_split *split, int depth, const char *label) {
    cn_move moves[CN_MAX_MOVES];
    uint64_t divide[CN_MAX_MOVES];
    const int n = cn_divide(root, split->ply + depth, moves, divide);
    SP_CHECK(n == split->root_move_count, "%s: %d root moves, divide has %d", label, split->root_move_count, n);
    uint64_t by_root[CN_MAX_MOVES] = {0};
    for (size_t u = 0; u < split->count; u++) {
        const uint64_t below = cn_perft(&split->positions[u], depth);
        uint64_t sum = 0;
        for (size_t j = split->root_first[u]; j < split->root_first[u + 1]; j++) {
            SP_CHECK(j == split->root_first[u] || split->roots[j] > split->roots[j - 1], "%s: roots not ascending",
                     label);
            by_root[split->roots[j]] += split->root_counts[2 * j] * below;
            sum += split->root_counts[2 * j];
        }
        SP_CHECK(sum == split->multiplicities[2 * u], "%s: unit %zu's root counts add up to %" PRIu64, label, u, sum);
    }
    for (int i = 0; i < n; i++) {
        int r = 0;
        while (r < split->root_move_count && split->root_moves[r] != moves[i]) r++;
        SP_CHECK(r < split->root_move_count && by_root[r] == divide[i],
                 "%s: root move %d counts %" PRIu64 ", not %" PRIu64, label, i, by_root[r], divide[i]);
    }
}

/* The split of fen at ply against the brute force, with its root counts. */
static void sp_test_against_brute_force(const char *fen, int chess960, int ply) {
    cn_position root;
    if (cn_fen_parse(&root, fen, strlen(fen), chess960, NULL) != CN_OK) {
        SP_CHECK(0, "cannot parse %s", fen);
        return;
    }
    char label[160];
    snprintf(label, sizeof label, "%s at ply %d", fen, ply);
    cn_split split;
    SP_CHECK(cn_split_tree(&root, ply, SIZE_MAX, 1, &split) == CN_OK && split.ply == ply, "%s: split failed", label);
    sp_fens fens = {NULL, 0, 0};
    sp_collect(&root, ply, &fens);
    qsort(fens.fen, fens.count, SP_FEN_BYTES, sp_compare_fens);
    sp_unit *expected = malloc((fens.count ? fens.count : 1) * sizeof *expected);
    const size_t expected_count = sp_count_runs(&fens, expected);
    sp_unit *units = sp_units_of(&split, label);
    int same = expected_count == split.count;
    for (size_t u = 0; same && u < split.count; u++)
        same = strcmp(units[u].fen, expected[u].fen) == 0 && units[u].count == expected[u].count;
    SP_CHECK(same, "%s: %zu units, the brute force finds %zu positions", label, split.count, expected_count);
    if (ply > 0) sp_check_roots(&root, &split, 1, label);
    free(units);
    free(expected);
    free(fens.fen);
    cn_split_free(&split);
}

/* max_units stops at the first level above it; a mated root has no units. */
static void sp_test_limits(void) {
    static const char start[] = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    static const char mated[] = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3";
    cn_position root;
    cn_fen_parse(&root, start, strlen(start), 0, NULL);
    cn_split split;
    SP_CHECK(cn_split_tree(&root, 3, 100, 0, &split) == CN_OK && split.ply == 2 && split.count == 400 &&
                 !split.root_first,
             "max_units 100 stopped at ply %d with %zu units", split.ply, split.count);
    cn_split_free(&split);
    SP_CHECK(cn_split_tree(&root, 3, 0, 1, &split) == CN_OK && split.ply == 0 && split.count == 1 &&
                 split.root_move_count == 20 && !split.root_first,
             "max_units 0 went to ply %d", split.ply);
    cn_split_free(&split);
    SP_CHECK(cn_split_tree(&root, -1, SIZE_MAX, 0, &split) == CN_ERR_BAD_ARGUMENT && !split.positions,
             "ply -1 accepted");
    cn_position broken = root;
    broken.by_type[CN_KING] = 0;
    SP_CHECK(cn_split_tree(&broken, 1, SIZE_MAX, 0, &split) == CN_ERR_BAD_POSITION, "a position without kings split");
    cn_fen_parse(&root, mated, strlen(mated), 0, NULL);
    SP_CHECK(cn_split_tree(&root, 2, SIZE_MAX, 1, &split) == CN_OK && split.ply == 2 && split.count == 0 &&
                 split.root_first && split.root_first[0] == 0,
             "a mated root has %zu units at ply %d", split.count, split.ply);
    cn_split_free(&split);
}

/* Two parents (a black knight on b8 or on a5) share the child with the
 * knight on c6: its count is the sum, carried into the high word, and a sum
 * beyond 2^128 - 1 is refused. */
static void sp_test_wide_counts(void) {
    static const char *const fens[2] = {"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
                                        "r1bqkbnr/pppppppp/8/n7/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"};
    cn_position parents[2];
    for (int i = 0; i < 2; i++) cn_fen_parse(&parents[i], fens[i], strlen(fens[i]), 0, NULL);
    uint64_t counts[4] = {UINT64_MAX, 0, 1, 0};
    cn_split level;
    memset(&level, 0, sizeof level);
    level.ply = 1;
    level.count = 2;
    level.positions = parents;
    level.multiplicities = counts;
    cn_split next;
    SP_CHECK(cn_split_expand(&level, &next) == CN_OK, "expanding two parents failed");
    int shared = 0;
    for (size_t u = 0; u < next.count; u++)
        if (next.multiplicities[2 * u] == 0 && next.multiplicities[2 * u + 1] == 1) shared++;
    SP_CHECK(shared == 1 && next.ply == 2, "%d children count 2^64", shared);
    cn_split_free(&next);
    counts[1] = UINT64_MAX;
    SP_CHECK(cn_split_expand(&level, &next) == CN_ERR_BAD_ARGUMENT && !next.positions, "a count beyond 2^128 kept");
    level.track_roots = 1;
    level.ply = 0;
    SP_CHECK(cn_split_expand(&level, &next) == CN_ERR_BAD_ARGUMENT, "two roots tracked by their own moves");
}

int split_tests_run(void) {
    sp_failures = 0;
    sp_checks = 0;
    if (cn_init() != CN_OK) return 1;
    static const struct {
        const char *fen;
        int chess960, ply;
    } cases[] = {
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 0, 0},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 0, 3},
        {"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 0, 2},
        {"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 0, 4},
        {"r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 0, 3},
        {"rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 0, 2},
        /* Double steps beside a pinned pawn: en-passant squares FEN does not show. */
        {"3k4/3p4/8/K1P4r/8/8/8/8 b - - 0 1", 0, 4},
        {"8/5bk1/8/2Pp4/8/1K6/8/8 w - d6 0 1", 0, 3},
        {"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", 1, 2},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        sp_test_against_brute_force(cases[i].fen, cases[i].chess960, cases[i].ply);
    sp_test_limits();
    sp_test_wide_counts();
    printf("split: %ld checks (units = brute-force FENs and counts, per-root counts = divide, 128-bit counts)\n",
           sp_checks);
    return sp_failures;
}
