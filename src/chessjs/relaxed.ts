// Move generation for the positions chess.js accepts and the engine's
// position model does not: a side without a king (never in check), more
// than 16 men, pawns on the first or last rank, the side not to move in
// check, castling rights without their rook. Such positions come from
// clear(), put(), remove() and skipValidation, mostly while a board is set
// up; they follow chess.js's rules: moves are pseudo-legal moves that leave
// the mover's king (if any) unattacked, and castling needs the rights, the
// empty squares and the unattacked squares, not the rook.
import { KNIGHT_STEPS, LINE_STEPS, NAMES, other, type Color } from './constants';
import { orderKey } from './order';

/** FEN letters by engine square (a1 = 0); undefined for an empty square. */
export type Board = (string | undefined)[];

/** A move as chess.js's generator makes it. */
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

export interface RelaxedState {
  board: Board;
  turn: Color;
  /** K = 1, Q = 2, k = 4, q = 8. */
  castling: number;
  ep: number;
  /**
   * Where chess.js believes each side's king is (white, black): the square
   * a king was put or moved to, -1 after it was removed. A captured king is
   * still believed there, so its side goes on guarding that square.
   */
  kings: readonly [number, number];
}

const DIAGONAL = LINE_STEPS.filter(([dr, df]) => dr !== 0 && df !== 0);
const STRAIGHT = LINE_STEPS.filter(([dr, df]) => dr === 0 || df === 0);

function colorOf(letter: string): Color {
  return letter === letter.toLowerCase() ? 'b' : 'w';
}

function typeOf(letter: string): string {
  return letter.toLowerCase();
}

/** The square dr ranks up and df files right of `square`, or -1 off the board. */
function step(square: number, dr: number, df: number): number {
  const rank = (square >> 3) + dr;
  const file = (square & 7) + df;
  return rank >= 0 && rank < 8 && file >= 0 && file < 8 ? rank * 8 + file : -1;
}

/** Where chess.js believes `color`'s king is, or -1. */
function kingOf(s: RelaxedState, color: Color): number {
  return s.kings[color === 'w' ? 0 : 1];
}

/** The king squares after `move` by `turn`. */
export function kingsAfter(kings: readonly [number, number], move: RawMove, turn: Color): readonly [number, number] {
  if (move.piece !== 'k' || move.flags === '-') return kings;
  return turn === 'w' ? [move.to, kings[1]] : [kings[0], move.to];
}

/** Whether the piece on `from` attacks `target` on `board` (any piece blocks a line). */
function attacks(board: Board, from: number, target: number): boolean {
  const letter = board[from] as string;
  const type = typeOf(letter);
  const dr = (target >> 3) - (from >> 3);
  const df = (target & 7) - (from & 7);
  if (dr === 0 && df === 0) return false;
  if (type === 'p') return (df === 1 || df === -1) && dr === (colorOf(letter) === 'w' ? 1 : -1);
  if (type === 'n') return (Math.abs(dr) === 1 && Math.abs(df) === 2) || (Math.abs(dr) === 2 && Math.abs(df) === 1);
  if (type === 'k') return Math.abs(dr) <= 1 && Math.abs(df) <= 1;
  const straight = dr === 0 || df === 0;
  const diagonal = Math.abs(dr) === Math.abs(df);
  if (!(type === 'q' ? straight || diagonal : type === 'r' ? straight : diagonal)) return false;
  const sr = Math.sign(dr);
  const sf = Math.sign(df);
  for (let s = step(from, sr, sf); s !== target; s = step(s, sr, sf)) if (board[s] !== undefined) return false;
  return true;
}

/** The squares of `color`'s pieces attacking `target`, in chess.js's scan order. */
export function attackersOf(board: Board, color: Color, target: number): number[] {
  const found: number[] = [];
  for (let rank = 7; rank >= 0; rank--) {
    for (let file = 0; file < 8; file++) {
      const square = rank * 8 + file;
      const letter = board[square];
      if (letter !== undefined && colorOf(letter) === color && attacks(board, square, target)) found.push(square);
    }
  }
  return found;
}

