/*
 * perft_tool.c - perft from the command line, without Node: for bisecting
 * against Stockfish's divide and for the deep suite runs.
 *
 *   perft_tool perft DEPTH [FEN]        total nodes, time, Mnps
 *   perft_tool divide DEPTH [FEN]       per-move counts, Stockfish-style
 *   perft_tool full DEPTH [FEN]         every leaf move played
 *   perft_tool suite FILE MAX_NODES [MIN_NODES] [--chess960]
 *                                       suite counts in (MIN, MAX]
 *   perft_tool cpu                      the CPU as the engine detects it
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chess_native.h"
#include "clock.h"
#include "cpu.h"
#include "suite.h"

static const char *start_fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

static double seconds_now(void) { return cn_monotonic_nanoseconds() / 1e9; }

static int parse_or_die(cn_position *pos, const char *fen, int chess960) {
    cn_fen_error err;
    if (cn_fen_parse(pos, fen, strlen(fen), chess960, &err) != CN_OK) {
        fprintf(stderr, "bad FEN (%s): %s\n", cn_fen_field_name(err.field), err.message);
        exit(2);
    }
    return 0;
}

int main(int argc, char **argv) {
    if (argc == 2 && strcmp(argv[1], "cpu") == 0) {
        cn_cpu_features features;
        char line[128];
        cn_cpu_detect(&features);
        cn_cpu_describe(&features, line, sizeof line);
        printf("%s\n", line);
        return 0;
    }
    if (cn_init() != CN_OK) {
        fprintf(stderr, "%s\n", cn_init_message());
        return 2;
    }
    if (argc < 3) {
        fprintf(
            stderr,
            "usage: perft_tool perft|divide|full DEPTH [FEN] | suite FILE MAX_NODES [MIN_NODES] [--chess960] | cpu\n");
        return 2;
    }
    const char *command = argv[1];
    if (strcmp(command, "suite") == 0) {
        int chess960 = argc > 3 && strcmp(argv[argc - 1], "--chess960") == 0;
        uint64_t max_nodes = argc > 3 ? strtoull(argv[3], NULL, 10) : 1000000000ULL;
        uint64_t min_nodes = argc > 4 && argv[4][0] != '-' ? strtoull(argv[4], NULL, 10) : 0;
        suite_file suite;
        if (suite_load(argv[2], chess960, &suite) != 0) {
            fprintf(stderr, "cannot read %s\n", argv[2]);
            return 2;
        }
        int failed = 0, passed = 0;
        uint64_t nodes = 0;
        double start = seconds_now();
        for (int i = 0; i < suite.count; i++) {
            cn_position pos;
            parse_or_die(&pos, suite.lines[i].fen, chess960);
            for (int d = 0; d < suite.lines[i].depth_count; d++) {
                uint64_t expected = suite.lines[i].expected[d];
                if (expected > max_nodes || expected <= min_nodes) continue;
                uint64_t got = cn_perft(&pos, suite.lines[i].depths[d]);
                nodes += got;
                if (got == expected) {
                    passed++;
                } else {
                    failed++;
                    printf("FAIL line %d D%d: %" PRIu64 " expected %" PRIu64 "  %s\n", i + 1, suite.lines[i].depths[d],
                           got, expected, suite.lines[i].fen);
                }
            }
        }
        double elapsed = seconds_now() - start;
        printf("%s: %d passed, %d failed; %" PRIu64 " nodes in %.1f s (%s)\n", argv[2], passed, failed, nodes, elapsed,
               cn_impl_name());
        suite_free(&suite);
        return failed ? 1 : 0;
    }
    int depth = atoi(argv[2]);
    const char *fen = argc > 3 ? argv[3] : start_fen;
    cn_position pos;
    parse_or_die(&pos, fen, 0);
    double start = seconds_now();
    uint64_t nodes = 0;
    if (strcmp(command, "perft") == 0) {
        nodes = cn_perft(&pos, depth);
    } else if (strcmp(command, "full") == 0) {
        nodes = cn_perft_full(&pos, depth);
    } else if (strcmp(command, "divide") == 0) {
        cn_move moves[CN_MAX_MOVES];
        uint64_t counts[CN_MAX_MOVES];
        int n = cn_divide(&pos, depth, moves, counts);
        cn_sort_moves_uci(&pos, moves, 0);
        for (int i = 0; i < n; i++) {
            char uci[6];
            cn_move_to_uci(&pos, moves[i], uci);
            printf("%s: %" PRIu64 "\n", uci, counts[i]);
            nodes += counts[i];
        }
    } else {
        fprintf(stderr, "unknown command %s\n", command);
        return 2;
    }
    double elapsed = seconds_now() - start;
    printf("nodes %" PRIu64 " time %.3f s %.1f Mnps (%s)\n", nodes, elapsed, nodes / elapsed / 1e6, cn_impl_name());
    return 0;
}
