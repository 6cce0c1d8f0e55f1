/*
 * san_test.c - tests for csrc/engine/san.c (cn_move_to_san / cn_move_from_san).
 *
 * Entry point: int san_tests_run(void), returning the number of failures
 * and printing each one. It can be compiled on its own next to the runner
 * or #included by it; every other name here is static.
 *
 * The expected SAN strings are what chess.js 1.x prints for the same moves
 * (checked with chess.js when the table was written).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chess_native.h"
#include "rules.h"
#include "san.h"

int san_tests_run(void);

static int san_test_failures;

#define SAN_TEST_FAIL(...)                                                                                             \
    do {                                                                                                               \
        san_test_failures++;                                                                                           \
        printf("san_test FAIL: ");                                                                                     \
        printf(__VA_ARGS__);                                                                                           \
        printf("\n");                                                                                                  \
    } while (0)

/* --- positions used below ------------------------------------------------ */

#define SAN_FEN_START "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
/* Knights on b1 and f3 can both take on d2. */
#define SAN_FEN_TWO_KNIGHTS "4k3/8/8/8/8/5N2/3n4/1N2K3 w - - 0 1"
/* Rooks on a1 and a5 share the a-file. */
#define SAN_FEN_TWO_ROOKS "4k3/8/8/R7/8/8/8/R3K3 w - - 0 1"
/* Black knights b8 and b4 share the b-file and both reach c6. */
#define SAN_FEN_BLACK_KNIGHTS "1n2k3/8/8/8/1n6/8/8/4K3 b - - 0 1"
/* Queens a1, a3, c1 all reach b2: a1 needs the whole square. */
#define SAN_FEN_THREE_QUEENS "4k3/8/8/8/8/Q7/8/Q1Q1K3 w - - 0 1"
/* Rooks a1 and f1 reach e1 with check. */
#define SAN_FEN_ROOKS_CHECK "4k3/8/8/8/8/8/8/R4RK1 w - - 0 1"
/* The c6 knight is pinned, so g8-e7 is plain "Ne7" (chess.js's example). */
#define SAN_FEN_PINNED "r1bqkbnr/ppp2ppp/2n5/1B1pP3/4P3/8/PPPP2PP/RNBQK1NR b KQkq - 2 4"
/* e5xf6 en passant is possible. */
#define SAN_FEN_EN_PASSANT "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3"
/* Black: d4xe3 en passant; the c4 pawn is not beside e4. */
#define SAN_FEN_EN_PASSANT_BLACK "4k3/8/8/8/2ppP3/8/8/4K3 b - e3 0 1"
#define SAN_FEN_PROMOTE_CHECK    "7k/P7/8/8/8/8/8/K7 w - - 0 1"
#define SAN_FEN_PROMOTE_MATE     "k7/2P5/1K6/8/8/8/8/8 w - - 0 1"
#define SAN_FEN_PROMOTE_CAPTURE  "1n5k/P7/8/8/8/8/8/K7 w - - 0 1"
#define SAN_FEN_BLACK_PROMOTE    "4k3/8/8/8/8/8/1p6/R3K3 b - - 0 1"
/* Castling: the rook lands on d1 (checks d8) or f1 (checks f8). */
#define SAN_FEN_CASTLE_QUEEN_CHECK "3k4/8/8/8/8/8/8/R3K2R w KQ - 0 1"
#define SAN_FEN_CASTLE_KING_CHECK  "5k2/8/8/8/8/8/8/R3K2R w KQ - 0 1"
#define SAN_FEN_CASTLE_BLACK       "r3k2r/8/8/8/8/8/8/3K4 b kq - 0 1"
#define SAN_FEN_SCHOLAR            "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4"
/* Chess960: king e1, rooks b1 and g1. */
#define SAN_FEN_960 "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1"

/* --- cn_move_to_san --------------------------------------------------------- */

typedef struct san_test_output_case {
    const char *fen;
    int chess960;
    const char *uci;
    const char *san;
} san_test_output_case;