function attacked(board: Board, color: Color, target: number): boolean {
  for (let square = 0; square < 64; square++) {
    const letter = board[square];
    if (letter !== undefined && colorOf(letter) === color && attacks(board, square, target)) return true;
  }
  return false;
}

/** Whether `color`'s king square (-1: none) is attacked. */
export function kingAttacked(board: Board, color: Color, king: number): boolean {
  return king >= 0 && attacked(board, other(color), king);
}

function add(moves: RawMove[], from: number, to: number, piece: string, captured: string | undefined, flags: string): void {
  const rank = to >> 3;
  if (piece === 'p' && (rank === 0 || rank === 7)) {
    for (const promotion of 'nbrq') {
      const key = orderKey(from, to, 'p', '', promotion);
      moves.push({ from, to, piece, captured, promotion, flags: flags + 'p', key });
    }
  } else {
    moves.push({
      from,
      to,
      piece,
      captured,
      promotion: undefined,
      flags,
      key: orderKey(from, to, piece, flags === 'k' || flags === 'q' ? flags : '', undefined),
    });
  }
}

function pawnMoves(s: RelaxedState, from: number, moves: RawMove[]): void {
  const forward = s.turn === 'w' ? 1 : -1;
  const one = step(from, forward, 0);
  if (one >= 0 && s.board[one] === undefined) {
    add(moves, from, one, 'p', undefined, 'n');
    const two = step(from, 2 * forward, 0);
    const second = s.turn === 'w' ? 1 : 6;
    if (from >> 3 === second && two >= 0 && s.board[two] === undefined) add(moves, from, two, 'p', undefined, 'b');
  }
  for (const df of s.turn === 'w' ? [-1, 1] : [1, -1]) {
    const to = step(from, forward, df);
    if (to < 0) continue;
    const target = s.board[to];
    if (target !== undefined && colorOf(target) !== s.turn) add(moves, from, to, 'p', typeOf(target), 'c');
    else if (to === s.ep) add(moves, from, to, 'p', 'p', 'e');
  }
}

function pieceMoves(s: RelaxedState, from: number, type: string, moves: RawMove[]): void {
  const steps = type === 'n' ? KNIGHT_STEPS : type === 'b' ? DIAGONAL : type === 'r' ? STRAIGHT : LINE_STEPS;
  const slides = type !== 'n' && type !== 'k';
  for (const [dr, df] of steps) {
    for (let to = step(from, dr, df); to >= 0; to = step(to, dr, df)) {
      const target = s.board[to];
      if (target === undefined) add(moves, from, to, type, undefined, 'n');
      else {
        if (colorOf(target) !== s.turn) add(moves, from, to, type, typeOf(target), 'c');
        break;
      }
      if (!slides) break;
    }
  }
}

function castlingMoves(s: RelaxedState, moves: RawMove[]): void {
  const king = kingOf(s, s.turn);
  if (king < 0 || (s.turn !== 'w' && s.turn !== 'b')) return;
  const them = other(s.turn);
  const rights = s.turn === 'w' ? s.castling & 3 : s.castling >> 2;
  const empty = (df: number): boolean => {
    const square = step(king, 0, df);
    return square >= 0 && s.board[square] === undefined;
  };
  const safe = (df: number): boolean => !attacked(s.board, them, step(king, 0, df));
  if (rights & 1 && empty(1) && empty(2) && safe(0) && safe(1) && safe(2)) add(moves, king, king + 2, 'k', undefined, 'k');
  if (rights & 2 && empty(-1) && empty(-2) && empty(-3) && safe(0) && safe(-1) && safe(-2)) add(moves, king, king - 2, 'k', undefined, 'q');
}

/** The board after `move` (a new array). */
export function applyMove(board: Board, move: RawMove, turn: Color): Board {
  const next = board.slice();
  next[move.to] = move.promotion === undefined ? next[move.from] : turn === 'w' ? move.promotion.toUpperCase() : move.promotion;
  next[move.from] = undefined;
  if (move.flags === 'e') next[turn === 'w' ? move.to - 8 : move.to + 8] = undefined;
  if (move.flags === 'k' || move.flags === 'q') {
    const [rookFrom, rookTo] = move.flags === 'k' ? [move.to + 1, move.to - 1] : [move.to - 2, move.to + 1];
    next[rookTo] = next[rookFrom];
    next[rookFrom] = undefined;
  }
  return next;
}

