/*
 * pgn_test.c - tests for the PGN reader (pgn.h) and its SAN writer.
 *
 * Entry point: int pgn_tests_run(void), returning the number of failures
 * and printing each one; #included by engine_test.c, every other name here
 * is static.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chess_native.h"
#include "pgn.h"
#include "pgn_reader.h"
#include "pgn_san.h"
#include "san.h"

int pgn_tests_run(void);

static int pgn_test_failures;

#define PGN_TEST_FAIL(...)                                                                                             \
    do {                                                                                                               \
        pgn_test_failures++;                                                                                           \
        printf("pgn_test FAIL: ");                                                                                     \
        printf(__VA_ARGS__);                                                                                           \
        printf("\n");                                                                                                  \
    } while (0)

static const char pgn_test_text[] = "\xEF\xBB\xBF[Event \"a\"]\r\n\r\n{c} 1. e4 e5 (1... c5 2. Nf3 $1) 2. Nf3 1-0\r\n"
                                    "junk line\n[Event \"b\"]\n1. d4 d5 2. Kd3 Nf6 *\n"
                                    "[Event \"c\"]\n1. c4 { open\n\n[Event \"d\"]\n1. Nf3 ; x\n% y\nd5 0-1\n";

static void pgn_read_text(const char *text, size_t len, cn_pgn_output *out) {
    cn_pgn_input in = {0};
    in.text = text;
    in.length = len;
    in.final = 1;
    in.line = 1;
    if (cn_pgn_read(&in, out) != CN_OK || in.consumed != len) PGN_TEST_FAIL("read of %d bytes failed", (int)len);
}

/* The op sequence of the records, one letter each. */
static void pgn_ops(const cn_pgn_output *out, char *buf, size_t cap) {
    static const char letters[] = "?GTSMCN()EWZK";
    size_t n = 0;
    for (size_t i = 0; i < out->record_count && n + 1 < cap; i++) buf[n++] = letters[out->records[i * 4]];
    buf[n] = '\0';
}

static void pgn_test_records(void) {
    cn_pgn_output out = {0};
    pgn_read_text(pgn_test_text, sizeof pgn_test_text - 1, &out);
    char ops[256];
    pgn_ops(&out, ops, sizeof ops);
    const char *want = "GTCSMM(MMN)MZ"
                       "GTSMMEWZ"
                       "GTSMEWCZ"
                       "GTSMCMZ";
    if (strcmp(ops, want)) PGN_TEST_FAIL("ops %s, want %s", ops, want);
    if (out.games != 4) PGN_TEST_FAIL("%d games", (int)out.games);
    /* The illegal Kd3: line 6, column 13, ply 3. */
    for (size_t i = 0; i + 1 < out.record_count; i++) {
        const int32_t *r = out.records + i * 4;
        if (r[0] != CN_PGN_OP_ERROR || r[3] != 3) continue;
        if (r[4 + 1] != 6 || r[4 + 2] != 13) PGN_TEST_FAIL("Kd3 error at %d:%d", (int)r[5], (int)r[6]);
    }
    cn_pgn_output_free(&out);
}

/* Reading text in two parts, cut at every byte, gives the same records. */
static void pgn_test_split_text(const char *text, size_t len) {
    cn_pgn_output whole = {0};
    pgn_read_text(text, len, &whole);
    for (size_t cut = 0; cut <= len; cut++) {
        cn_pgn_output parts = {0};
        cn_pgn_input first = {0};
        first.text = text;
        first.length = cut;
        first.line = 1;
        cn_pgn_read(&first, &parts);
        cn_pgn_input rest = {0};
        rest.text = text + first.consumed;
        rest.length = len - first.consumed;
        rest.final = 1;
        rest.line = first.consumed_line;
        rest.column = first.consumed_column;
        cn_pgn_read(&rest, &parts);
        int same = parts.record_count == whole.record_count;
        for (size_t i = 0; same && i < whole.record_count; i++) {
            const int32_t *x = whole.records + i * 4, *y = parts.records + i * 4;
            same =
                x[0] == y[0] && (x[0] != CN_PGN_OP_MOVE || x[1] == y[1]) && (x[0] != CN_PGN_OP_WHERE || x[1] == y[1]);
        }
        if (!same) PGN_TEST_FAIL("%.12s...: cut at %d reads differently", text, (int)cut);
        cn_pgn_output_free(&parts);
    }
    cn_pgn_output_free(&whole);
}