static const san_test_output_case san_test_output_cases[] = {
    {SAN_FEN_START, 0, "e2e4", "e4"},
    {SAN_FEN_START, 0, "g1f3", "Nf3"},
    /* disambiguation by file */
    {SAN_FEN_TWO_KNIGHTS, 0, "b1d2", "Nbxd2"},
    {SAN_FEN_TWO_KNIGHTS, 0, "f3d2", "Nfxd2"},
    {SAN_FEN_TWO_KNIGHTS, 0, "f3e5", "Ne5"},
    {SAN_FEN_TWO_KNIGHTS, 0, "e1d2", "Kxd2"},
    /* disambiguation by rank */
    {SAN_FEN_TWO_ROOKS, 0, "a1a3", "R1a3"},
    {SAN_FEN_TWO_ROOKS, 0, "a5a3", "R5a3"},
    {SAN_FEN_TWO_ROOKS, 0, "a5a8", "Ra8+"},
    {SAN_FEN_TWO_ROOKS, 0, "a1b1", "Rb1"},
    {SAN_FEN_BLACK_KNIGHTS, 0, "b8c6", "N8c6"},
    {SAN_FEN_BLACK_KNIGHTS, 0, "b4c6", "N4c6"},
    {SAN_FEN_BLACK_KNIGHTS, 0, "b4c2", "Nc2+"},
    /* by file and rank, and the mixed cases around it */
    {SAN_FEN_THREE_QUEENS, 0, "a1b2", "Qa1b2"},
    {SAN_FEN_THREE_QUEENS, 0, "a3b2", "Q3b2"},
    {SAN_FEN_THREE_QUEENS, 0, "c1b2", "Qcb2"},
    {SAN_FEN_THREE_QUEENS, 0, "a3a2", "Q3a2"},
    {SAN_FEN_THREE_QUEENS, 0, "a3e7", "Qe7+"},
    /* disambiguation with check */
    {SAN_FEN_ROOKS_CHECK, 0, "a1e1", "Rae1+"},
    {SAN_FEN_ROOKS_CHECK, 0, "f1e1", "Rfe1+"},
    {SAN_FEN_ROOKS_CHECK, 0, "f1f8", "Rf8+"},
    /* a pinned twin does not count */
    {SAN_FEN_PINNED, 0, "g8e7", "Ne7"},
    {SAN_FEN_PINNED, 0, "d5e4", "dxe4"},
    {SAN_FEN_PINNED, 0, "c8d7", "Bd7"},
    /* captures and en passant */
    {SAN_FEN_EN_PASSANT, 0, "e5f6", "exf6"},
    {SAN_FEN_EN_PASSANT, 0, "e5e6", "e6"},
    {SAN_FEN_EN_PASSANT, 0, "d1h5", "Qh5+"},
    {SAN_FEN_EN_PASSANT_BLACK, 0, "d4e3", "dxe3"},
    {SAN_FEN_EN_PASSANT_BLACK, 0, "c4c3", "c3"},
    {SAN_FEN_SCHOLAR, 0, "h5f7", "Qxf7#"},
    {SAN_FEN_SCHOLAR, 0, "c4f7", "Bxf7+"},
    {SAN_FEN_SCHOLAR, 0, "h5e5", "Qxe5+"},
    /* promotions */
    {SAN_FEN_PROMOTE_CHECK, 0, "a7a8q", "a8=Q+"},
    {SAN_FEN_PROMOTE_CHECK, 0, "a7a8r", "a8=R+"},
    {SAN_FEN_PROMOTE_CHECK, 0, "a7a8b", "a8=B"},
    {SAN_FEN_PROMOTE_CHECK, 0, "a7a8n", "a8=N"},
    {SAN_FEN_PROMOTE_MATE, 0, "c7c8q", "c8=Q#"},
    {SAN_FEN_PROMOTE_MATE, 0, "c7c8r", "c8=R#"},
    {SAN_FEN_PROMOTE_MATE, 0, "c7c8b", "c8=B"},
    {SAN_FEN_PROMOTE_CAPTURE, 0, "a7b8q", "axb8=Q+"},
    {SAN_FEN_PROMOTE_CAPTURE, 0, "a7a8n", "a8=N"},
    {SAN_FEN_BLACK_PROMOTE, 0, "b2a1q", "bxa1=Q+"},
    {SAN_FEN_BLACK_PROMOTE, 0, "b2b1q", "b1=Q+"},
    {SAN_FEN_BLACK_PROMOTE, 0, "b2b1r", "b1=R+"},
    /* castling, with and without check */
    {SAN_FEN_CASTLE_QUEEN_CHECK, 0, "e1c1", "O-O-O+"},
    {SAN_FEN_CASTLE_QUEEN_CHECK, 0, "e1g1", "O-O"},
    {SAN_FEN_CASTLE_KING_CHECK, 0, "e1g1", "O-O+"},
    {SAN_FEN_CASTLE_KING_CHECK, 0, "e1c1", "O-O-O"},
    {SAN_FEN_CASTLE_KING_CHECK, 0, "h1h8", "Rh8+"},
    {SAN_FEN_CASTLE_KING_CHECK, 0, "e1f2", "Kf2"},
    {SAN_FEN_CASTLE_BLACK, 0, "e8g8", "O-O"},
    {SAN_FEN_CASTLE_BLACK, 0, "e8c8", "O-O-O+"},
    {SAN_FEN_CASTLE_BLACK, 0, "a8a1", "Ra1+"},
    /* Chess960: UCI is king-takes-rook; SAN is still O-O / O-O-O */
    {SAN_FEN_960, 1, "e1g1", "O-O"},
    {SAN_FEN_960, 1, "e1b1", "O-O-O"},
};

/* --- cn_move_from_san --------------------------------------------------- */

typedef struct san_test_input_case {
    const char *fen;
    int chess960;
    const char *input;
    cn_status status;
    const char *uci; /* the move expected when status is CN_OK */
} san_test_input_case;

