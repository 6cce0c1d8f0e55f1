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

int cn_insufficient_material(const cn_position *pos) {
    const bitboard kings = pos->by_type[CN_KING];
    const bitboard occupied = pos->by_color[CN_WHITE] | pos->by_color[CN_BLACK];
    const bitboard others = occupied & ~kings;
    if (others == 0) return 1; /* K v K */
    if (!bb_more_than_one(others) && (others & (pos->by_type[CN_KNIGHT] | pos->by_type[CN_BISHOP])))
        return 1; /* K+N v K, K+B v K */
    if (others == (others & pos->by_type[CN_BISHOP]))
        return (others & DARK_SQUARES) == 0 || (others & ~DARK_SQUARES) == 0; /* bishops on one colour */
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
