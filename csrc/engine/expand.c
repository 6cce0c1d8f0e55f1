/*
 * expand.c - one ply of a tree (see expand.h).
 */
#include "expand.h"

int cn_expand(const void *parents, size_t stride, size_t count, cn_move_list_fn moves, cn_child_fn visit, void *user) {
    for (size_t i = 0; i < count; i++) {
        const cn_position *parent = (const cn_position *)((const char *)parents + i * stride);
        cn_move list[CN_MAX_MOVES];
        const int move_count = moves(parent, list);
        for (int m = 0; m < move_count; m++) {
            cn_position child = *parent;
            cn_undo undo;
            cn_make(&child, list[m], &undo);
            const int stop = visit(user, i, m, &child);
            if (stop) return stop;
        }
    }
    return 0;
}