static void pgn_test_split(void) {
    pgn_test_split_text(pgn_test_text, sizeof pgn_test_text - 1);
    /* Cut after "0", the partial text's "0" must not be skipped as a move
     * number: read whole, "0-1" is a result and the tag on its line opens
     * the game. */
    static const char result_before_tag[] = "0-1 [Event \"x\"]\n1. e4 12. e5 *\n";
    pgn_test_split_text(result_before_tag, sizeof result_before_tag - 1);
    /* CR-only and CRLF line ends (a CR at a cut may have its LF after it),
     * comments after a result on its line, a lone result, "0000". */
    static const char line_ends[] = "[Event \"a\"]\r[Site \"b\"]\r\r1. e4 ; c\r e5 1-0 { after } ; x\r\r\n*\r"
                                    "[Event \"c\"]\r\n1. d4 {x\ry} 0000 $256 Ke7 *";
    pgn_test_split_text(line_ends, sizeof line_ends - 1);
    cn_pgn_output out = {0};
    pgn_read_text(line_ends, sizeof line_ends - 1, &out);
    char ops[64];
    pgn_ops(&out, ops, sizeof ops);
    if (strcmp(ops, "GTTSMCMCCZGSZGTSMCMEWEWZ")) PGN_TEST_FAIL("CR text ops %s", ops);
    /* The illegal Ke7 after the null move: line 10 (CR, CRLF and the
     * comment's CR each end one), column 14. */
    const int32_t *where = out.records + (out.record_count - 2) * 4;
    if (where[0] != CN_PGN_OP_WHERE || where[1] != 10 || where[2] != 14)
        PGN_TEST_FAIL("Ke7 error at %d:%d", (int)where[1], (int)where[2]);
    cn_pgn_output_free(&out);
}

/* A comment's end and the line ends inside it are found wherever they
 * fall in the scanner's steps: every length, every alignment, with an LF,
 * a CR or a CRLF inside. The comment keeps its bytes, and the illegal move
 * after it is reported on the line and column that follow. */
static void pgn_test_comment_scan(void) {
    static const char *const line_ends[] = {"", "\n", "\r", "\r\n"};
    char text[128];
    for (int pad = 0; pad < 16; pad++)
        for (int k = 0; k < 40; k++)
            for (int e = 0; e < 4; e++) {
                const int eol = (int)strlen(line_ends[e]);
                const int n = snprintf(text, sizeof text, "%*s1. e4 {%.*s%sy} Ke7 *", pad, "", k,
                                       "........................................", line_ends[e]);
                cn_pgn_output out = {0};
                pgn_read_text(text, (size_t)n, &out);
                int32_t comment = -1, line = -1, column = -1;
                for (size_t i = 0; i < out.record_count; i++) {
                    const int32_t *r = out.records + i * 4;
                    if (r[0] == CN_PGN_OP_COMMENT) comment = r[2];
                    if (r[0] == CN_PGN_OP_WHERE) line = r[1], column = r[2];
                }
                /* Line ends inside are kept; one at the start is trimmed. */
                const int32_t want_length = k ? k + eol + 1 : 1;
                const int32_t want_line = eol ? 2 : 1, want_column = eol ? 4 : pad + 7 + k + 4;
                if (comment != want_length || line != want_line || column != want_column)
                    PGN_TEST_FAIL("comment of %d + %d bytes after %d: length %d, Ke7 at %d:%d", k, eol, pad,
                                  (int)comment, (int)line, (int)column);
                cn_pgn_output_free(&out);
            }
}

/* A move that leaves its king in check is refused, on the mainline and in
 * a variation, in tree and mainline modes: the reader knows of a check
 * from the SAN it wrote for the move before, or works it out. */
