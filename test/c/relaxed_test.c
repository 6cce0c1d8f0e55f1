/*
 * relaxed_test.c - tests for relaxed positions (cn_fen_parse_relaxed,
 * csrc/engine/relaxed.c): moves, perft, FEN, check, SAN, make/unmake and
 * validation on positions chess.js accepts and the strict parser refuses.
 *
 * Entry point: int relaxed_tests_run(void), returning the number of
 * failures and printing each one. The expected counts and FENs are what
 * chess.js 1.4.0 gives for the same positions (loaded with skipValidation).
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "chess_native.h"
#include "perft_job.h"
#include "rules.h"
#include "san.h"
#include "split.h"

int relaxed_tests_run(void);

static int relaxed_test_failures;

#define RELAXED_FAIL(...)                                                                                              \
    do {                                                                                                               \
        relaxed_test_failures++;                                                                                       \
        printf("relaxed_test FAIL: ");                                                                                 \
        printf(__VA_ARGS__);                                                                                           \
        printf("\n");                                                                                                  \
    } while (0)

#define NONE CN_NO_SQUARE

typedef struct relaxed_case {
    const char *fen;
    unsigned white_king, black_king;
    int moves;
    uint64_t perft2, perft3;
} relaxed_case;

static const relaxed_case relaxed_cases[] = {
    {"8/8/8/8/8/8/8/4Q3 w - - 0 1", NONE, NONE, 21, 0, 0},
    /* 288: the most one side's men were found to have (see relaxed.c) */
    {"QQQQQQQB/Q6Q/Q6Q/Q6Q/Q6Q/Q6Q/Q6Q/BQQQQQQQ w - - 0 1", NONE, NONE, 288, 0, 0},
    {"4k3/8/8/8/8/8/8/4RK2 w - - 0 1", 5, 60, 15, 58, 1017},
    {"8/8/8/8/8/8/8/4K3 w K - 0 1", 4, NONE, 6, 0, 0},
    {"r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1", 4, 60, 25, 625, 15206},
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w kq - 0 1", NONE, 60, 21, 420, 9622},
    {"3k4/8/8/2pP4/8/8/8/4K3 w - c6 0 1", 4, 59, 7, 38, 278},
    {"nnnnknnn/pppppppp/pppppppp/8/8/PPPPPPPP/PPPPPPPP/NNNNKNNN w - - 0 1", 4, 60, 8, 64, 678},
    {"8/8/8/8/8/8/8/4K2n w K - 0 1", 4, NONE, 5, 12, 58},
    {"4k3/8/8/8/8/8/4r3/4K3 b - - 0 1", 4, 60, 18, 49, 832},
};

static int relaxed_load(cn_position *pos, const char *fen, unsigned white_king, unsigned black_king) {
    cn_fen_error error;
    if (cn_fen_parse_relaxed(pos, fen, strlen(fen), white_king, black_king, &error) != CN_OK) {
        RELAXED_FAIL("cannot load %s: %s", fen, error.message);
        return 0;
    }
    if (cn_position_validate(pos) != CN_OK) RELAXED_FAIL("%s does not validate", fen);
    return 1;
}

/* Every legal move: made and unmade bit for bit, its key right, valid
 * after it, its UCI and SAN read back as the same move. */
static void relaxed_check_moves(const cn_position *pos, const char *fen) {
    cn_move moves[CN_MAX_MOVES];
    const int count = cn_legal_moves(pos, moves);
    for (int i = 0; i < count; i++) {
        cn_position after = *pos;
        cn_undo undo;
        char uci[6], san[CN_SAN_MAX];
        cn_move back = CN_MOVE_NONE;
        cn_make(&after, moves[i], &undo);
        if (after.key != cn_position_compute_key(&after)) RELAXED_FAIL("%s: stale key after move %d", fen, i);
        if (cn_position_validate(&after) != CN_OK) RELAXED_FAIL("%s: invalid after move %d", fen, i);
        cn_unmake(&after, &undo);
        if (memcmp(&after, pos, sizeof after) != 0) RELAXED_FAIL("%s: unmake of move %d differs", fen, i);
        const int length = cn_move_to_uci(pos, moves[i], uci);
        if (cn_move_from_uci(pos, uci, (size_t)length, &back) != CN_OK || back != moves[i])
            RELAXED_FAIL("%s: UCI %s does not read back", fen, uci);
        const int san_length = cn_move_to_san(pos, moves[i], san);
        if (san_length == 0 || cn_move_from_san(pos, san, (size_t)san_length, &back) != CN_OK || back != moves[i])
            RELAXED_FAIL("%s: SAN %s does not read back", fen, san);
    }
}

