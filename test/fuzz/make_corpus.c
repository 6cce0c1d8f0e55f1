/*
 * make_corpus.c - writes the seed corpora in corpus/<target>/ from the perft
 * suites plus hand-picked edge cases. `make corpus` runs it; the output is
 * committed, so the fuzzers need no suite files at run time.
 *
 *   make_corpus PERFT_DIR OUT_DIR
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "chess_native.h"
#include "san.h"
#include "../c/suite.h"

static const char *out_dir;
static int written;

static void put(const char *target, const char *name, int index, const void *data, size_t len) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s/%s-%04d", out_dir, target, name, index);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(data, 1, len, f) != len) {
        fprintf(stderr, "cannot write %s\n", path);
        exit(1);
    }
    fclose(f);
    written++;
}

/* Malformed and borderline FENs: one per way the parser can reject, and
 * some that it must accept. */
static const char *fen_edge_cases[] = {
    "",
    " ",
    "\t\n\r",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR\tw\tKQkq\t-\t0\t1",
    "  rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR   w KQkq - 0 1  \n",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\0 junk",
    "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "rnbqkbnr/pppppppp/44/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/8 w KQkq - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR// w KQkq - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQQBNR w KQkq - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKKBNR w KQkq - 0 1",
    "rnbqkbnP/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "k7/pp6/8/8/QQQQQQQQ/QQQQQQQQ/8/7K w - - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR W KQkq - 0 1",
    "4k3/8/8/8/8/8/8/4R1K1 w - - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkx - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KK - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkqK - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAhe - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w EA - 0 1",
    "4k3/8/8/8/8/8/8/R2K4 w Q - 0 1",
    "4k3/8/8/8/8/8/8/R1K5 w Q - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq x 0 1",
    "rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -1 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 65535 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 65536 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 -3",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1.5",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 999999999",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 999999999",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 9999999999",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 00000000000 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - +0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\xc3\xa9",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w \xe2\x99\x94 - 0 1",
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    "QQQQQQQK/QQQQQQQQ/8/8/8/8/8/7k w - - 0 1",
    "8/8/8/8/8/8/8/8 w - - 0 1",
    "K7/8/8/8/8/8/8/k7 w - - 0 1",
};

static void fen_corpus(const suite_file *suites, int suite_count) {
    int index = 0;
    for (size_t i = 0; i < sizeof fen_edge_cases / sizeof fen_edge_cases[0]; i++) {
        const char *fen = fen_edge_cases[i];
        size_t len = strlen(fen);
        if (i == 7) len = strlen(fen) + 1 + strlen(fen + strlen(fen) + 1); /* keep the embedded NUL */
        put("fen", "edge", index++, fen, len);
    }
    index = 0;
    for (int s = 0; s < suite_count; s++)
        for (int i = 0; i < suites[s].count; i++)
            put("fen", "suite", index++, suites[s].lines[i].fen, strlen(suites[s].lines[i].fen));
}

/* Op bytes for fuzz_moves: a little of everything, from a fixed LCG. */
static size_t move_ops(unsigned seed, unsigned char *out) {
    size_t n = 0;
    unsigned x = seed * 2654435761u + 1;
    for (int i = 0; i < 24; i++) {
        x = x * 1103515245u + 12345u;
        unsigned r = x >> 16;
        unsigned op = (r % 10) < 7 ? 0 : (r % 10) == 7 ? 4 : (r % 10) == 8 ? 7 : 5;
        out[n++] = (unsigned char)(op << 5 | ((r >> 4) & 31u));
        if (op == 0) out[n++] = (unsigned char)(r >> 8);
    }
    return n;
}