static void pgn_test_check(void) {
    static const char text[] = "1. e4 f6 2. Qh5+ a6 *\n1. e4 f6 2. Nf3 (2. Qh5+ g6 3. Qxg6+ a6) 2... a6 *\n";
    for (int mode = CN_PGN_MODE_TREE; mode <= CN_PGN_MODE_MAINLINE; mode++) {
        cn_pgn_output out = {0};
        cn_pgn_input in = {0};
        in.text = text;
        in.length = sizeof text - 1;
        in.final = 1;
        in.mode = (cn_pgn_mode)mode;
        cn_pgn_read(&in, &out);
        int errors = 0;
        for (size_t i = 0; i < out.record_count; i++) {
            const int32_t *r = out.records + i * 4;
            if (r[0] != CN_PGN_OP_ERROR) continue;
            errors++;
            if (r[2] != 29 || memcmp(out.strings + r[1], "illegal or ambiguous move: a6", 29))
                PGN_TEST_FAIL("mode %d: error %.*s", mode, (int)r[2], out.strings + r[1]);
        }
        if (errors != 2) PGN_TEST_FAIL("mode %d: %d errors, want a6 twice", mode, errors);
        cn_pgn_output_free(&out);
    }
}

/* Games whose starts fool a guess: a game opened by a comment before its
 * tags, tags split by blank lines, a comment left open over a tag line,
 * invalid UTF-8, an illegal move, text between games. */
static const char pgn_test_tricky[] = "[Event \"x\"]\n1. e4 *\n{before}\n[Event \"y\"]\n1. d4 *\n"
                                      "[Event \"z\"]\n\n[Site \"s\"]\n\n1. Nf3 Nf6 0-1\n"
                                      "[Event \"\xC3\"]\n1. e4 { open\n[Event \"w\"]\n1. Ke2 Ke7 2. Kf8 *\n"
                                      "just text\n\n[White \"v\"]\n1. c4 (1. d4 (1. e4)) c5 1/2-1/2\n";

static int pgn_same_output(const cn_pgn_output *x, const cn_pgn_output *y) {
    return x->record_count == y->record_count && x->string_length == y->string_length && x->games == y->games &&
           (!x->record_count ||
            !memcmp(x->records, y->records, x->record_count * CN_PGN_RECORD_INTS * sizeof(int32_t))) &&
           (!x->string_length || !memcmp(x->strings, y->strings, x->string_length));
}

/* Reads text on one thread and on `threads`; fails unless the outputs are
 * the same. Returns the blocks the parallel read kept. */
static size_t pgn_check_parallel(const char *text, size_t length, int final, int threads, size_t min_block) {
    cn_pgn_input one = {0};
    one.text = text;
    one.length = length;
    one.final = final;
    one.line = 1;
    cn_pgn_output want = {0}, got = {0};
    cn_pgn_read(&one, &want);
    cn_pgn_input many = one;
    if (cn_pgn_read_parallel(&many, &got, threads, min_block) != CN_OK) PGN_TEST_FAIL("parallel read failed");
    if (!pgn_same_output(&want, &got) || many.consumed != one.consumed || many.consumed_line != one.consumed_line ||
        many.consumed_column != one.consumed_column)
        PGN_TEST_FAIL("%d threads, blocks of %d, %d bytes (final %d): not the output of one thread", threads,
                      (int)min_block, (int)length, final);
    cn_pgn_output_free(&want);
    cn_pgn_output_free(&got);
    return many.blocks;
}

/* cn_pgn_read_parallel gives cn_pgn_read's output, whole or cut, for any
 * thread count and block size. */