static const san_test_input_case san_test_input_cases[] = {
    /* plain moves and every annotation form */
    {SAN_FEN_START, 0, "e4", CN_OK, "e2e4"},
    {SAN_FEN_START, 0, "e3", CN_OK, "e2e3"},
    {SAN_FEN_START, 0, "e4!", CN_OK, "e2e4"},
    {SAN_FEN_START, 0, "e4?", CN_OK, "e2e4"},
    {SAN_FEN_START, 0, "e4!!", CN_OK, "e2e4"},
    {SAN_FEN_START, 0, "e4??", CN_OK, "e2e4"},
    {SAN_FEN_START, 0, "e4!?", CN_OK, "e2e4"},
    {SAN_FEN_START, 0, "e4?!", CN_OK, "e2e4"},
    {SAN_FEN_START, 0, "e4+", CN_OK, "e2e4"},   /* check mark is not verified */
    {SAN_FEN_START, 0, "e4#!?", CN_OK, "e2e4"}, /* nor is mate */
    {SAN_FEN_START, 0, "Nf3", CN_OK, "g1f3"},
    {SAN_FEN_START, 0, "Ngf3", CN_OK, "g1f3"}, /* over-disambiguated: accepted */
    {SAN_FEN_START, 0, "N1f3", CN_OK, "g1f3"},
    {SAN_FEN_START, 0, "Ng1f3", CN_OK, "g1f3"},
    {SAN_FEN_START, 0, "Nxf3", CN_OK, "g1f3"}, /* capture mark is not verified */
    {SAN_FEN_START, 0, "Nc3", CN_OK, "b1c3"},
    /* syntax errors */
    {SAN_FEN_START, 0, "", CN_ERR_BAD_MOVE, NULL},
    {SAN_FEN_START, 0, "e", CN_ERR_BAD_MOVE, NULL},
    {SAN_FEN_START, 0, "e9", CN_ERR_BAD_MOVE, NULL},
    {SAN_FEN_START, 0, "e0", CN_ERR_BAD_MOVE, NULL},
    {SAN_FEN_START, 0, "i4", CN_ERR_BAD_MOVE, NULL},
    {SAN_FEN_START, 0, "E4", CN_ERR_BAD_MOVE, NULL},
    {SAN_FEN_START, 0, "Pe4", CN_ERR_BAD_MOVE, NULL},
    {SAN_FEN_START, 0, "nf3", CN_ERR_BAD_MOVE, NULL},
    {SAN_FEN_START, 0, "N", CN_ERR_BAD_MOVE, NULL},
    {SAN_FEN_START, 0, "Nf", CN_ERR_BAD_MOVE, NULL},
    {SAN_FEN_START, 0, "Nxx3", CN_ERR_BAD_MOVE, NULL},
    {SAN_FEN_START, 0, "Nxgf3", CN_ERR_BAD_MOVE, NULL},
    {SAN_FEN_START, 0, "N1gf3", CN_ERR_BAD_MOVE, NULL},
    {SAN_FEN_START, 0, "Ng1xf3x", CN_ERR_BAD_MOVE, NULL},
    {SAN_FEN_START, 0, "e2e4", CN_ERR_BAD_MOVE, NULL},
    {SAN_FEN_START, 0, "e2-e4", CN_ERR_BAD_MOVE, NULL},
    {SAN_FEN_START, 0, "exe5", CN_ERR_BAD_MOVE, NULL},
    {SAN_FEN_START, 0, "axc3", CN_ERR_BAD_MOVE, NULL},
    {SAN_FEN_START, 0, "e4 ", CN_ERR_BAD_MOVE, NULL},
    {SAN_FEN_START, 0, " e4", CN_ERR_BAD_MOVE, NULL},
    {SAN_FEN_START, 0, "e4!!!", CN_ERR_BAD_MOVE, NULL},
    {SAN_FEN_START, 0, "e4++", CN_ERR_BAD_MOVE, NULL},
    {SAN_FEN_START, 0, "e4?!+", CN_ERR_BAD_MOVE, NULL},
    {SAN_FEN_START, 0, "+", CN_ERR_BAD_MOVE, NULL},
    {SAN_FEN_START, 0, "!?", CN_ERR_BAD_MOVE, NULL},
    {SAN_FEN_START, 0, "e.p.", CN_ERR_BAD_MOVE, NULL},
    {SAN_FEN_START, 0, "O-", CN_ERR_BAD_MOVE, NULL},
    {SAN_FEN_START, 0, "O-O-", CN_ERR_BAD_MOVE, NULL},
    {SAN_FEN_START, 0, "O-0", CN_ERR_BAD_MOVE, NULL},
    {SAN_FEN_START, 0, "o-o", CN_ERR_BAD_MOVE, NULL},
    {SAN_FEN_START, 0, "OO", CN_ERR_BAD_MOVE, NULL},
    {SAN_FEN_START, 0, "O-O-O-O", CN_ERR_BAD_MOVE, NULL},
    {SAN_FEN_START, 0, "--", CN_ERR_BAD_MOVE, NULL},
    {SAN_FEN_START, 0, "0000", CN_ERR_BAD_MOVE, NULL},
    {SAN_FEN_START, 0, "e8=K", CN_ERR_BAD_MOVE, NULL},
    {SAN_FEN_START, 0, "e8=", CN_ERR_BAD_MOVE, NULL},
    {SAN_FEN_START, 0, "e8q", CN_ERR_BAD_MOVE, NULL},
    {SAN_FEN_START, 0, "e8=QQ", CN_ERR_BAD_MOVE, NULL},
    /* well-formed but not legal here */
    {SAN_FEN_START, 0, "e5", CN_ERR_ILLEGAL_MOVE, NULL},
    {SAN_FEN_START, 0, "Nf6", CN_ERR_ILLEGAL_MOVE, NULL},
    {SAN_FEN_START, 0, "Nhf3", CN_ERR_ILLEGAL_MOVE, NULL},
    {SAN_FEN_START, 0, "N2f3", CN_ERR_ILLEGAL_MOVE, NULL},
    {SAN_FEN_START, 0, "Ke2", CN_ERR_ILLEGAL_MOVE, NULL},
    {SAN_FEN_START, 0, "exd3", CN_ERR_ILLEGAL_MOVE, NULL},
    {SAN_FEN_START, 0, "O-O", CN_ERR_ILLEGAL_MOVE, NULL},
    {SAN_FEN_START, 0, "O-O-O", CN_ERR_ILLEGAL_MOVE, NULL},
    {SAN_FEN_START, 0, "e4=Q", CN_ERR_ILLEGAL_MOVE, NULL},
    /* ambiguity */
    {SAN_FEN_TWO_KNIGHTS, 0, "Nxd2", CN_ERR_ILLEGAL_MOVE, NULL},
    {SAN_FEN_TWO_KNIGHTS, 0, "Nd2", CN_ERR_ILLEGAL_MOVE, NULL},
    {SAN_FEN_TWO_KNIGHTS, 0, "Nbxd2", CN_OK, "b1d2"},
    {SAN_FEN_TWO_KNIGHTS, 0, "Nbd2", CN_OK, "b1d2"},
    {SAN_FEN_TWO_KNIGHTS, 0, "Nfxd2", CN_OK, "f3d2"},
    {SAN_FEN_TWO_KNIGHTS, 0, "N3xd2", CN_OK, "f3d2"},
    {SAN_FEN_TWO_KNIGHTS, 0, "Nf3xd2", CN_OK, "f3d2"},
    {SAN_FEN_TWO_ROOKS, 0, "Ra3", CN_ERR_ILLEGAL_MOVE, NULL},
    {SAN_FEN_TWO_ROOKS, 0, "Raa3", CN_ERR_ILLEGAL_MOVE, NULL},
    {SAN_FEN_TWO_ROOKS, 0, "R1a3", CN_OK, "a1a3"},
    {SAN_FEN_TWO_ROOKS, 0, "R5a3", CN_OK, "a5a3"},
    {SAN_FEN_BLACK_KNIGHTS, 0, "Nc6", CN_ERR_ILLEGAL_MOVE, NULL},
    {SAN_FEN_BLACK_KNIGHTS, 0, "Nbc6", CN_ERR_ILLEGAL_MOVE, NULL},
    {SAN_FEN_BLACK_KNIGHTS, 0, "N8c6", CN_OK, "b8c6"},
    {SAN_FEN_BLACK_KNIGHTS, 0, "Nb4c6", CN_OK, "b4c6"},
    {SAN_FEN_THREE_QUEENS, 0, "Qb2", CN_ERR_ILLEGAL_MOVE, NULL},
    {SAN_FEN_THREE_QUEENS, 0, "Qab2", CN_ERR_ILLEGAL_MOVE, NULL},
    {SAN_FEN_THREE_QUEENS, 0, "Q1b2", CN_ERR_ILLEGAL_MOVE, NULL},
    {SAN_FEN_THREE_QUEENS, 0, "Qa1b2", CN_OK, "a1b2"},
    {SAN_FEN_THREE_QUEENS, 0, "Q3b2", CN_OK, "a3b2"},
    {SAN_FEN_THREE_QUEENS, 0, "Qcb2", CN_OK, "c1b2"},
    {SAN_FEN_THREE_QUEENS, 0, "Qe7+", CN_OK, "a3e7"},
    {SAN_FEN_ROOKS_CHECK, 0, "Re1", CN_ERR_ILLEGAL_MOVE, NULL},
    {SAN_FEN_ROOKS_CHECK, 0, "Rae1+", CN_OK, "a1e1"},
    {SAN_FEN_ROOKS_CHECK, 0, "Rfe1+!", CN_OK, "f1e1"},
    /* the pinned knight cannot be meant */
    {SAN_FEN_PINNED, 0, "Ne7", CN_OK, "g8e7"},
    {SAN_FEN_PINNED, 0, "Nge7", CN_OK, "g8e7"},
    {SAN_FEN_PINNED, 0, "Nce7", CN_ERR_ILLEGAL_MOVE, NULL},
    {SAN_FEN_PINNED, 0, "dxe4", CN_OK, "d5e4"},
    /* en passant */
    {SAN_FEN_EN_PASSANT, 0, "exf6", CN_OK, "e5f6"},
    {SAN_FEN_EN_PASSANT, 0, "exf6 e.p.", CN_OK, "e5f6"},
    {SAN_FEN_EN_PASSANT, 0, "exf6  e.p.", CN_OK, "e5f6"},
    {SAN_FEN_EN_PASSANT, 0, "exf6e.p.", CN_OK, "e5f6"},
    {SAN_FEN_EN_PASSANT, 0, "exf6 e.p.!", CN_OK, "e5f6"},
    {SAN_FEN_EN_PASSANT, 0, "exf6 e.p.+", CN_OK, "e5f6"},
    {SAN_FEN_EN_PASSANT, 0, "exf6+ e.p.", CN_OK, "e5f6"},
    {SAN_FEN_EN_PASSANT, 0, "exf6 ep", CN_ERR_BAD_MOVE, NULL},
    {SAN_FEN_EN_PASSANT, 0, "exf6 e.p", CN_ERR_BAD_MOVE, NULL},
    {SAN_FEN_EN_PASSANT, 0, "exf6 e.p.e.p.", CN_ERR_BAD_MOVE, NULL},
    {SAN_FEN_EN_PASSANT, 0, "exd6", CN_ERR_ILLEGAL_MOVE, NULL},
    {SAN_FEN_EN_PASSANT, 0, "e6", CN_OK, "e5e6"},
    {SAN_FEN_EN_PASSANT_BLACK, 0, "dxe3", CN_OK, "d4e3"},
    {SAN_FEN_EN_PASSANT_BLACK, 0, "d3", CN_OK, "d4d3"},
    {SAN_FEN_EN_PASSANT_BLACK, 0, "c3", CN_OK, "c4c3"},
    /* mate */
    {SAN_FEN_SCHOLAR, 0, "Qxf7#", CN_OK, "h5f7"},
    {SAN_FEN_SCHOLAR, 0, "Qxf7", CN_OK, "h5f7"},
    {SAN_FEN_SCHOLAR, 0, "Qf7#", CN_OK, "h5f7"},
    {SAN_FEN_SCHOLAR, 0, "Bxf7+", CN_OK, "c4f7"},
    {SAN_FEN_SCHOLAR, 0, "xf7", CN_ERR_BAD_MOVE, NULL},
    /* promotions */
    {SAN_FEN_PROMOTE_CHECK, 0, "a8=Q", CN_OK, "a7a8q"},
    {SAN_FEN_PROMOTE_CHECK, 0, "a8=Q+", CN_OK, "a7a8q"},
    {SAN_FEN_PROMOTE_CHECK, 0, "a8Q", CN_OK, "a7a8q"},
    {SAN_FEN_PROMOTE_CHECK, 0, "a8Q+!!", CN_OK, "a7a8q"},
    {SAN_FEN_PROMOTE_CHECK, 0, "a8=q", CN_OK, "a7a8q"},
    {SAN_FEN_PROMOTE_CHECK, 0, "a8=R+", CN_OK, "a7a8r"},
    {SAN_FEN_PROMOTE_CHECK, 0, "a8=B", CN_OK, "a7a8b"},
    {SAN_FEN_PROMOTE_CHECK, 0, "a8N", CN_OK, "a7a8n"},
    {SAN_FEN_PROMOTE_CHECK, 0, "a8=n", CN_OK, "a7a8n"},
    {SAN_FEN_PROMOTE_CHECK, 0, "a8", CN_ERR_ILLEGAL_MOVE, NULL},
    {SAN_FEN_PROMOTE_CHECK, 0, "a8=K", CN_ERR_BAD_MOVE, NULL},
    {SAN_FEN_PROMOTE_CHECK, 0, "a8=P", CN_ERR_BAD_MOVE, NULL},
    {SAN_FEN_PROMOTE_CHECK, 0, "Ka2", CN_OK, "a1a2"},
    {SAN_FEN_PROMOTE_MATE, 0, "c8=Q#", CN_OK, "c7c8q"},
    {SAN_FEN_PROMOTE_MATE, 0, "c8R#", CN_OK, "c7c8r"},
    {SAN_FEN_PROMOTE_CAPTURE, 0, "axb8=Q+", CN_OK, "a7b8q"},
    {SAN_FEN_PROMOTE_CAPTURE, 0, "axb8Q", CN_OK, "a7b8q"},
    {SAN_FEN_PROMOTE_CAPTURE, 0, "axb8=N", CN_OK, "a7b8n"},
    {SAN_FEN_PROMOTE_CAPTURE, 0, "axb8", CN_ERR_ILLEGAL_MOVE, NULL},
    {SAN_FEN_PROMOTE_CAPTURE, 0, "a8=Q", CN_OK, "a7a8q"},
    {SAN_FEN_BLACK_PROMOTE, 0, "bxa1=Q+", CN_OK, "b2a1q"},
    {SAN_FEN_BLACK_PROMOTE, 0, "b1=N", CN_OK, "b2b1n"},
    {SAN_FEN_BLACK_PROMOTE, 0, "b1=Q+", CN_OK, "b2b1q"},
    /* castling, both spellings, with check marks */
    {SAN_FEN_CASTLE_QUEEN_CHECK, 0, "O-O", CN_OK, "e1g1"},
    {SAN_FEN_CASTLE_QUEEN_CHECK, 0, "0-0", CN_OK, "e1g1"},
    {SAN_FEN_CASTLE_QUEEN_CHECK, 0, "O-O-O", CN_OK, "e1c1"},
    {SAN_FEN_CASTLE_QUEEN_CHECK, 0, "O-O-O+", CN_OK, "e1c1"},
    {SAN_FEN_CASTLE_QUEEN_CHECK, 0, "0-0-0+", CN_OK, "e1c1"},
    {SAN_FEN_CASTLE_QUEEN_CHECK, 0, "0-0-0+?!", CN_OK, "e1c1"},
    {SAN_FEN_CASTLE_KING_CHECK, 0, "O-O+", CN_OK, "e1g1"},
    {SAN_FEN_CASTLE_KING_CHECK, 0, "0-0+", CN_OK, "e1g1"},
    {SAN_FEN_CASTLE_KING_CHECK, 0, "O-O!", CN_OK, "e1g1"},
    /* castling is not a king move onto the rook or the target square */
    {SAN_FEN_CASTLE_KING_CHECK, 0, "Kh1", CN_ERR_ILLEGAL_MOVE, NULL},
    {SAN_FEN_CASTLE_KING_CHECK, 0, "Kg1", CN_ERR_ILLEGAL_MOVE, NULL},
    {SAN_FEN_CASTLE_KING_CHECK, 0, "Kxh1", CN_ERR_ILLEGAL_MOVE, NULL},
    {SAN_FEN_CASTLE_KING_CHECK, 0, "Kf1", CN_OK, "e1f1"},
    {SAN_FEN_CASTLE_BLACK, 0, "O-O", CN_OK, "e8g8"},
    {SAN_FEN_CASTLE_BLACK, 0, "O-O-O+", CN_OK, "e8c8"},
    {SAN_FEN_CASTLE_BLACK, 0, "0-0-0", CN_OK, "e8c8"},
    {SAN_FEN_960, 1, "O-O", CN_OK, "e1g1"},
    {SAN_FEN_960, 1, "O-O-O", CN_OK, "e1b1"},
    {SAN_FEN_960, 1, "Kg1", CN_ERR_ILLEGAL_MOVE, NULL},
    {SAN_FEN_960, 1, "Kf1", CN_OK, "e1f1"},
};

