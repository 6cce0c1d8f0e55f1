/*
 * movegen.c - the legal-move calls of the public API, through the variant
 * cn_init chose (the generator is in variants/movegen_impl.h); relaxed
 * positions through relaxed.c.
 */
#include "impl.h"
#include "include/chess_native.h"
#include "relaxed.h"

int cn_legal_moves(const cn_position *pos, cn_move *out) {
    if (pos->relaxed) return cn_relaxed_moves(pos, out);
    return cn_active_impl()->generate(pos, out);
}

int cn_legal_moves_sorted(const cn_position *pos, cn_move *out) {
    if (pos->relaxed) {
        const int count = cn_relaxed_moves(pos, out);
        cn_sort_moves_uci(pos, out, count);
        return count;
    }
    return cn_active_impl()->generate_sorted(pos, out);
}

cn_status cn_fen_parse_moves(cn_position *pos, const char *fen, size_t len, int chess960, cn_fen_error *err,
                             cn_move *moves, int *count) {
    const cn_status status = cn_fen_parse(pos, fen, len, chess960, err);
    if (status == CN_OK) *count = cn_active_impl()->generate_sorted(pos, moves); /* never relaxed */
    return status;
}

int cn_count_legal_moves(const cn_position *pos) {
    if (pos->relaxed) {
        cn_move moves[CN_MAX_MOVES];
        return cn_relaxed_moves(pos, moves);
    }
    return cn_active_impl()->count(pos);
}