static void pgn_test_parallel(void) {
    static const char kept[] = "[Event \"x\"]\n1. e4 *\n\n[Event \"y\"]\n1. d4 *\n";
    static const char redone[] = "[Event \"x\"]\n1. e4 *\n{before}\n[Event \"y\"]\n1. d4 *\n";
    if (pgn_check_parallel(kept, sizeof kept - 1, 1, 2, 1) != 2) PGN_TEST_FAIL("the second game's block was not kept");
    /* The block guessed at [Event "y"] starts inside the game {before} opens. */
    if (pgn_check_parallel(redone, sizeof redone - 1, 1, 2, 1) != 1) PGN_TEST_FAIL("a wrong guess was kept");
    char text[4096] = "";
    for (int i = 0; i < 6; i++) {
        strcat(text, pgn_test_text + (i ? 3 : 0)); /* one BOM, at the start */
        strcat(text, pgn_test_tricky);
    }
    const size_t len = strlen(text);
    size_t runs_kept = 0;
    for (size_t cut = len - 120; cut <= len; cut += 40)
        for (int threads = 2; threads <= 5; threads++)
            for (size_t min_block = 1; min_block < len; min_block = min_block * 3 + 7)
                runs_kept += pgn_check_parallel(text, cut, cut == len, threads, min_block) > 1;
    if (!runs_kept) PGN_TEST_FAIL("no parallel read kept a block");
    /* Blocks tens of kilobytes apart: each block's line offset adds up the
     * lines the blocks before it read, over many games. */
    static char large[64 * sizeof text];
    size_t large_len = 0;
    for (int i = 0; i < 64; i++) {
        memcpy(large + large_len, text + (i ? 3 : 0), len - (i ? 3 : 0));
        large_len += len - (i ? 3 : 0);
    }
    for (int threads = 2; threads <= 3; threads++)
        for (size_t cut = large_len - 1001; cut <= large_len; cut += 1001)
            if (pgn_check_parallel(large, cut, cut == large_len, threads, large_len / 9) < 2)
                PGN_TEST_FAIL("a large text was read as one block");
}

/* Does the one game of text carry the error "invalid UTF-8"? */
static int pgn_invalid_utf8(const char *text) {
    cn_pgn_output out = {0};
    pgn_read_text(text, strlen(text), &out);
    int found = 0;
    for (size_t i = 0; i < out.record_count; i++) {
        const int32_t *r = out.records + i * 4;
        if (r[0] == CN_PGN_OP_ERROR && r[2] == 13 && !memcmp(out.strings + r[1], "invalid UTF-8", 13)) found = 1;
    }
    cn_pgn_output_free(&out);
    return found;
}

/* UTF-8 as RFC 3629 defines it, in a tag and in a comment: the shortest
 * form of every code point up to U+10FFFF but the surrogates. */
static void pgn_test_utf8(void) {
    static const char *const valid[] = {"\xC2\x80",         "\xDF\xBF",         "\xE0\xA0\x80",
                                        "\xED\x9F\xBF",     "\xEE\x80\x80",     "\xEF\xBF\xBF",
                                        "\xF0\x90\x80\x80", "\xF4\x8F\xBF\xBF", "caf\xC3\xA9"};
    static const char *const invalid[] = {
        "\xC0\x80",
        "\xC1\xBF", /* overlong 2 bytes */
        "\xE0\x80\x80",
        "\xE0\x9F\xBF", /* overlong 3 bytes */
        "\xF0\x80\x80\x80",
        "\xF0\x8F\xBF\xBF", /* overlong 4 bytes */
        "\xED\xA0\x80",
        "\xED\xBF\xBF", /* surrogates U+D800, U+DFFF */
        "\xF4\x90\x80\x80",
        "\xF5\x80\x80\x80",
        "\xF7\xBF\xBF\xBF",
        "\xFF",
        "\xFE", /* above U+10FFFF */
        "\x80",
        "\xC2",
        "\xE2\x82",
        "\xC2\x41",
        "\xE2\x28\xA1", /* cut or lone */
    };
    char text[128];
    for (size_t i = 0; i < sizeof valid / sizeof *valid; i++) {
        snprintf(text, sizeof text, "[White \"a%sb\"]\n1. e4 { x%sy } *\n", valid[i], valid[i]);
        if (pgn_invalid_utf8(text)) PGN_TEST_FAIL("valid UTF-8 #%d reported invalid", (int)i);
    }
    for (size_t i = 0; i < sizeof invalid / sizeof *invalid; i++) {
        snprintf(text, sizeof text, "[White \"a%sb\"]\n1. e4 *\n", invalid[i]);
        if (!pgn_invalid_utf8(text)) PGN_TEST_FAIL("invalid UTF-8 #%d in a tag not reported", (int)i);
        snprintf(text, sizeof text, "[White \"a\"]\n1. e4 { x%s } *\n", invalid[i]);
        if (!pgn_invalid_utf8(text)) PGN_TEST_FAIL("invalid UTF-8 #%d in a comment not reported", (int)i);
    }
    /* A lone bad byte at every place of comments 1 to 33 bytes long: the
     * check reads words, then a tail. */
    for (int n = 1; n <= 33; n++) {
        for (int at = 0; at < n; at++) {
            char comment[40];
            memset(comment, 'a', (size_t)n);
            comment[n] = 0;
            comment[at] = '\xFF';
            snprintf(text, sizeof text, "1. e4 {%s} *\n", comment);
            if (!pgn_invalid_utf8(text)) PGN_TEST_FAIL("a bad byte at %d of a %d-byte comment not reported", at, n);
        }
    }
}

