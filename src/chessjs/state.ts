// The parts of a chess.js position the engine's Position does not hold as
// chess.js does: castling rights as given, the stored en-passant square, the
// clocks, where chess.js believes the kings are, and the board as FEN
// letters beside the engine's. Text helpers that build FEN fields from
// them, and the rules by which a move changes them.
import { NAMES, type Color } from './constants';

/** FEN letters by engine square (a1 = 0); undefined for an empty square. */
export type Board = (string | undefined)[];

/** A move as chess.js describes it. */
export interface RawMove {
  from: number;
  to: number;
  piece: string;
  captured: string | undefined;
  promotion: string | undefined;
  /** chess.js's flags string. */
  flags: string;
  key: number;
}

/** The king squares after `move` by `turn` (`king`: the man that moved is a king). */
function kingsAfter(kings: readonly [number, number], move: RawMove, turn: Color, king: boolean): readonly [number, number] {
  if (!king || move.flags === '-') return kings;
  return turn === 'w' ? [move.to, kings[1]] : [kings[0], move.to];
}

/**
 * The board after a legal move the engine has played (a new array): the
 * letters kept beside the engine's board, moved as the engine moved its
 * pieces (castling a king moves whatever stands on the rook's square, as
 * chess.js does; see cn_fen_parse_relaxed).
 */
export function applyMove(board: Board, move: RawMove, turn: Color): Board {
  const next = board.slice();
  const mover = board[move.from];
  next[move.to] = move.promotion === undefined ? next[move.from] : turn === 'w' ? move.promotion.toUpperCase() : move.promotion;
  next[move.from] = undefined;
  if (move.flags === 'e') next[turn === 'w' ? move.to - 8 : move.to + 8] = undefined;
  if (mover !== 'K' && mover !== 'k') return next;
  if (move.flags === 'k' && (move.to & 7) < 7) {
    next[move.to - 1] = next[move.to + 1];
    next[move.to + 1] = undefined;
  } else if (move.flags === 'q' && (move.to & 7) > 1) {
    next[move.to + 1] = next[move.to - 2];
    next[move.to - 2] = undefined;
  }
  return next;
}

/** Castling rights as chess.js prints them, by bits K = 1, Q = 2, k = 4, q = 8. */
export const CASTLING_TEXT: readonly string[] = Array.from({ length: 16 }, (_, bits) => {
  const text = (bits & 1 ? 'K' : '') + (bits & 2 ? 'Q' : '') + (bits & 4 ? 'k' : '') + (bits & 8 ? 'q' : '');
  return text || '-';
});

/** The bits of a castling field: chess.js looks for each letter anywhere in it. */
export function castlingBits(field: string): number {
  return (field.includes('K') ? 1 : 0) | (field.includes('Q') ? 2 : 0) | (field.includes('k') ? 4 : 0) | (field.includes('q') ? 8 : 0);
}

/** The board field of a FEN. */
export function boardText(board: Board): string {
  let text = '';
  for (let rank = 7; rank >= 0; rank--) {
    let empty = 0;
    for (let file = 0; file < 8; file++) {
      const letter = board[rank * 8 + file];
      if (letter === undefined) empty++;
      else {
        if (empty > 0) text += empty;
        empty = 0;
        text += letter;
      }
    }
    if (empty > 0) text += empty;
    if (rank > 0) text += '/';
  }
  return text;
}

/** The clocks and rights chess.js keeps beside the board. */
export interface Counters {
  turn: Color;
  castling: number;
  ep: number;
  half: number;
  full: number;
  /**
   * Where chess.js believes each side's king is (white, black): the square
   * a king was put or moved to, -1 after it was removed. A captured king is
   * still believed there, so its side goes on guarding that square.
   */
  kings: readonly [number, number];
}

// Rook corners: [square, the right it holds] (a1 Q, h1 K, a8 q, h8 k).
const CORNERS: Record<Color, readonly [number, number][]> = {
  w: [
    [0, 2],
    [7, 1],
  ],
  b: [
    [56, 8],
    [63, 4],
  ],
};

/**
 * The counters after `move` by the side to move (chess.js's rules: a king
 * move loses both rights, a move from a rook corner or a capture on one that
 * right; a double step leaves an en-passant square only with an enemy pawn
 * beside it; `at` gives the FEN letter on a square before the move). The
 * man that moves decides, not the move's piece: chess.js castles whatever
 * stands on a taken king's square.
 */
export function countersAfter(c: Counters, move: RawMove, at: (square: number) => string | undefined): Counters {
  const us = c.turn;
  const them: Color = us === 'w' ? 'b' : 'w';
  const mover = at(move.from);
  const king = mover === 'K' || mover === 'k';
  let castling = c.castling;
  if (move.flags !== '-') {
    if (king) castling &= us === 'w' ? ~3 : ~12;
    for (const [square, right] of CORNERS[us]) if (move.from === square) castling &= ~right;
    for (const [square, right] of CORNERS[them]) if (move.to === square) castling &= ~right;
  }
  let ep = -1;
  if (move.flags === 'b') {
    const pawn = them === 'w' ? 'P' : 'p';
    const file = move.to & 7;
    if ((file > 0 && at(move.to - 1) === pawn) || (file < 7 && at(move.to + 1) === pawn)) ep = (move.from + move.to) >> 1;
  }
  const resets = move.flags !== '-' && (move.piece === 'p' || move.captured !== undefined);
  const kings = kingsAfter(c.kings, move, us, king);
  return { turn: them, castling, ep, half: resets ? 0 : c.half + 1, full: us === 'b' ? c.full + 1 : c.full, kings };
}

/** The en-passant field of a FEN for a stored square (or '-'). */
export function epText(ep: number): string {
  return ep < 0 ? '-' : (NAMES[ep] as string);
}
