/*
 * suite.h - reads perft suites in EPD form: "FEN ;D1 n ;D2 n ...".
 * Shared by the engine tests and the deep-perft script.
 */
#ifndef CN_TEST_SUITE_H
#define CN_TEST_SUITE_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SUITE_MAX_DEPTHS 16

typedef struct suite_line {
    char fen[128];
    int chess960;
    int depth_count;
    int depths[SUITE_MAX_DEPTHS];
    uint64_t expected[SUITE_MAX_DEPTHS];
} suite_line;

typedef struct suite_file {
    suite_line *lines;
    int count;
} suite_file;

static inline int suite_load(const char *path, int chess960, suite_file *out) {
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    int capacity = 64;
    out->lines = malloc(sizeof(suite_line) * (size_t)capacity);
    out->count = 0;
    char buf[1024];
    while (fgets(buf, sizeof buf, f)) {
        char *semi = strchr(buf, ';');
        if (!semi) continue;
        if (out->count == capacity) {
            capacity *= 2;
            out->lines = realloc(out->lines, sizeof(suite_line) * (size_t)capacity);
        }
        suite_line *line = &out->lines[out->count];
        memset(line, 0, sizeof *line);
        size_t fen_len = (size_t)(semi - buf);
        while (fen_len && buf[fen_len - 1] == ' ') fen_len--;
        if (fen_len >= sizeof line->fen) continue;
        memcpy(line->fen, buf, fen_len);
        line->fen[fen_len] = 0;
        line->chess960 = chess960;
        char *p = semi;
        while (p && *p == ';' && line->depth_count < SUITE_MAX_DEPTHS) {
            int depth;
            unsigned long long count;
            if (sscanf(p, ";D%d %llu", &depth, &count) == 2) {
                line->depths[line->depth_count] = depth;
                line->expected[line->depth_count] = count;
                line->depth_count++;
            }
            p = strchr(p + 1, ';');
        }
        out->count++;
    }
    fclose(f);
    return 0;
}

static inline void suite_free(suite_file *suite) {
    free(suite->lines);
    suite->lines = NULL;
    suite->count = 0;
}

#endif