/* The reader's play without the key leaves the position cn_pgn_play
 * leaves (after), all but the key. */
static void pgn_test_unkeyed(const cn_position *before, const cn_position *after, cn_move move) {
    cn_position unkeyed = *before;
    if (pgn_play_unkeyed(&unkeyed, move) != CN_OK) PGN_TEST_FAIL("move %d refused without the key", (int)move);
    unkeyed.key = after->key;
    if (memcmp(&unkeyed, after, sizeof unkeyed)) PGN_TEST_FAIL("move %d played otherwise without the key", (int)move);
}

/* pgn_fast_san equals cn_move_to_san, and pgn_play_unkeyed cn_pgn_play, on
 * every legal move and a pass along seeded random games. */
static void pgn_test_fast_san(void) {
    static const char *const fens[] = {
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1",
        "4k3/1P6/8/8/8/8/6p1/4K3 w - - 0 1",
    };
    unsigned seed = 12345;
    for (int f = 0; f < 4; f++) {
        for (int game = 0; game < 40; game++) {
            cn_position pos;
            cn_fen_parse(&pos, fens[f], strlen(fens[f]), f == 2, NULL);
            for (int ply = 0; ply < 120; ply++) {
                cn_move legal[CN_MAX_MOVES];
                const int n = cn_legal_moves(&pos, legal);
                if (n == 0) break;
                for (int i = 0; i < n; i++) {
                    cn_position after = pos;
                    cn_pgn_play(&after, legal[i]);
                    char fast[CN_SAN_MAX], slow[CN_SAN_MAX];
                    pgn_fast_san(&pos, &after, legal[i], fast);
                    cn_move_to_san(&pos, legal[i], slow);
                    if (strcmp(fast, slow)) PGN_TEST_FAIL("SAN %s, cn_move_to_san %s", fast, slow);
                    pgn_test_unkeyed(&pos, &after, legal[i]);
                }
                cn_position passed = pos;
                if (cn_pgn_play(&passed, CN_MOVE_NONE) == CN_OK) pgn_test_unkeyed(&pos, &passed, CN_MOVE_NONE);
                seed = seed * 1103515245u + 12345u;
                cn_pgn_play(&pos, legal[(seed >> 16) % (unsigned)n]);
            }
        }
    }
}

/* A null move keeps the clocks valid, as cn_make does: they stop at their
 * largest values rather than wrap (a fullmove of 0 is no FEN). */
static void pgn_test_null_move_clocks(void) {
    static const char fen[] = "4k3/8/8/8/8/8/8/4K3 b - - 65535 4294967295";
    cn_position pos;
    cn_fen_parse(&pos, fen, strlen(fen), 0, NULL);
    if (cn_pgn_play(&pos, CN_MOVE_NONE) != CN_OK) PGN_TEST_FAIL("a null move refused");
    char out[128];
    cn_fen_write(&pos, out, sizeof out);
    if (strcmp(out, "4k3/8/8/8/8/8/8/4K3 w - - 65535 4294967295") != 0 || pos.key != cn_position_compute_key(&pos))
        PGN_TEST_FAIL("after a null move at the clocks' limits: %s", out);
}

