/*
 * movegen.c - the legal-move calls of the public API, through the variant
 * cn_init chose (the generator is in variants/movegen_impl.h).
 */
#include "impl.h"
#include "include/chess_native.h"

int cn_legal_moves(const cn_position *pos, cn_move *out) { return cn_active_impl()->generate(pos, out); }

int cn_legal_moves_sorted(const cn_position *pos, cn_move *out) { return cn_active_impl()->generate_sorted(pos, out); }

int cn_count_legal_moves(const cn_position *pos) { return cn_active_impl()->count(pos); }