/* --- helpers ----------------------------------------------------------------- */

static int san_test_load(cn_position *pos, const char *fen, int chess960) {
    cn_fen_error error;
    if (cn_fen_parse(pos, fen, strlen(fen), chess960, &error) != CN_OK) {
        SAN_TEST_FAIL("cannot parse FEN %s: %s", fen, error.message);
        return 0;
    }
    return 1;
}

/* Parses through a heap copy of exactly len bytes, so a sanitizer or
 * valgrind catches any read past len. */
static cn_status san_test_parse_exact(const cn_position *pos, const char *bytes, size_t len, cn_move *out) {
    char *copy = malloc(len ? len : 1);
    if (copy == NULL) return CN_ERR_INIT;
    memcpy(copy, bytes, len);
    cn_status status = cn_move_from_san(pos, copy, len, out);
    free(copy);
    return status;
}

static const char *san_test_status_name(cn_status status) {
    switch (status) {
    case CN_OK:
        return "CN_OK";
    case CN_ERR_BAD_MOVE:
        return "CN_ERR_BAD_MOVE";
    case CN_ERR_ILLEGAL_MOVE:
        return "CN_ERR_ILLEGAL_MOVE";
    default:
        return "other status";
    }
}

/* --- the tests ------------------------------------------------------------ */

