// Board queries on position bytes: square names, the piece on a square, the
// board as rows, and the attackers of a square.
import { describe } from './errors';
import { backend, TABLES } from './boundary';

/** A piece type, as chess.js names it. */
export type PieceType = 'p' | 'n' | 'b' | 'r' | 'q' | 'k';
/** A side, as chess.js names it. */
export type Color = 'w' | 'b';
/** A piece, as {@link Position.pieceAt} returns it. */
export interface Piece {
  type: PieceType;
  color: Color;
}
/** A piece on a square, as {@link Position.board} lists it (the same shape as chess.js's board()). */
export interface BoardPiece extends Piece {
  square: string;
}

const BOARD_CODES = TABLES.board;
const COLORS = TABLES.colors;
const PIECE_NAMES: Readonly<Record<string, PieceType>> = { Pawn: 'p', Knight: 'n', Bishop: 'b', Rook: 'r', Queen: 'q', King: 'k' };
// The piece of each board code (boundary.h), undefined for empty.
const PIECES: (Piece | undefined)[] = [];
for (const [name, code] of Object.entries(BOARD_CODES)) {
  const match = /^(white|black)(\w+)$/.exec(name);
  if (match) PIECES[code] = Object.freeze({ type: PIECE_NAMES[match[2] as string] as PieceType, color: match[1] === 'white' ? 'w' : 'b' });
}
// Square names by engine index (a1 = 0, h1 = 7, a8 = 56).
const SQUARE_NAMES: readonly string[] = Array.from({ length: 64 }, (_, i) => 'abcdefgh'[i & 7]! + String((i >> 3) + 1));
// backend.board's output: a board code per square.
const BOARD = new Uint8Array(64);
const SQUARES_OUT = new Uint8Array(64);

/** Engine index of a square name like "e4"; TypeError / RangeError otherwise. */
export function squareIndex(square: unknown): number {
  if (typeof square !== 'string') throw new TypeError(`square must be a string, got ${describe(square)}`);
  if (square.length !== 2) throw new RangeError(`not a square name: ${describe(square)} (expected a1..h8)`);
  const file = square.charCodeAt(0) - 97;
  const rank = square.charCodeAt(1) - 49;
  if (file < 0 || file > 7 || rank < 0 || rank > 7) {
    throw new RangeError(`not a square name: ${describe(square)} (expected a1..h8)`);
  }
  return rank * 8 + file;
}

/** The piece on a square of `pos`, or null. */
export function pieceAt(pos: Uint8Array, square: unknown): Piece | null {
  const index = squareIndex(square);
  backend.board(pos, BOARD);
  const piece = PIECES[BOARD[index] as number];
  return piece ? { type: piece.type, color: piece.color } : null;
}

/** The board of `pos` as 8 rows of 8, rank 8 first and file a first in each row. */
export function boardRows(pos: Uint8Array): (BoardPiece | null)[][] {
  backend.board(pos, BOARD);
  const rows: (BoardPiece | null)[][] = [];
  for (let rank = 7; rank >= 0; rank--) {
    const row: (BoardPiece | null)[] = [];
    for (let file = 0; file < 8; file++) {
      const index = rank * 8 + file;
      const piece = PIECES[BOARD[index] as number];
      row.push(piece ? { square: SQUARE_NAMES[index] as string, type: piece.type, color: piece.color } : null);
    }
    rows.push(row);
  }
  return rows;
}

/** Squares of `color`'s pieces (default: the side to move) attacking `square`, rank 8 first, then by file. */
export function attackerSquares(pos: Uint8Array, square: unknown, color: unknown): string[] {
  const index = squareIndex(square);
  let side: number;
  if (color === undefined) side = backend.turn(pos);
  else if (color === 'w') side = COLORS.white;
  else if (color === 'b') side = COLORS.black;
  else throw new TypeError(`color must be 'w' or 'b', got ${describe(color)}`);
  const n = backend.attackers(pos, index, side, SQUARES_OUT);
  const squares: number[] = [];
  for (let i = 0; i < n; i++) squares.push(SQUARES_OUT[i] as number);
  squares.sort((a, b) => (b >> 3) - (a >> 3) || (a & 7) - (b & 7));
  return squares.map((s) => SQUARE_NAMES[s] as string);
}
