// chess.js lists moves in the order its generator finds them: by square of
// the moving piece (a8, b8, ..., h1); for a pawn the push, the double step,
// then the capture toward the a-file for white (toward the h-file for
// black); for a knight, king or slider its directions in chess.js's fixed
// order, nearest square first; promotions n, b, r, q; castling last,
// kingside first. orderKey gives each move a number that sorts that way.
import { KNIGHT_STEPS, LINE_STEPS, scanOrder } from './constants';

// Index: (dr + 2) * 5 + (df + 2) for a knight's step (dr ranks up, df files right).
const KNIGHT_STEP = new Int8Array(25).fill(-1);
// Index: (sign dr + 1) * 3 + (sign df + 1) for a line's direction.
const LINE_DIRECTION = new Int8Array(9).fill(-1);
for (const [i, [dr, df]] of KNIGHT_STEPS.entries()) {
  KNIGHT_STEP[(dr + 2) * 5 + (df + 2)] = i;
}
for (const [i, [dr, df]] of LINE_STEPS.entries()) {
  LINE_DIRECTION[(dr + 1) * 3 + (df + 1)] = i;
}

const PROMOTION_RANK: Record<string, number> = { n: 0, b: 1, r: 2, q: 3 };
const CASTLE_KEY = 1 << 20;

/**
 * The sort key of a move from `from` to `to` (engine squares) by a piece of
 * type `piece` ('p' 'n' 'b' 'r' 'q' 'k'); `castle` 'k' / 'q' for castling.
 */
export function orderKey(from: number, to: number, piece: string, castle: string, promotion: string | undefined): number {
  if (castle !== '') return CASTLE_KEY + (castle === 'q' ? 1 : 0);
  const dr = (to >> 3) - (from >> 3);
  const df = (to & 7) - (from & 7);
  let sub: number;
  if (piece === 'p') {
    const white = dr > 0;
    if (df === 0) sub = dr === 1 || dr === -1 ? 0 : 1;
    else sub = (white ? df < 0 : df > 0) ? 2 : 3;
    sub = sub * 4 + (promotion === undefined ? 0 : (PROMOTION_RANK[promotion] as number));
  } else if (piece === 'n') {
    sub = KNIGHT_STEP[(dr + 2) * 5 + (df + 2)] as number;
  } else {
    const direction = LINE_DIRECTION[(Math.sign(dr) + 1) * 3 + (Math.sign(df) + 1)] as number;
    sub = direction * 8 + Math.max(dr < 0 ? -dr : dr, df < 0 ? -df : df);
  }
  return scanOrder(from) * 256 + sub;
}