static void san_test_output_table(void) {
    size_t count = sizeof san_test_output_cases / sizeof san_test_output_cases[0];
    for (size_t i = 0; i < count; i++) {
        const san_test_output_case *c = &san_test_output_cases[i];
        cn_position pos, before;
        cn_move move = CN_MOVE_NONE;
        char san[CN_SAN_MAX];
        if (!san_test_load(&pos, c->fen, c->chess960)) continue;
        cn_status status = cn_move_from_uci(&pos, c->uci, strlen(c->uci), &move);
        if (status != CN_OK) {
            SAN_TEST_FAIL("%s: UCI %s not accepted (%s)", c->fen, c->uci, san_test_status_name(status));
            continue;
        }
        before = pos;
        int length = cn_move_to_san(&pos, move, san);
        if (strcmp(san, c->san) != 0 || length != (int)strlen(c->san))
            SAN_TEST_FAIL("%s %s: got \"%s\" (%d), want \"%s\"", c->fen, c->uci, san, length, c->san);
        if (memcmp(&before, &pos, sizeof pos) != 0)
            SAN_TEST_FAIL("%s %s: cn_move_to_san changed the position", c->fen, c->uci);
    }
}

static void san_test_input_table(void) {
    size_t count = sizeof san_test_input_cases / sizeof san_test_input_cases[0];
    for (size_t i = 0; i < count; i++) {
        const san_test_input_case *c = &san_test_input_cases[i];
        cn_position pos;
        cn_move move = CN_MOVE_NONE, want = CN_MOVE_NONE;
        if (!san_test_load(&pos, c->fen, c->chess960)) continue;
        cn_status status = san_test_parse_exact(&pos, c->input, strlen(c->input), &move);
        if (status != c->status) {
            SAN_TEST_FAIL("%s \"%s\": got %s, want %s", c->fen, c->input, san_test_status_name(status),
                          san_test_status_name(c->status));
            continue;
        }
        if (status != CN_OK) continue;
        if (cn_move_from_uci(&pos, c->uci, strlen(c->uci), &want) != CN_OK || move != want) {
            char uci[6] = "";
            cn_move_to_uci(&pos, move, uci);
            SAN_TEST_FAIL("%s \"%s\": got %s, want %s", c->fen, c->input, uci, c->uci);
        }
    }
}