static void relaxed_test_cases(void) {
    for (size_t c = 0; c < sizeof relaxed_cases / sizeof relaxed_cases[0]; c++) {
        const relaxed_case *t = &relaxed_cases[c];
        cn_position pos;
        char fen[128];
        if (!relaxed_load(&pos, t->fen, t->white_king, t->black_king)) continue;
        const int moves = cn_count_legal_moves(&pos);
        if (moves != t->moves) RELAXED_FAIL("%s: %d moves, expected %d", t->fen, moves, t->moves);
        if (cn_perft(&pos, 2) != t->perft2 || cn_perft(&pos, 3) != t->perft3)
            RELAXED_FAIL("%s: perft %llu %llu, expected %llu %llu", t->fen, (unsigned long long)cn_perft(&pos, 2),
                         (unsigned long long)cn_perft(&pos, 3), (unsigned long long)t->perft2,
                         (unsigned long long)t->perft3);
        cn_fen_write(&pos, fen, sizeof fen);
        if (strcmp(fen, t->fen) != 0) RELAXED_FAIL("FEN %s written as %s", t->fen, fen);
        relaxed_check_moves(&pos, t->fen);
    }
}

/* Plays `uci` on the relaxed position of `fen`; checks the FEN after it. */
static void relaxed_test_play(const char *fen, unsigned white_king, unsigned black_king, const char *uci,
                              const char *expected) {
    cn_position pos;
    cn_move move;
    cn_undo undo;
    char after[128];
    if (!relaxed_load(&pos, fen, white_king, black_king)) return;
    if (cn_move_from_uci(&pos, uci, strlen(uci), &move) != CN_OK) {
        RELAXED_FAIL("%s: %s is not legal", fen, uci);
        return;
    }
    cn_make(&pos, move, &undo);
    cn_fen_write(&pos, after, sizeof after);
    if (strcmp(after, expected) != 0) RELAXED_FAIL("%s after %s: %s, expected %s", fen, uci, after, expected);
    relaxed_check_moves(&pos, expected);
}

static void relaxed_test_rules(void) {
    /* Castling with no rook moves the king alone; with a man on the rook's
     * square, that man moves beside the king. */
    relaxed_test_play("8/8/8/8/8/8/8/4K3 w K - 0 1", 4, NONE, "e1g1", "8/8/8/8/8/8/8/6K1 b - - 1 1");
    relaxed_test_play("8/8/8/8/8/8/8/4K2n w K - 0 1", 4, NONE, "e1g1", "8/8/8/8/8/8/8/5nK1 b - - 1 1");
    /* The man that took a king and stands on its square castles (alone) as chess.js castles it. */
    relaxed_test_play("r3N3/8/8/8/8/8/8/5K2 b q - 0 1", 5, 60, "e8c8", "r1N5/8/8/8/8/8/8/5K2 w q - 1 2");
    /* A king taken: its side is left with its king square, not in check. */
    cn_position pos;
    relaxed_test_play("4k3/8/8/8/8/8/8/4RK2 w - - 0 1", 5, 60, "e1e8", "4R3/8/8/8/8/8/8/5K2 b - - 0 1");
    if (relaxed_load(&pos, "4R3/8/8/8/8/8/8/5K2 b - - 0 1", 5, 60)) {
        const unsigned state = cn_game_state(&pos);
        /* Two men: chess.js calls that insufficient material too. */
        if (state != (CN_GAME_NO_MOVES | CN_GAME_INSUFFICIENT))
            RELAXED_FAIL("a side with its king taken: state %u", state);
    }
    /* The side not to move in check; K+Q and no other king is insufficient (chess.js counts men). */
    if (relaxed_load(&pos, "8/8/8/8/8/8/8/K6Q w - - 0 1", 0, NONE) && !cn_insufficient_material(&pos))
        RELAXED_FAIL("K+Q alone is insufficient material for chess.js");
    /* En passant shown only when a capture is legal. */
    char fen[128];
    if (relaxed_load(&pos, "3k4/8/8/2pP4/8/8/8/3RK3 w - c6 0 1", 4, 59)) {
        cn_fen_write(&pos, fen, sizeof fen);
        if (strcmp(fen, "3k4/8/8/2pP4/8/8/8/3RK3 w - c6 0 1") != 0) RELAXED_FAIL("ep square dropped: %s", fen);
    }
    if (relaxed_load(&pos, "8/8/8/K1pP3r/8/8/8/8 w - c6 0 1", 32, NONE)) {
        cn_fen_write(&pos, fen, sizeof fen);
        if (strcmp(fen, "8/8/8/K1pP3r/8/8/8/8 w - - 0 1") != 0) RELAXED_FAIL("pinned ep capture shown: %s", fen);
    }
}

