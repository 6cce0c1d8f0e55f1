// chess.js's hash(): a Zobrist key over its own key tables, drawn from
// xoroshiro128** with chess.js's seed in chess.js's order (piece keys by
// colour, type and 0x88 square, then 8 en-passant file keys, 16 castling
// keys, the side key). Computed on demand: hash() is rare, and the engine's
// own Polyglot key serves repetition counting.
import { scanOrder } from './constants';
import { xoroshiro128 } from './random';

interface Keys {
  pieces: bigint[]; // [(color * 6 + type) * 128 + square0x88]
  ep: bigint[];
  castling: bigint[];
  side: bigint;
}

let keys: Keys | undefined;

function makeKeys(): Keys {
  const rand = xoroshiro128(0xa187eb39cdcaed8f31c4b365b102e01en);
  const pieces = Array.from({ length: 2 * 6 * 128 }, () => rand());
  const ep = Array.from({ length: 8 }, () => rand());
  const castling = Array.from({ length: 16 }, () => rand());
  return { pieces, ep, castling, side: rand() };
}

const TYPES = 'pnbrqk';

/**
 * How chess.js's hash drifts from the position's each time it plays a null
 * move internally: its null move changes neither the side key nor the
 * en-passant key, while taking one back does change them. move('--') plays
 * and takes back once for its Move object, then plays (no drift overall);
 * undo() of a null move and every replay of the history (history(), pgn(),
 * the comment lists) each leave one drift. hash() shows it, so it is kept.
 */
export function nullMoveDrift(ep: number): bigint {
  const k = (keys ??= makeKeys());
  return k.side ^ (ep >= 0 ? (k.ep[ep & 7] as bigint) : 0n);
}

/**
 * The drift setCastlingRights(): chess.js changes the rights without taking
 * the old rights' key out, so its hash keeps the old key and the one of the
 * rights as set before the ones that cannot apply are dropped.
 */
export function castlingDrift(before: number, set: number): bigint {
  const k = (keys ??= makeKeys());
  return (k.castling[before] as bigint) ^ (k.castling[set] as bigint);
}

/**
 * The hash of a position: `board` maps engine squares to FEN letters (or
 * undefined), `castling` holds K = 1, Q = 2, k = 4, q = 8, `ep` is the
 * stored en-passant square (engine index) or -1.
 */
export function chessJsHash(board: readonly (string | undefined)[], black: boolean, castling: number, ep: number, drift: bigint): string {
  const k = (keys ??= makeKeys());
  let hash = 0n;
  for (let square = 0; square < 64; square++) {
    const letter = board[square];
    if (letter === undefined) continue;
    const lower = letter.toLowerCase();
    const color = letter === lower ? 1 : 0;
    const order = scanOrder(square);
    hash ^= k.pieces[(color * 6 + TYPES.indexOf(lower)) * 128 + (order >> 3) * 16 + (order & 7)] as bigint;
  }
  if (ep >= 0) hash ^= k.ep[ep & 7] as bigint;
  hash ^= k.castling[castling] as bigint;
  if (black) hash ^= k.side;
  return (hash ^ drift).toString(16);
}
