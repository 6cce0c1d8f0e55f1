/*
 * bitboard.h - the bitboard type, small bit helpers and square geometry.
 *
 * The hot code is compiled several times with different instruction sets
 * (variants/). variants/variant.h defines CN_FAST_BITS before this header is
 * included when the hardware popcount may be used (popcnt on x86-64, CNT on
 * AArch64); everything else uses portable code, so that one binary runs on
 * every CPU of its architecture.
 */
#ifndef CN_BITBOARD_H
#define CN_BITBOARD_H

#include <stdint.h>

/* CN_FLATTEN: inline every call in the function's body, recursively, but
 * those to CN_NOINLINE functions (MSVC has no such attribute: there it
 * only hints). Sanitizer builds leave it out: instrumented, the flattened
 * perft takes minutes to compile, and inlining changes no behaviour. */
#if defined(_MSC_VER) && !defined(__clang__)
#include <intrin.h>
#define CN_INLINE   static __forceinline
#define CN_NOINLINE __declspec(noinline)
#define CN_FLATTEN
#else
#define CN_INLINE   static inline __attribute__((always_inline))
#define CN_NOINLINE __attribute__((noinline))
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define CN_FLATTEN
#else
#define CN_FLATTEN __attribute__((flatten))
#endif
#endif

typedef uint64_t bitboard;

#define CN_FILE_A 0x0101010101010101ULL
#define CN_FILE_H 0x8080808080808080ULL
#define CN_RANK_1 0x00000000000000FFULL
#define CN_RANK_2 0x000000000000FF00ULL
#define CN_RANK_3 0x0000000000FF0000ULL
#define CN_RANK_4 0x00000000FF000000ULL
#define CN_RANK_5 0x000000FF00000000ULL
#define CN_RANK_6 0x0000FF0000000000ULL
#define CN_RANK_7 0x00FF000000000000ULL
#define CN_RANK_8 0xFF00000000000000ULL

CN_INLINE bitboard bb_square(unsigned square) { return 1ULL << square; }
CN_INLINE unsigned square_file(unsigned square) { return square & 7u; }
CN_INLINE unsigned square_rank(unsigned square) { return square >> 3; }
CN_INLINE unsigned make_square(unsigned file, unsigned rank) { return rank * 8u + file; }
/* For stepping off the board: file and rank may be any integers. */
CN_INLINE int on_board(int file, int rank) { return file >= 0 && file < 8 && rank >= 0 && rank < 8; }

/* Castling, from any start squares (Chess960 included), puts the king on
 * the c- or g-file and the rook beside it on the d- or f-file of their back
 * rank: the rook's side of the king decides which. */
CN_INLINE unsigned castle_king_to(unsigned king_from, unsigned rook_from) {
    return make_square(rook_from < king_from ? 2u : 6u, square_rank(king_from));
}
CN_INLINE unsigned castle_rook_to(unsigned king_from, unsigned rook_from) {
    return make_square(rook_from < king_from ? 3u : 5u, square_rank(king_from));
}

CN_INLINE int bb_popcount(bitboard b) {
#if defined(CN_FAST_BITS) && defined(_MSC_VER) && !defined(__clang__)
    return (int)__popcnt64(b);
#elif defined(CN_FAST_BITS)
    return __builtin_popcountll(b);
#else
    /* SWAR count: libgcc's generic popcount is a call and slower than this. */
    b = b - ((b >> 1) & 0x5555555555555555ULL);
    b = (b & 0x3333333333333333ULL) + ((b >> 2) & 0x3333333333333333ULL);
    b = (b + (b >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (int)((b * 0x0101010101010101ULL) >> 56);
#endif
}

/* Index of the lowest set bit; b must not be 0. */
CN_INLINE unsigned bb_lsb(bitboard b) {
#if defined(_MSC_VER) && !defined(__clang__)
    unsigned long index;
    _BitScanForward64(&index, b);
    return (unsigned)index;
#else
    return (unsigned)__builtin_ctzll(b);
#endif
}

/* Index of the highest set bit; b must not be 0. */
CN_INLINE unsigned bb_msb(bitboard b) {
#if defined(_MSC_VER) && !defined(__clang__)
    unsigned long index;
    _BitScanReverse64(&index, b);
    return (unsigned)index;
#else
    return 63u - (unsigned)__builtin_clzll(b);
#endif
}

/* Removes and returns the lowest set bit's index; *b must not be 0. */
CN_INLINE unsigned bb_pop_lsb(bitboard *b) {
    unsigned square = bb_lsb(*b);
    *b &= *b - 1;
    return square;
}

CN_INLINE int bb_more_than_one(bitboard b) { return (b & (b - 1)) != 0; }

/* Pawn-direction shifts, with the wrap-around files masked off. */
CN_INLINE bitboard bb_north(bitboard b) { return b << 8; }
CN_INLINE bitboard bb_south(bitboard b) { return b >> 8; }
CN_INLINE bitboard bb_north_east(bitboard b) { return (b & ~CN_FILE_H) << 9; }
CN_INLINE bitboard bb_north_west(bitboard b) { return (b & ~CN_FILE_A) << 7; }
CN_INLINE bitboard bb_south_east(bitboard b) { return (b & ~CN_FILE_H) >> 7; }
CN_INLINE bitboard bb_south_west(bitboard b) { return (b & ~CN_FILE_A) >> 9; }

#endif /* CN_BITBOARD_H */
