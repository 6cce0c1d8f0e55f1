/*
 * rules.c - game state and attackers (see rules.h). Not on any hot path:
 * plain bitboard code over the public position struct and the multiply
 * slider tables, which every CPU can use.
 */
#include "include/rules.h"

#include "bitboard.h"
#include "slider_attacks.h"

/* Dark squares: a1 is dark. */
#define DARK_SQUARES 0xAA55AA55AA55AA55ULL

/* chess.js counts men, not kings: a relaxed position's two men may be a
 * king and a queen (K+Q v nothing), and chess.js calls that a draw too. */
int cn_insufficient_material(const cn_position *pos) {
    const bitboard occupied = pos->by_color[CN_WHITE] | pos->by_color[CN_BLACK];
    const bitboard bishops = pos->by_type[CN_BISHOP];
    const int men = bb_popcount(occupied), bishop_count = bb_popcount(bishops);
    if (men == 2) return 1;                                                                     /* K v K */
    if (men == 3 && (bishop_count == 1 || bb_popcount(pos->by_type[CN_KNIGHT]) == 1)) return 1; /* K+N v K, K+B v K */
    if (men == bishop_count + 2)
        return (bishops & DARK_SQUARES) == 0 || (bishops & ~DARK_SQUARES) == 0; /* bishops on one colour */
    return 0;
}

unsigned cn_game_state(const cn_position *pos) {
    unsigned state = 0;
    if (cn_in_check(pos)) state |= CN_GAME_CHECK;
    if (cn_count_legal_moves(pos) == 0) state |= CN_GAME_NO_MOVES;
    if (cn_insufficient_material(pos)) state |= CN_GAME_INSUFFICIENT;
    if (pos->halfmove >= 100) state |= CN_GAME_FIFTY;
    return state;
}

uint64_t cn_attackers(const cn_position *pos, unsigned square, int color) {
    if (square >= 64 || (color != CN_WHITE && color != CN_BLACK)) return 0;
    return attackers_to(pos, square, pos->by_color[CN_WHITE] | pos->by_color[CN_BLACK], color);
}
