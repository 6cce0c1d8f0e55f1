/*
 * perft.c - perft entry points; the counting itself lives in the variant
 * chosen at init (variants/perft_impl.h).
 */
#include "include/chess_native.h"
#include "impl.h"
#include "relaxed.h"

uint64_t cn_perft(const cn_position *pos, int depth) {
    if (pos->relaxed) return cn_relaxed_perft(pos, depth);
    return cn_active_impl()->perft(pos, depth);
}

/* A relaxed position's perft plays every move but at the leaves either way. */
uint64_t cn_perft_full(const cn_position *pos, int depth) {
    if (pos->relaxed) return cn_relaxed_perft(pos, depth);
    return cn_active_impl()->perft_full(pos, depth);
}

int cn_divide(const cn_position *pos, int depth, cn_move *moves, uint64_t *counts) {
    if (depth < 1) return 0;
    if (pos->relaxed) return cn_relaxed_divide(pos, depth, moves, counts);
    return cn_active_impl()->divide(pos, depth, moves, counts);
}