/* On strict positions the relaxed rules are the strict ones: the same
 * perft counts. */
static void relaxed_test_against_strict(void) {
    static const char *fens[] = {
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    };
    for (size_t i = 0; i < sizeof fens / sizeof fens[0]; i++) {
        cn_position strict, relaxed;
        if (cn_fen_parse(&strict, fens[i], strlen(fens[i]), 0, NULL) != CN_OK) {
            RELAXED_FAIL("cannot parse %s", fens[i]);
            continue;
        }
        const unsigned white_king = (unsigned)__builtin_ctzll(strict.by_type[CN_KING] & strict.by_color[CN_WHITE]);
        const unsigned black_king = (unsigned)__builtin_ctzll(strict.by_type[CN_KING] & strict.by_color[CN_BLACK]);
        if (!relaxed_load(&relaxed, fens[i], white_king, black_king)) continue;
        for (int depth = 1; depth <= 3; depth++)
            if (cn_perft(&relaxed, depth) != cn_perft(&strict, depth))
                RELAXED_FAIL("%s: relaxed perft(%d) %llu, strict %llu", fens[i], depth,
                             (unsigned long long)cn_perft(&relaxed, depth),
                             (unsigned long long)cn_perft(&strict, depth));
        relaxed_check_moves(&relaxed, fens[i]);
    }
}

static void relaxed_test_refusals(void) {
    cn_position pos;
    cn_fen_error error;
    const char *fen = "4k3/8/8/8/8/8/8/4K3 w - - 0 1";
    if (cn_fen_parse_relaxed(&pos, fen, strlen(fen), 3, 60, &error) != CN_ERR_FEN || error.field != CN_FEN_FIELD_BOARD)
        RELAXED_FAIL("a king off its king square loads");
    if (cn_fen_parse_relaxed(&pos, fen, strlen(fen), 4, 65, &error) != CN_ERR_FEN) RELAXED_FAIL("king square 65 loads");
    const char *castling = "8/8/8/8/8/8/8/8 w KX - 0 1", *long_rank = "8/8/8/8/8/8/8/9 w - - 0 1";
    if (cn_fen_parse_relaxed(&pos, castling, strlen(castling), NONE, NONE, &error) != CN_ERR_FEN ||
        error.field != CN_FEN_FIELD_CASTLING)
        RELAXED_FAIL("castling KX loads");
    if (cn_fen_parse_relaxed(&pos, long_rank, strlen(long_rank), NONE, NONE, &error) != CN_ERR_FEN)
        RELAXED_FAIL("a rank of 9 squares loads");
    if (!relaxed_load(&pos, fen, 4, 60)) return;
    cn_position bad = pos;
    bad.relaxed_king[CN_WHITE] = 5;
    if (cn_position_validate(&bad) == CN_OK) RELAXED_FAIL("a relaxed king off its square validates");
    bad = pos;
    bad.relaxed = 0;
    if (cn_position_validate(&bad) == CN_OK) RELAXED_FAIL("a strict position with king squares validates");
    cn_split split;
    if (cn_split_tree(&pos, 1, 100, 0, &split) != CN_ERR_BAD_POSITION) RELAXED_FAIL("split takes a relaxed position");
    cn_perft_job_options options;
    memset(&options, 0, sizeof options);
    options.depth = 2;
    options.threads = 1;
    cn_perft_job *job = NULL;
    if (cn_perft_job_start(&pos, &options, &job) != CN_ERR_BAD_POSITION)
        RELAXED_FAIL("a perft job takes a relaxed position");
}

int relaxed_tests_run(void) {
    relaxed_test_failures = 0;
    relaxed_test_cases();
    relaxed_test_rules();
    relaxed_test_against_strict();
    relaxed_test_refusals();
    return relaxed_test_failures;
}
