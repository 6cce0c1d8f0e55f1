/*
 * impl.h - the interface of the hot code's variants: each file in variants/
 * compiles the move generator and perft for one instruction-set level and
 * fills a cn_impl; cn_init picks one at run time.
 */
#ifndef CN_IMPL_H
#define CN_IMPL_H

#include "include/chess_native.h"
#include "transposition_table.h"

#if defined(__GNUC__) || defined(__clang__)
#pragma GCC visibility push(hidden)
#endif

/* What one ply of the hashed perft holds on its stack: the move list and
 * every child, with its second key, made before the first is searched (see
 * perft_impl.h). The job sizes its threads' stacks from it. */
typedef struct cn_hashed_ply {
    uint32_t moves[CN_MAX_MOVES]; /* the variants' gen_move */
    cn_position children[CN_MAX_MOVES];
    uint64_t child_keys2[CN_MAX_MOVES];
} cn_hashed_ply;

typedef struct cn_impl {
    const char *name; /* "pext", "bmi2-magic", "popcnt-magic", "arm64-magic", "base-magic" */
    int uses_pext;
    int (*generate)(const cn_position *pos, cn_move *out);
    int (*generate_sorted)(const cn_position *pos, cn_move *out); /* in UCI string order */
    int (*count)(const cn_position *pos);
    uint64_t (*perft)(const cn_position *pos, int depth);
    uint64_t (*perft_full)(const cn_position *pos, int depth);
    int (*divide)(const cn_position *pos, int depth, cn_move *moves, uint64_t *counts);
    /* Perft through a shared table, keyed by pos->key (which must be right)
     * and the table's second key set. Stops early
     * (returning a meaningless count) once *abort_flag is non-zero; read
     * with a relaxed atomic load, so set it with CN_TT_STORE. */
    uint64_t (*perft_hashed)(const cn_position *pos, int depth, const cn_tt *tt, const uint64_t *abort_flag);
} cn_impl;

/* NULL where the compiler or target cannot build the variant. */
extern const cn_impl *const cn_impl_base;
extern const cn_impl *const cn_impl_popcnt;
extern const cn_impl *const cn_impl_bmi2;
extern const cn_impl *const cn_impl_pext;
extern const cn_impl *const cn_impl_arm64;

/* Writes the text cn_boundary_tables() returns; called once, by cn_init. */
void cn_boundary_init(void);

/* The variant cn_init chose (cn_init must have succeeded). */
const cn_impl *cn_active_impl(void);

/* Whether this CPU can run a variant (tests iterate over the runnable ones). */
int cn_impl_runnable(const cn_impl *impl);

#if defined(__GNUC__) || defined(__clang__)
#pragma GCC visibility pop
#endif

#endif /* CN_IMPL_H */
