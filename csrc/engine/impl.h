/*
 * impl.h - the hot code's variants. movegen_impl.h is compiled once per
 * instruction-set level (impl_*.c); cn_init picks one at run time.
 */
#ifndef CN_IMPL_H
#define CN_IMPL_H

#include "bitboard.h"
#include "include/chess_native.h"
#include "transposition_table.h"

#if defined(__GNUC__) || defined(__clang__)
#pragma GCC visibility push(hidden)
#endif

typedef struct cn_impl {
    const char *name;     /* "pext", "bmi2-magic", "popcnt-magic", "arm64-magic", "base-magic" */
    int uses_pext;
    int (*generate)(const cn_position *pos, cn_move *out);
    int (*generate_sorted)(const cn_position *pos, cn_move *out); /* in UCI string order */
    int (*count)(const cn_position *pos);
    uint64_t (*perft)(const cn_position *pos, int depth);
    uint64_t (*perft_full)(const cn_position *pos, int depth);
    int (*divide)(const cn_position *pos, int depth, cn_move *moves, uint64_t *counts);
    /* Perft through a shared table. pos->key must be right. Stops early
     * (returning a meaningless count) once *abort_flag is non-zero; read
     * with a relaxed atomic load, so set it with CN_TT_STORE. */
    uint64_t (*perft_hashed)(const cn_position *pos, int depth, const cn_tt *tt, const uint64_t *abort_flag);
} cn_impl;

/* The square a move lands on as UCI writes it. Castling is king-takes-rook
 * inside the engine and in Chess960 UCI; standard UCI writes the king's two
 * steps (e1g1). That form is used only for a king on the e-file: a king
 * elsewhere (possible with X-FEN rights, e.g. R2K4 w Q) could step to the
 * same square normally (d1c1), so there castling stays king-takes-rook. */
static inline unsigned cn_uci_destination(const cn_position *pos, cn_move move) {
    unsigned from = cn_move_from(move), to = cn_move_to(move);
    if (cn_move_kind(move) == CN_MOVE_CASTLING && !pos->chess960 && square_file(from) == 4) return castle_king_to(from, to);
    return to;
}

/* A square's place in UCI string order: file first, then rank (the engine
 * numbers squares rank * 8 + file). The mapping is its own inverse. */
static inline unsigned cn_uci_order(unsigned square) { return ((square & 7u) << 3) | (square >> 3); }

/* NULL where the compiler or target cannot build the variant. */
extern const cn_impl *const cn_impl_base;
extern const cn_impl *const cn_impl_popcnt;
extern const cn_impl *const cn_impl_bmi2;
extern const cn_impl *const cn_impl_pext;
extern const cn_impl *const cn_impl_arm64;

/* The variant cn_init chose (cn_init must have succeeded). */
const cn_impl *cn_active_impl(void);

/* Whether this CPU can run a variant (tests iterate over the runnable ones). */
int cn_impl_runnable(const cn_impl *impl);

#if defined(__GNUC__) || defined(__clang__)
#pragma GCC visibility pop
#endif

#endif /* CN_IMPL_H */