/* The string of record field `field` (an offset, the length after it). */
static int pgn_string_is(const cn_pgn_output *out, size_t record, int field, const char *want) {
    const int32_t *r = out->records + record * CN_PGN_RECORD_INTS;
    return (size_t)r[field + 1] == strlen(want) && memcmp(out->strings + r[field], want, strlen(want)) == 0;
}

static void pgn_read_chessjs_text(const char *text, cn_pgn_output *out, int threads) {
    cn_pgn_input in = {0};
    in.text = text;
    in.length = strlen(text);
    in.final = 1;
    in.line = 1;
    in.mode = CN_PGN_MODE_CHESSJS;
    const cn_status status = threads > 1 ? cn_pgn_read_parallel(&in, out, threads, 1) : cn_pgn_read(&in, out);
    if (status != CN_OK) PGN_TEST_FAIL("chess.js mode read failed");
}

/* CN_PGN_MODE_CHESSJS: moves as written, chess.js's comments, and its
 * syntax error message; one game even where threads could cut the text. */
static void pgn_test_chessjs_mode(void) {
    cn_pgn_output out = {0};
    char ops[64];
    pgn_read_chessjs_text("[Event \"a\\\"]\n{root} 1. e4! $2 {c1\r\n\nc2} (1. d4 {v}) e5 * ;  end \n", &out, 1);
    pgn_ops(&out, ops, sizeof ops);
    if (strcmp(ops, "GTCKNNC(KC)KCZ")) PGN_TEST_FAIL("chess.js mode ops %s", ops);
    if (out.record_count == 14) {
        if (!pgn_string_is(&out, 1, CN_PGN_TAG_NAME, "Event") || out.records[1 * 4 + CN_PGN_TAG_VALUE_LENGTH] != 2)
            PGN_TEST_FAIL("chess.js mode tag");
        if (!pgn_string_is(&out, 3, CN_PGN_TOKEN_TEXT, "e4") || !pgn_string_is(&out, 6, CN_PGN_COMMENT_TEXT, "c1 c2") ||
            !pgn_string_is(&out, 12, CN_PGN_COMMENT_TEXT, "end"))
            PGN_TEST_FAIL("chess.js mode strings");
        if (out.records[13 * 4 + CN_PGN_END_RESULT] != CN_PGN_RESULT_UNKNOWN) PGN_TEST_FAIL("chess.js mode result");
    }
    cn_pgn_output_free(&out);
    /* Appended after what the output holds, which an error keeps. */
    pgn_read_chessjs_text("1. d4 *", &out, 1);
    pgn_read_chessjs_text("1. e4 {a} {b}", &out, 1);
    pgn_ops(&out, ops, sizeof ops);
    if (strcmp(ops, "GKZGEWZ") || !pgn_string_is(&out, 1, CN_PGN_TOKEN_TEXT, "d4") ||
        !pgn_string_is(&out, 4, CN_PGN_ERROR_MESSAGE,
                       "Expected end of input, game termination marker, move number, standard "
                       "algebraic notation, or whitespace but \"{\" found."))
        PGN_TEST_FAIL("chess.js mode error %s", ops);
    cn_pgn_output_free(&out);
    pgn_read_chessjs_text("1. e4 {a} {b}", &out, 1);
    pgn_ops(&out, ops, sizeof ops);
    if (strcmp(ops, "GEWZ") || !pgn_string_is(&out, 1, CN_PGN_ERROR_MESSAGE,
                                              "Expected end of input, game termination marker, move number, standard "
                                              "algebraic notation, or whitespace but \"{\" found."))
        PGN_TEST_FAIL("chess.js mode error %s", ops);
    cn_pgn_output_free(&out);
    char two[256] = "";
    for (int k = 0; k < 4; k++) strcat(two, "[Event \"x\"]\n\n1. e4 e5 *\n\n");
    pgn_read_chessjs_text(two, &out, 2);
    if (out.games != 1 || out.records[1 * 4] != CN_PGN_OP_ERROR)
        PGN_TEST_FAIL("chess.js mode read %d games", (int)out.games);
    cn_pgn_output_free(&out);
}