/* A move that is not legal in the position gets no SAN (and no crash). */
static void san_test_illegal_output(void) {
    cn_position pos;
    char san[CN_SAN_MAX] = "junk";
    const cn_move e2e4 = (cn_move)(12u | (28u << 6));
    if (!san_test_load(&pos, SAN_FEN_EN_PASSANT_BLACK, 0)) /* black to move */
        return;
    int length = cn_move_to_san(&pos, e2e4, san);
    if (length != 0 || san[0] != '\0') SAN_TEST_FAIL("illegal e2e4 gave \"%s\" (%d)", san, length);
    length = cn_move_to_san(&pos, CN_MOVE_NONE, san);
    if (length != 0 || san[0] != '\0') SAN_TEST_FAIL("CN_MOVE_NONE gave \"%s\" (%d)", san, length);
}

/* Embedded NUL bytes and bytes past len must not count. */
static void san_test_lengths(void) {
    cn_position pos;
    cn_move move = CN_MOVE_NONE;
    if (!san_test_load(&pos, SAN_FEN_START, 0)) return;
    if (san_test_parse_exact(&pos, "e4\0", 3, &move) != CN_ERR_BAD_MOVE) SAN_TEST_FAIL("\"e4\\0\" (len 3) accepted");
    if (san_test_parse_exact(&pos, "\0e4", 3, &move) != CN_ERR_BAD_MOVE) SAN_TEST_FAIL("\"\\0e4\" (len 3) accepted");
    if (cn_move_from_san(&pos, "e4xyz", 2, &move) != CN_OK || cn_move_to(move) != 28)
        SAN_TEST_FAIL("\"e4xyz\" with len 2 is not e4");
    if (cn_move_from_san(&pos, "Nf3", 2, &move) != CN_ERR_BAD_MOVE) SAN_TEST_FAIL("\"Nf\" (len 2 of \"Nf3\") accepted");
    if (cn_move_from_san(&pos, NULL, 0, &move) != CN_ERR_BAD_MOVE) SAN_TEST_FAIL("NULL string accepted");
    if (cn_move_from_san(&pos, "", 0, &move) != CN_ERR_BAD_MOVE) SAN_TEST_FAIL("empty string accepted");
}

/* In each position: every legal move's SAN is distinct and parses back to
 * that move, with and without annotations, and every proper prefix of it
 * is rejected or names a different move without crashing. */
static void san_test_round_trip(const char *fen, int chess960) {
    cn_position pos;
    cn_move legal[CN_MAX_MOVES];
    char sans[CN_MAX_MOVES][CN_SAN_MAX];
    if (!san_test_load(&pos, fen, chess960)) return;
    int count = cn_legal_moves(&pos, legal);
    for (int i = 0; i < count; i++) {
        cn_move parsed = CN_MOVE_NONE;
        int length = cn_move_to_san(&pos, legal[i], sans[i]);
        if (length <= 0 || length > 7) {
            SAN_TEST_FAIL("%s move %d: SAN \"%s\" has length %d", fen, i, sans[i], length);
            continue;
        }
        cn_status status = san_test_parse_exact(&pos, sans[i], (size_t)length, &parsed);
        if (status != CN_OK || parsed != legal[i])
            SAN_TEST_FAIL("%s: \"%s\" does not parse back (%s)", fen, sans[i], san_test_status_name(status));
        char annotated[CN_SAN_MAX + 2];
        memcpy(annotated, sans[i], (size_t)length);
        memcpy(annotated + length, "!?", 3);
        status = san_test_parse_exact(&pos, annotated, (size_t)length + 2, &parsed);
        if (status != CN_OK || parsed != legal[i]) SAN_TEST_FAIL("%s: \"%s\" does not parse back", fen, annotated);
        for (int prefix = 0; prefix < length; prefix++)
            (void)san_test_parse_exact(&pos, sans[i], (size_t)prefix, &parsed);
        for (int j = 0; j < i; j++)
            if (strcmp(sans[i], sans[j]) == 0) SAN_TEST_FAIL("%s: two moves share SAN \"%s\"", fen, sans[i]);
    }
}

