/*
 * rules.h - game-level rules on top of the public engine API: game state
 * (check, no legal moves, insufficient material, fifty-move clock) and the
 * attackers of a square. Semantics follow chess.js 1.x, which the JS tests
 * compare against.
 */
#ifndef CN_RULES_H
#define CN_RULES_H

#include <stdint.h>

#include "chess_native.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Bits of cn_game_state(). Checkmate is CHECK|NO_MOVES, stalemate NO_MOVES
 * alone. */
enum {
    CN_GAME_CHECK = 1,        /* the side to move is in check */
    CN_GAME_NO_MOVES = 2,     /* the side to move has no legal move */
    CN_GAME_INSUFFICIENT = 4, /* cn_insufficient_material() */
    CN_GAME_FIFTY = 8         /* halfmove clock >= 100 */
};

/* All of the above in one call (one legal-move count, no move list). */
unsigned cn_game_state(const cn_position *pos);

/*
 * chess.js's rule: only kings (K v K); kings and one knight or bishop
 * (K+N v K, K+B v K); or kings and any number of bishops, of either side,
 * all standing on squares of one colour (K+B v K+B with same-coloured
 * bishops, and more of them). Pawns, rooks and queens are always enough.
 * chess.js counts men, kings among them: in a relaxed position any two men
 * (K+Q and no black king) are "only kings". Returns 1 or 0.
 */
int cn_insufficient_material(const cn_position *pos);

/*
 * Squares of `color`'s pieces that attack `square` (pseudo-legal: pinned
 * pieces count, a piece standing on `square` does not attack it, sliders
 * are blocked by any piece), as a bitboard (bit 0 = a1). As chess.js's
 * attackers(). square >= 64 or a colour other than 0/1 gives 0.
 */
uint64_t cn_attackers(const cn_position *pos, unsigned square, int color);

#ifdef __cplusplus
}
#endif

#endif /* CN_RULES_H */