/* A comment's end and the line ends inside it are found by one search of
 * several bytes at a time: wherever they fall in those blocks (and in the
 * text's last bytes), the error after the comment is at the right line and
 * column, and the comment's text is whole. */
static void pgn_test_comment_line_ends(void) {
    static const char *const ends[] = {"\n", "\r", "\r\n"};
    char text[128];
    for (int kind = 0; kind < 3; kind++) {
        for (int length = 0; length <= 40; length++) {
            for (int at = -1; at < length; at++) { /* where the line end is; -1: none */
                size_t n = (size_t)sprintf(text, "1. e4 {");
                for (int i = 0; i < length; i++) {
                    if (i == at)
                        n += (size_t)sprintf(text + n, "%s", ends[kind]);
                    else
                        text[n++] = (char)('a' + i % 26);
                }
                size_t start = 7, end = n; /* the comment as recorded: trimmed */
                while (start < end && (text[start] == '\n' || text[start] == '\r')) start++;
                while (end > start && (text[end - 1] == '\n' || text[end - 1] == '\r')) end--;
                const size_t after = (size_t)length - (size_t)(at + 1); /* bytes after the line end */
                n += (size_t)sprintf(text + n, "} Ke5 *");
                cn_pgn_output out = {0};
                pgn_read_text(text, n, &out);
                int32_t line = 0, column = 0, comments = 0;
                for (size_t i = 0; i + 1 < out.record_count; i++) {
                    const int32_t *r = out.records + i * 4;
                    if (r[0] == CN_PGN_OP_ERROR) {
                        line = r[4 + 1];
                        column = r[4 + 2];
                    }
                    if (r[0] == CN_PGN_OP_COMMENT) {
                        comments++;
                        if ((size_t)r[2] != end - start || memcmp(out.strings + r[1], text + start, end - start))
                            PGN_TEST_FAIL("comment of %d bytes, line end %d at %d: text %.*s", length, kind, at,
                                          (int)r[2], out.strings + r[1]);
                    }
                }
                if (comments != 1) PGN_TEST_FAIL("comment of %d bytes: %d comments", length, (int)comments);
                const int32_t want_line = at < 0 ? 1 : 2;
                const int32_t want_column = at < 0 ? (int32_t)(7 + length + 3) : (int32_t)(after + 3);
                if (line != want_line || column != want_column)
                    PGN_TEST_FAIL("comment of %d bytes, line end %d at %d: error at %d:%d, want %d:%d", length, kind,
                                  at, (int)line, (int)column, (int)want_line, (int)want_column);
                cn_pgn_output_free(&out);
            }
        }
        /* Unterminated, at the text's end: the game keeps its move and the comment. */
        for (int length = 0; length <= 40; length++) {
            size_t n = (size_t)sprintf(text, "1. e4 {");
            for (int i = 0; i < length; i++) text[n++] = i == length / 2 ? ends[kind][0] : 'x';
            cn_pgn_output out = {0};
            pgn_read_text(text, n, &out);
            char ops[16];
            pgn_ops(&out, ops, sizeof ops);
            if (strcmp(ops, "GSMEWCZ")) PGN_TEST_FAIL("unterminated comment of %d bytes: ops %s", length, ops);
            cn_pgn_output_free(&out);
        }
    }
}

int pgn_tests_run(void) {
    pgn_test_failures = 0;
    pgn_test_comment_line_ends();
    pgn_test_records();
    pgn_test_split();
    pgn_test_fast_san();
    pgn_test_null_move_clocks();
    pgn_test_parallel();
    pgn_test_utf8();
    pgn_test_chessjs_mode();
    pgn_test_check();
    pgn_test_comment_scan();
    return pgn_test_failures;
}
