/*
 * magic_seeds.c - how the seeds in csrc/engine/slider_tables.c were chosen: for each
 * square, the seed (of 1..N) whose magic search needs the fewest subset
 * checks. Prints the two seed tables.
 *
 *   magic_seeds [N]      (default 1000)
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "attacks.h"
#include "chess_native.h"

int main(int argc, char **argv) {
    uint64_t tries = argc > 1 ? strtoull(argv[1], NULL, 10) : 1000;
    if (cn_init() != CN_OK) return 1;
    for (int rook = 1; rook >= 0; rook--) {
        printf("static const uint16_t %s_seeds[64] = {", rook ? "rook" : "bishop");
        uint64_t total = 0;
        for (unsigned square = 0; square < 64; square++) {
            uint64_t best_seed = 1, best_work = UINT64_MAX;
            for (uint64_t seed = 1; seed <= tries; seed++) {
                uint64_t work = cn_magic_search_work(rook, square, seed, best_work);
                if (work < best_work) {
                    best_work = work;
                    best_seed = seed;
                }
            }
            total += best_work;
            printf("%s%" PRIu64, square % 16 ? ", " : "\n    ", best_seed);
            fflush(stdout);
        }
        printf("\n}; /* %" PRIu64 " subset checks */\n", total);
    }
    return 0;
}