/* Deterministic random byte strings, biased to SAN's alphabet: the parser
 * must return one of its three statuses, and CN_OK only for a legal move. */
static void san_test_random_bytes(void) {
    static const char alphabet[] = "abcdefgh12345678NBRQKO0-x=+#!?e.p. qP\0\xff";
    cn_position pos;
    cn_move legal[CN_MAX_MOVES];
    uint64_t state = 0x9E3779B97F4A7C15u;
    if (!san_test_load(&pos, "r3k2r/1P3ppp/8/3pP3/8/2N2N2/P4PPP/R3K2R w KQkq d6 0 1", 0)) return;
    int legal_count = cn_legal_moves(&pos, legal);
    for (int round = 0; round < 20000; round++) {
        char bytes[12];
        state ^= state << 13, state ^= state >> 7, state ^= state << 17;
        size_t len = (size_t)(state % 10);
        for (size_t k = 0; k < len; k++) {
            state ^= state << 13, state ^= state >> 7, state ^= state << 17;
            bytes[k] =
                (state & 8) ? (char)(unsigned char)(state >> 24) : alphabet[(state >> 8) % (sizeof alphabet - 1)];
        }
        cn_move move = CN_MOVE_NONE;
        cn_status status = san_test_parse_exact(&pos, bytes, len, &move);
        if (status == CN_OK) {
            int found = 0;
            for (int i = 0; i < legal_count; i++) found |= legal[i] == move;
            if (!found) SAN_TEST_FAIL("random input gave a move that is not legal");
        } else if (status != CN_ERR_BAD_MOVE && status != CN_ERR_ILLEGAL_MOVE) {
            SAN_TEST_FAIL("random input gave status %d", (int)status);
        }
    }
}

/* cn_moves_to_san over the whole list gives what cn_move_to_san gives for
 * each move alone, whatever the order of the list. */
static void san_test_batch(const char *fen, int chess960) {
    cn_position pos;
    cn_move legal[CN_MAX_MOVES];
    char batch[CN_MAX_MOVES][CN_SAN_MAX];
    char single[CN_SAN_MAX];
    if (!san_test_load(&pos, fen, chess960)) return;
    int count = cn_legal_moves(&pos, legal);
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1) /* reversed order */
            for (int i = 0, j = count - 1; i < j; i++, j--) {
                cn_move t = legal[i];
                legal[i] = legal[j];
                legal[j] = t;
            }
        memset(batch, 'X', sizeof batch);
        if (cn_moves_to_san(&pos, legal, count, batch) != CN_OK)
            SAN_TEST_FAIL("%s: cn_moves_to_san refused %d moves", fen, count);
        for (int i = 0; i < count; i++) {
            cn_move_to_san(&pos, legal[i], single);
            if (strcmp(single, batch[i]) != 0)
                SAN_TEST_FAIL("%s: batch SAN \"%.15s\" != single \"%s\"", fen, batch[i], single);
        }
    }
    if (cn_moves_to_san(&pos, legal, -1, batch) != CN_ERR_BAD_ARGUMENT ||
        cn_moves_to_san(&pos, legal, CN_MAX_MOVES + 1, batch) != CN_ERR_BAD_ARGUMENT)
        SAN_TEST_FAIL("cn_moves_to_san accepted an out-of-range count");
}

/* --- rules.h --------------------------------------------------------------- */

typedef struct san_test_state_case {
    const char *fen;
    unsigned state;
} san_test_state_case;

static void san_test_game_state(void) {
    static const san_test_state_case cases[] = {
        {SAN_FEN_START, 0},
        /* fool's mate */
        {"rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", CN_GAME_CHECK | CN_GAME_NO_MOVES},
        /* check, not mate */
        {"4k3/8/8/8/8/8/4r3/4K3 w - - 0 1", CN_GAME_CHECK},
        /* stalemate: black king a8, white queen b6 */
        {"k7/8/1Q6/8/8/8/8/7K b - - 0 1", CN_GAME_NO_MOVES},
        /* stalemate and insufficient at once (K+B v K, K+N v K) */
        {"k7/2K5/8/8/8/8/8/6B1 b - - 0 1", CN_GAME_NO_MOVES | CN_GAME_INSUFFICIENT},
        {"7k/5K2/5N2/8/8/8/8/8 b - - 0 1", CN_GAME_NO_MOVES | CN_GAME_INSUFFICIENT},
        /* K+B v K with the bishop giving check */
        {"k7/2K5/8/8/8/8/8/7B b - - 0 1", CN_GAME_CHECK | CN_GAME_INSUFFICIENT},
        /* material */
        {"8/8/8/8/8/8/8/k6K w - - 0 1", CN_GAME_INSUFFICIENT},
        {"8/2p5/8/8/8/8/8/k6K w - - 0 1", 0},
        {"8/2r5/8/8/8/8/8/k6K w - - 0 1", 0},
        {"8/2q5/8/8/8/8/8/k6K w - - 0 1", 0},
        {"8/2n5/8/8/8/8/8/k6K w - - 0 1", CN_GAME_INSUFFICIENT},
        {"8/8/8/8/8/8/8/k5BK w - - 0 1", CN_GAME_INSUFFICIENT},
        /* two knights are not insufficient for chess.js */
        {"8/8/8/8/8/8/8/k4NNK w - - 0 1", 0},
        /* knight and bishop */
        {"8/8/8/8/8/8/8/k4NBK w - - 0 1", 0},
        /* bishops a7 and d6 (both dark), one each side */
        {"8/b7/3B4/8/8/8/8/k6K w - - 0 1", CN_GAME_INSUFFICIENT},
        /* bishops a7 (dark) and d7 (light) */
        {"8/b2B4/8/8/8/8/8/k6K w - - 0 1", 0},
        /* four bishops a7 c7 e7 g7, all dark */
        {"8/b1B1b1B1/8/8/k7/7K/8/8 w - - 0 1", CN_GAME_INSUFFICIENT},
        {"8/b1B1b1Bb/8/8/k7/7K/8/8 w - - 0 1", 0},
        /* fifty moves: the clock alone decides */
        {"4k3/8/8/8/8/8/R7/4K3 w - - 99 80", 0},
        {"4k3/8/8/8/8/8/R7/4K3 w - - 100 80", CN_GAME_FIFTY},
        {"4k3/8/8/8/8/8/8/4K3 w - - 150 80", CN_GAME_FIFTY | CN_GAME_INSUFFICIENT},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cn_position pos;
        if (!san_test_load(&pos, cases[i].fen, 0)) continue;
        unsigned state = cn_game_state(&pos);
        if (state != cases[i].state)
            SAN_TEST_FAIL("%s: game state %u, expected %u", cases[i].fen, state, cases[i].state);
        int insufficient = (cases[i].state & CN_GAME_INSUFFICIENT) != 0;
        if (cn_insufficient_material(&pos) != insufficient)
            SAN_TEST_FAIL("%s: insufficient material should be %d", cases[i].fen, insufficient);
    }
}

