/*
 * expand.h - one ply of a tree, breadth first: every child of a list of
 * positions, in order. The perft job builds its work queue with it, the
 * split (include/split.h) its levels.
 */
#ifndef CN_EXPAND_H
#define CN_EXPAND_H

#include <stddef.h>

#include "include/chess_native.h"

#if defined(__GNUC__) || defined(__clang__)
#pragma GCC visibility push(hidden)
#endif

/* A legal move generator: cn_legal_moves or cn_legal_moves_sorted. */
typedef int (*cn_move_list_fn)(const cn_position *pos, cn_move *out);

/* Receives the child that move number `move` of parent number `parent`
 * leads to; a non-zero return stops the expansion. */
typedef int (*cn_child_fn)(void *user, size_t parent, int move, const cn_position *child);

/* Calls visit for each legal move (in `moves`' order) of each position of
 * parents[0, count), in order; consecutive parents are `stride` bytes apart,
 * so a parent may be the first member of a larger struct. Returns the first
 * non-zero value visit returned, else 0. */
int cn_expand(const void *parents, size_t stride, size_t count, cn_move_list_fn moves, cn_child_fn visit, void *user);

#if defined(__GNUC__) || defined(__clang__)
#pragma GCC visibility pop
#endif

#endif /* CN_EXPAND_H */