static void moves_and_san_corpus(const suite_file *suites, int suite_count) {
    unsigned char buf[512];
    int moves_index = 0, san_index = 0, position_index = 0;
    for (int s = 0; s < suite_count; s++) {
        for (int i = 0; i < suites[s].count; i++) {
            const suite_line *line = &suites[s].lines[i];
            cn_position pos;
            if (cn_fen_parse(&pos, line->fen, strlen(line->fen), line->chess960, NULL) != CN_OK) continue;
            size_t fen_len = strlen(line->fen);
            buf[0] = (unsigned char)(2 | line->chess960);
            memcpy(buf + 1, line->fen, fen_len);
            buf[1 + fen_len] = '\n';
            size_t head = 2 + fen_len;

            size_t n = move_ops((unsigned)(moves_index + 1), buf + head);
            put("moves", "suite", moves_index++, buf, head + n);

            /* SAN of three of its moves, one with an annotation. */
            cn_move moves[CN_MAX_MOVES];
            int count = cn_legal_moves(&pos, moves);
            cn_sort_moves_uci(&pos, moves, count);
            for (int k = 0; k < 3 && count > 0; k++) {
                int pick = k == 0 ? 0 : k == 1 ? count / 2 : count - 1;
                char san[CN_SAN_MAX + 8];
                int len = cn_move_to_san(&pos, moves[pick], san);
                if (k == 2) {
                    memcpy(san + len, "!?", 2);
                    len += 2;
                }
                memcpy(buf + head, san, (size_t)len);
                put("san", "suite", san_index++, buf, head + (size_t)len);
            }

            /* The parsed struct: raw (mode 1) and as square/piece pairs (mode 0). */
            buf[0] = 1;
            memcpy(buf + 1, &pos, sizeof pos);
            put("position", "raw", position_index, buf, 1 + sizeof pos);
            unsigned char h[15] = {0};
            h[1] = pos.side;
            h[2] = pos.castling;
            h[3] = pos.ep_square;
            memcpy(h + 4, pos.castle_rook, 4);
            h[8] = pos.chess960;
            h[9] = (unsigned char)pos.halfmove;
            h[10] = (unsigned char)(pos.halfmove >> 8);
            for (int b = 0; b < 4; b++) h[11 + b] = (unsigned char)(pos.fullmove >> (8 * b));
            memcpy(buf, h, sizeof h);
            size_t len = sizeof h;
            for (unsigned sq = 0; sq < 64; sq++) {
                int color;
                int type = cn_piece_on(&pos, sq, &color);
                if (type < 0) continue;
                buf[len++] = (unsigned char)sq;
                buf[len++] = (unsigned char)(type | color << 3);
            }
            put("position", "pairs", position_index++, buf, len);
        }
    }
    /* Built-in FEN picks with some hostile move text. */
    static const char *texts[] = {"e2e4",      "e7e8q", "e1g1",  "e1h1",    "0000", "O-O",      "0-0-0",
                                  "exd6 e.p.", "Nbd7",  "e8=Q+", "Qxh8#!!", "a1",   "\xff\xfe", "Kxh1"};
    for (int k = 0; k < 14; k++) {
        size_t tl = strlen(texts[k]);
        buf[0] = 0;
        buf[1] = (unsigned char)(k * 2);
        buf[2] = (unsigned char)(6u << 5 | (unsigned)tl);
        memcpy(buf + 3, texts[k], tl);
        put("moves", "text", k, buf, 3 + tl);
        buf[2] = (unsigned char)k;
        memcpy(buf + 2, texts[k], tl);
        put("san", "text", k, buf, 2 + tl);
    }
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: make_corpus PERFT_DIR OUT_DIR\n");
        return 2;
    }
    if (cn_init() != CN_OK) return 1;
    out_dir = argv[2];
    static const char *targets[] = {"fen", "moves", "san", "position"};
    char path[1024];
    mkdir(out_dir, 0755);
    for (int t = 0; t < 4; t++) {
        snprintf(path, sizeof path, "%s/%s", out_dir, targets[t]);
        if (mkdir(path, 0755) != 0 && errno != EEXIST) return 1;
    }
    /* All of the small suites and every 24th Chess960 start position. */
    static const struct {
        const char *file;
        int chess960, every;
    } files[] = {{"perftsuite.epd", 0, 1},  {"cpw.epd", 0, 1},       {"tricky.epd", 0, 1},
                 {"unreachable.epd", 0, 1}, {"tricky960.epd", 1, 1}, {"fischer.epd", 1, 24}};
    suite_file suites[6];
    for (int s = 0; s < 6; s++) {
        snprintf(path, sizeof path, "%s/%s", argv[1], files[s].file);
        if (suite_load(path, files[s].chess960, &suites[s]) != 0) {
            fprintf(stderr, "cannot read %s\n", path);
            return 1;
        }
        int kept = 0;
        for (int i = 0; i < suites[s].count; i += files[s].every) suites[s].lines[kept++] = suites[s].lines[i];
        suites[s].count = kept;
    }
    fen_corpus(suites, 6);
    moves_and_san_corpus(suites, 6);
    for (int s = 0; s < 6; s++) suite_free(&suites[s]);
    printf("wrote %d seed files under %s\n", written, out_dir);
    return 0;
}
