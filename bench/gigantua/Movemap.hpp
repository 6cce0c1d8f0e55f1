// Movemap.hpp - a stand-in for the lookup header that Gigantua's public
// repository references but does not carry, written for bench/gigantua.mjs
// from the names and meanings its sources use (no code of Gigantua's).
//
// Squares are rank * 8 + column with rank 0 on White's side, as Gigantua's
// pawn shifts (<< 8 forward for White) imply. Which column is the a-file does
// not matter: every table here is symmetric under mirroring the files.
//
// Provided:
//   _ForceInline, _Inline, _Compiletime   the inlining macros its sources use
//   Bitcount(x)                           population count
//   Chess_Lookup::RookMask[sq], BishopMask[sq]
//                                         a slider's rays on an empty board
//   Chess_Lookup::PinBetween[king*64+s]   squares from the king (excluded) to
//                                         an aligned slider s (included)
//   Chess_Lookup::CheckBetween[king*64+s] the squares strictly between, plus
//                                         the square behind the king, away
//                                         from s (where a king in check by s
//                                         cannot step; s itself it may take)
//   Chess_Lookup::Lookup_Pext::{Rook, Bishop, Queen}(sq, occ)
//   Chess_Lookup::Lookup_Pext::{Rook_Xray, Bishop_Xray}(sq, occ)
//                                         attacks with the first blockers
//                                         removed (pinners appear)
//   Chess_Lookup::Lookup_Pext::{Knight, King}(sq)
// The tables are filled once, before main, by a static initialiser.
#pragma once
#include <cstdint>
#include <immintrin.h>

#define _ForceInline __attribute__((always_inline)) inline
#define _Inline      inline
#define _NoInline    __attribute__((noinline))
#define _Compiletime __attribute__((always_inline)) static constexpr

#define Bitcount(X) static_cast<uint64_t>(__builtin_popcountll(X))

namespace Chess_Lookup {

inline uint64_t RookMask[64];   // full rays, edges included
inline uint64_t BishopMask[64];
inline uint64_t PinBetween[64 * 64];
inline uint64_t CheckBetween[64 * 64];

namespace Tables {
inline uint64_t RookIndexMask[64];   // rays without their edge squares: the pext mask
inline uint64_t BishopIndexMask[64];
inline uint64_t *RookBase[64];
inline uint64_t *BishopBase[64];
inline uint64_t KnightAttacks[64];
inline uint64_t KingAttacks[64];
inline uint64_t RookTable[102400];
inline uint64_t BishopTable[5248];

constexpr int RookDirs[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
constexpr int BishopDirs[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};

inline bool OnBoard(int rank, int col) { return rank >= 0 && rank < 8 && col >= 0 && col < 8; }
inline uint64_t Bit(int rank, int col) { return 1ull << (rank * 8 + col); }

// Attacks of a slider on sq along dirs, stopping at (and including) blockers.
inline uint64_t Slide(int sq, uint64_t occ, const int (*dirs)[2]) {
    uint64_t attacks = 0;
    for (int d = 0; d < 4; d++) {
        int r = sq / 8 + dirs[d][0], c = sq % 8 + dirs[d][1];
        while (OnBoard(r, c)) {
            attacks |= Bit(r, c);
            if (occ & Bit(r, c)) break;
            r += dirs[d][0];
            c += dirs[d][1];
        }
    }
    return attacks;
}

// The pext mask: the rays minus the last square of each (its occupancy
// never changes the attack set).
inline uint64_t IndexMask(int sq, const int (*dirs)[2]) {
    uint64_t mask = 0;
    for (int d = 0; d < 4; d++) {
        int r = sq / 8 + dirs[d][0], c = sq % 8 + dirs[d][1];
        while (OnBoard(r + dirs[d][0], c + dirs[d][1])) {
            mask |= Bit(r, c);
            r += dirs[d][0];
            c += dirs[d][1];
        }
    }
    return mask;
}

inline uint64_t *FillSlider(uint64_t *next, int sq, const int (*dirs)[2], uint64_t *indexMask, uint64_t **base) {
    const uint64_t mask = IndexMask(sq, dirs);
    indexMask[sq] = mask;
    base[sq] = next;
    const uint64_t count = 1ull << __builtin_popcountll(mask);
    for (uint64_t i = 0; i < count; i++) next[i] = Slide(sq, _pdep_u64(i, mask), dirs);
    return next + count;
}

inline uint64_t Leaper(int sq, const int (*steps)[2], int n) {
    uint64_t attacks = 0;
    for (int i = 0; i < n; i++) {
        int r = sq / 8 + steps[i][0], c = sq % 8 + steps[i][1];
        if (OnBoard(r, c)) attacks |= Bit(r, c);
    }
    return attacks;
}

// Between-masks for squares on one line: from a (excluded) to b (included);
// and from a to b (both excluded) plus one step past a, away from b.
inline void FillBetween(int a, int b) {
    const int dr = b / 8 - a / 8, dc = b % 8 - a % 8;
    if (a == b || !(dr == 0 || dc == 0 || dr == dc || dr == -dc)) return;
    const int sr = (dr > 0) - (dr < 0), sc = (dc > 0) - (dc < 0);
    uint64_t path = 0;
    int r = a / 8, c = a % 8;
    do {
        r += sr;
        c += sc;
        path |= Bit(r, c);
    } while (r * 8 + c != b);
    PinBetween[a * 64 + b] = path;
    const int br = a / 8 - sr, bc = a % 8 - sc;
    CheckBetween[a * 64 + b] = (path & ~(1ull << b)) | (OnBoard(br, bc) ? Bit(br, bc) : 0);
}

struct Init {
    Init() {
        constexpr int knight[8][2] = {{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
        constexpr int king[8][2] = {{1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}, {1, -1}};
        uint64_t *rookNext = RookTable, *bishopNext = BishopTable;
        for (int sq = 0; sq < 64; sq++) {
            rookNext = FillSlider(rookNext, sq, RookDirs, RookIndexMask, RookBase);
            bishopNext = FillSlider(bishopNext, sq, BishopDirs, BishopIndexMask, BishopBase);
            RookMask[sq] = Slide(sq, 0, RookDirs);
            BishopMask[sq] = Slide(sq, 0, BishopDirs);
            KnightAttacks[sq] = Leaper(sq, knight, 8);
            KingAttacks[sq] = Leaper(sq, king, 8);
            for (int other = 0; other < 64; other++) FillBetween(sq, other);
        }
    }
};
inline Init Initialised;
} // namespace Tables

namespace Lookup_Pext {
inline uint64_t Rook(uint64_t sq, uint64_t occ) {
    return Tables::RookBase[sq][_pext_u64(occ, Tables::RookIndexMask[sq])];
}
inline uint64_t Bishop(uint64_t sq, uint64_t occ) {
    return Tables::BishopBase[sq][_pext_u64(occ, Tables::BishopIndexMask[sq])];
}
inline uint64_t Queen(uint64_t sq, uint64_t occ) { return Rook(sq, occ) | Bishop(sq, occ); }
inline uint64_t Rook_Xray(uint64_t sq, uint64_t occ) { return Rook(sq, occ & ~(Rook(sq, occ) & occ)); }
inline uint64_t Bishop_Xray(uint64_t sq, uint64_t occ) { return Bishop(sq, occ & ~(Bishop(sq, occ) & occ)); }
inline uint64_t Knight(uint64_t sq) { return Tables::KnightAttacks[sq]; }
inline uint64_t King(uint64_t sq) { return Tables::KingAttacks[sq]; }
} // namespace Lookup_Pext

} // namespace Chess_Lookup
