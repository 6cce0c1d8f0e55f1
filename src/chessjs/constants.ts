// The names chess.js 1.4.0 exports besides its classes: colours, piece
// symbols, square names, the start position, the Seven Tag Roster, and the
// square arithmetic the rest of this subsystem shares (engine numbering:
// a1 = 0, h1 = 7, a8 = 56).
import { ROSTER_DEFAULTS } from '../pgn/writer';

export const WHITE = 'w';
export const BLACK = 'b';
export const PAWN = 'p';
export const KNIGHT = 'n';
export const BISHOP = 'b';
export const ROOK = 'r';
export const QUEEN = 'q';
export const KING = 'k';

export type Color = 'w' | 'b';
export type PieceSymbol = 'p' | 'n' | 'b' | 'r' | 'q' | 'k';
// prettier-ignore
export type Square =
  'a8' | 'b8' | 'c8' | 'd8' | 'e8' | 'f8' | 'g8' | 'h8' |
  'a7' | 'b7' | 'c7' | 'd7' | 'e7' | 'f7' | 'g7' | 'h7' |
  'a6' | 'b6' | 'c6' | 'd6' | 'e6' | 'f6' | 'g6' | 'h6' |
  'a5' | 'b5' | 'c5' | 'd5' | 'e5' | 'f5' | 'g5' | 'h5' |
  'a4' | 'b4' | 'c4' | 'd4' | 'e4' | 'f4' | 'g4' | 'h4' |
  'a3' | 'b3' | 'c3' | 'd3' | 'e3' | 'f3' | 'g3' | 'h3' |
  'a2' | 'b2' | 'c2' | 'd2' | 'e2' | 'f2' | 'g2' | 'h2' |
  'a1' | 'b1' | 'c1' | 'd1' | 'e1' | 'f1' | 'g1' | 'h1';

/** A piece as chess.js returns it from get(). */
export interface Piece {
  color: Color;
  type: PieceSymbol;
}

export const DEFAULT_POSITION = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';

/** Square names by engine index (a1 = 0). */
export const NAMES: readonly Square[] = Array.from({ length: 64 }, (_, i) => ('abcdefgh'[i & 7]! + String((i >> 3) + 1)) as Square);

/** Every square, rank 8 first and file a first in each rank (chess.js's order). */
export const SQUARES: Square[] = Array.from({ length: 64 }, (_, i) => NAMES[(7 - (i >> 3)) * 8 + (i & 7)] as Square);

/** The tags every PGN has, with the values chess.js gives a new game (a copy: chess.js's is a plain object). */
export const SEVEN_TAG_ROSTER: Record<string, string> = { ...ROSTER_DEFAULTS };

/** The engine index of a square name, or -1 for anything else. */
export function squareOf(name: unknown): number {
  if (typeof name !== 'string' || name.length !== 2) return -1;
  const file = name.charCodeAt(0) - 97;
  const rank = name.charCodeAt(1) - 49;
  return file >= 0 && file < 8 && rank >= 0 && rank < 8 ? rank * 8 + file : -1;
}

/** A square's place in chess.js's scan order (a8 = 0, h8 = 7, a1 = 56). */
export function scanOrder(square: number): number {
  return (7 - (square >> 3)) * 8 + (square & 7);
}

/** A knight's steps (ranks up, files right), in the order chess.js tries them. */
export const KNIGHT_STEPS: readonly (readonly [number, number])[] = [
  [1, -2],
  [2, -1],
  [2, 1],
  [1, 2],
  [-1, 2],
  [-2, 1],
  [-2, -1],
  [-1, -2],
];

/** The eight line directions (ranks up, files right), in the order chess.js tries them. */
export const LINE_STEPS: readonly (readonly [number, number])[] = [
  [1, -1],
  [1, 0],
  [1, 1],
  [0, 1],
  [-1, 1],
  [-1, 0],
  [-1, -1],
  [0, -1],
];
