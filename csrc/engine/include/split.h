/*
 * split.h - a perft tree split into work units: the unique positions some
 * plies below a root, each with its multiplicity (how many move sequences
 * from the root reach it), so that
 *
 *   perft(root, depth) = sum over units of multiplicity * perft(unit, depth - ply).
 *
 * A level is expanded one ply at a time: every legal move of every unit (in
 * cn_legal_moves_sorted order), the children merged by position identity
 * (Polyglot key, then the whole struct) in the order they are first
 * reached. A unit is the position its four FEN fields describe: clocks 0
 * and 1, and an en-passant square only when the capture is legal (FEN's
 * rule), so two units never have the same FEN. Positions with no legal move
 * end their sequences: they add nothing below them.
 *
 * Counts are 128 bits, stored as two words, low word first: a split that
 * fits in memory can reach more than 2^64 sequences (a few pieces, many
 * plies).
 */
#ifndef CN_SPLIT_H
#define CN_SPLIT_H

#include <stddef.h>
#include <stdint.h>

#include "chess_native.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cn_split {
    int ply;                  /* plies below the root */
    size_t count;             /* units */
    cn_position *positions;   /* count units */
    uint64_t *multiplicities; /* 2 * count words: unit i's is [2i] + 2^64 [2i + 1] */
    /* Per root move, when the split tracks them: unit i is reached by
     * root_counts[2j] + 2^64 root_counts[2j + 1] sequences starting with
     * root move roots[j], for j in root_first[i] .. root_first[i + 1] - 1
     * (roots ascending). NULL at ply 0 and when not tracked. */
    int track_roots;
    size_t *root_first; /* count + 1 entries */
    uint16_t *roots;    /* indices into root_moves */
    uint64_t *root_counts;
    /* The root's legal moves, in cn_legal_moves_sorted order. */
    int root_move_count;
    cn_move root_moves[CN_MAX_MOVES];
} cn_split;

/* The split of `root` at `ply` plies: starts from the root alone and expands
 * while fewer than `ply` plies are reached and the level holds at most
 * max_units units (SIZE_MAX: no limit), so out->ply is below `ply` only
 * when a level exceeded max_units. With track_roots the units count their
 * sequences per root move. Returns CN_OK with *out to free with
 * cn_split_free, or (*out empty):
 *   CN_ERR_BAD_ARGUMENT  ply below 0, or a count above 2^128 - 1
 *   CN_ERR_BAD_POSITION  root fails cn_position_validate
 *   CN_ERR_NO_MEMORY     a level cannot be allocated
 *   what cn_init returns when it fails. */
cn_status cn_split_tree(const cn_position *root, int ply, size_t max_units, int track_roots, cn_split *out);

/* The next level of `level`: its units' unique children, each with the sum
 * of its parents' multiplicities (and per-root counts). A level at ply 0
 * that tracks root moves holds only the root: its children's root moves are
 * their own moves. Returns CN_OK with *out to free with cn_split_free, or
 * (*out empty) CN_ERR_BAD_ARGUMENT for a count above 2^128 - 1 or a tracked
 * ply-0 level of more than one unit, CN_ERR_NO_MEMORY. */
cn_status cn_split_expand(const cn_split *level, cn_split *out);

/* Frees a split's arrays (not the struct) and empties it. */
void cn_split_free(cn_split *split);

#ifdef __cplusplus
}
#endif

#endif /* CN_SPLIT_H */