/* Attackers from a mailbox and coordinate steps, independent of the
 * engine's tables. */
static uint64_t san_test_attackers_reference(const cn_position *pos, unsigned square, int color) {
    static const int knight[8][2] = {{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
    static const int king[8][2] = {{1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}, {1, -1}};
    uint64_t out = 0;
    int tf = (int)(square & 7), tr = (int)(square >> 3);
    for (unsigned from = 0; from < 64; from++) {
        int c;
        int type = cn_piece_on(pos, from, &c);
        if (type < 0 || c != color || from == square) continue;
        int df = tf - (int)(from & 7), dr = tr - (int)(from >> 3);
        int hit = 0;
        if (type == CN_PAWN) {
            hit = (df == 1 || df == -1) && dr == (color == CN_WHITE ? 1 : -1);
        } else if (type == CN_KNIGHT || type == CN_KING) {
            const int (*steps)[2] = type == CN_KNIGHT ? knight : king;
            for (int k = 0; k < 8; k++) hit |= steps[k][0] == df && steps[k][1] == dr;
        } else {
            int straight = df == 0 || dr == 0;
            int diagonal = df == dr || df == -dr;
            int fits = (type == CN_QUEEN && (straight || diagonal)) || (type == CN_ROOK && straight) ||
                       (type == CN_BISHOP && diagonal);
            if (fits) {
                int sf = (df > 0) - (df < 0), sr = (dr > 0) - (dr < 0);
                int f = (int)(from & 7) + sf, r = (int)(from >> 3) + sr;
                hit = 1;
                while (f != tf || r != tr) {
                    if (cn_piece_on(pos, (unsigned)(r * 8 + f), NULL) >= 0) {
                        hit = 0;
                        break;
                    }
                    f += sf, r += sr;
                }
            }
        }
        if (hit) out |= (uint64_t)1 << from;
    }
    return out;
}

static void san_test_attackers(const char *fen, int chess960) {
    cn_position pos;
    if (!san_test_load(&pos, fen, chess960)) return;
    for (unsigned square = 0; square < 64; square++)
        for (int color = 0; color < 2; color++) {
            uint64_t got = cn_attackers(&pos, square, color), want = san_test_attackers_reference(&pos, square, color);
            if (got != want)
                SAN_TEST_FAIL("%s: attackers of %u by %d: %016llx, expected %016llx", fen, square, color,
                              (unsigned long long)got, (unsigned long long)want);
        }
    if (cn_attackers(&pos, 64, 0) != 0 || cn_attackers(&pos, 0, 2) != 0)
        SAN_TEST_FAIL("cn_attackers accepted an out-of-range argument");
}

int san_tests_run(void) {
    static const char *const round_trip_fens[] = {
        SAN_FEN_START,
        SAN_FEN_TWO_KNIGHTS,
        SAN_FEN_TWO_ROOKS,
        SAN_FEN_BLACK_KNIGHTS,
        SAN_FEN_THREE_QUEENS,
        SAN_FEN_ROOKS_CHECK,
        SAN_FEN_PINNED,
        SAN_FEN_EN_PASSANT,
        SAN_FEN_EN_PASSANT_BLACK,
        SAN_FEN_PROMOTE_CHECK,
        SAN_FEN_PROMOTE_MATE,
        SAN_FEN_PROMOTE_CAPTURE,
        SAN_FEN_BLACK_PROMOTE,
        SAN_FEN_CASTLE_QUEEN_CHECK,
        SAN_FEN_CASTLE_KING_CHECK,
        SAN_FEN_CASTLE_BLACK,
        SAN_FEN_SCHOLAR,
        /* "kiwipete": castling both ways, pins, many captures */
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        /* promotions with captures for both sides */
        "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    };
    san_test_failures = 0;
    if (cn_init() != CN_OK) {
        printf("san_test FAIL: cn_init: %s\n", cn_init_message());
        return 1;
    }
    san_test_output_table();
    san_test_input_table();
    san_test_illegal_output();
    san_test_lengths();
    for (size_t i = 0; i < sizeof round_trip_fens / sizeof round_trip_fens[0]; i++)
        san_test_round_trip(round_trip_fens[i], 0);
    san_test_round_trip(SAN_FEN_960, 1);
    for (size_t i = 0; i < sizeof round_trip_fens / sizeof round_trip_fens[0]; i++) {
        san_test_batch(round_trip_fens[i], 0);
        san_test_attackers(round_trip_fens[i], 0);
    }
    san_test_batch(SAN_FEN_960, 1);
    san_test_attackers(SAN_FEN_960, 1);
    san_test_game_state();
    san_test_random_bytes();
    return san_test_failures;
}