/** chess.js's moves, optionally only from `square` and only of piece type `piece`, in its order. */
export function relaxedMoves(s: RelaxedState, square = -1, piece: string | undefined = undefined): RawMove[] {
  const moves: RawMove[] = [];
  for (let from = 0; from < 64; from++) {
    if (square >= 0 && from !== square) continue;
    const letter = s.board[from];
    if (letter === undefined || colorOf(letter) !== s.turn) continue;
    const type = typeOf(letter);
    if (piece !== undefined && piece !== type) continue;
    if (type === 'p') pawnMoves(s, from, moves);
    else pieceMoves(s, from, type, moves);
  }
  const king = kingOf(s, s.turn);
  if ((piece === undefined || piece === 'k') && (square < 0 || square === king)) castlingMoves(s, moves);
  const legal = king < 0 ? moves : moves.filter((m) => !kingAttacked(applyMove(s.board, m, s.turn), s.turn, m.piece === 'k' ? m.to : king));
  return legal.sort((a, b) => a.key - b.key);
}

/** chess.js's disambiguation of `move` among `moves`: '', a file, a rank or a square. */
function disambiguator(move: RawMove, moves: readonly RawMove[]): string {
  let ambiguities = 0;
  let sameRank = 0;
  let sameFile = 0;
  for (const m of moves) {
    if (m.piece !== move.piece || m.from === move.from || m.to !== move.to) continue;
    ambiguities++;
    if (m.from >> 3 === move.from >> 3) sameRank++;
    if ((m.from & 7) === (move.from & 7)) sameFile++;
  }
  if (ambiguities === 0) return '';
  const name = NAMES[move.from] as string;
  if (sameRank > 0 && sameFile > 0) return name;
  return sameFile > 0 ? name[1]! : name[0]!;
}

/** The SAN of `move` in `s`, disambiguated against `moves` (as chess.js does, the list it was asked for). */
export function relaxedSan(s: RelaxedState, move: RawMove, moves: readonly RawMove[]): string {
  let san: string;
  if (move.flags === 'k') san = 'O-O';
  else if (move.flags === 'q') san = 'O-O-O';
  else {
    san = move.piece === 'p' ? '' : move.piece.toUpperCase() + disambiguator(move, moves);
    if (move.captured !== undefined) san += (move.piece === 'p' ? NAMES[move.from]![0]! : '') + 'x';
    san += NAMES[move.to] as string;
    if (move.promotion !== undefined) san += '=' + move.promotion.toUpperCase();
  }
  const board = applyMove(s.board, move, s.turn);
  const them = other(s.turn);
  const kings = kingsAfter(s.kings, move, s.turn);
  if (kingAttacked(board, them, kings[them === 'w' ? 0 : 1])) {
    const ep = move.flags === 'b' ? (move.from + move.to) >> 1 : -1;
    const next: RelaxedState = { board, turn: them, castling: s.castling, ep, kings };
    san += relaxedMoves(next).length === 0 ? '#' : '+';
  }
  return san;
}

/** Whether an en-passant capture onto `s.ep` is legal now (what decides whether FEN shows the square). */
export function epCaptureLegal(s: RelaxedState): boolean {
  if (s.ep < 0) return false;
  const victim = s.turn === 'w' ? s.ep - 8 : s.ep + 8;
  const pawn = s.turn === 'w' ? 'P' : 'p';
  for (const df of [1, -1]) {
    const from = step(victim, 0, df);
    if (from < 0 || s.board[from] !== pawn) continue;
    const move: RawMove = { from, to: s.ep, piece: 'p', captured: 'p', promotion: undefined, flags: 'e', key: 0 };
    if (!kingAttacked(applyMove(s.board, move, s.turn), s.turn, kingOf(s, s.turn))) return true;
  }
  return false;
}
