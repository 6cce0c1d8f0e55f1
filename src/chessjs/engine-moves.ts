// Move records from the engine's answers: a legal move's UCI and SAN (and
// the board) give chess.js's description of it; the SAN of all legal moves in
// chess.js's order; a move string read as written when it already is SAN.
import { backend } from '../core/boundary';
import type { Position } from '../core/index';
import { orderKey } from './order';
import type { Board, RawMove } from './state';
import type { Candidate } from './san';

/** A legal move with its SAN and UCI. */
export interface Rec extends RawMove, Candidate {
  uci: string;
  /** The SAN still lacks its check mark: playing the move adds it. */
  unchecked?: boolean;
}

// Move strings already in SAN's own shape but for the check mark and the
// promotion's '=': [NBRQK], a capture mark, a square; a pawn's file and
// capture, its square, a promotion piece.
const PIECE_SHAPE = /^[NBRQK]x?[a-h][1-8]$/;
const PAWN_SHAPE = /^[a-h](x[a-h])?[1-8][NBRQ]?$/;

const PIECE_OF_SAN: Record<string, string> = { N: 'n', B: 'b', R: 'r', Q: 'q', K: 'k', O: 'k' };

// Sort keys of the current position's moves, each key * MOVES + the move's
// index (a relaxed position can have more than 256 moves; the largest key,
// castling's, times 512 stays below 2^31).
const MOVES = backend.maxMoves;
const KEYS = new Int32Array(MOVES);

/**
 * The SAN of the legal moves in chess.js's order: keys sorted as numbers in
 * a typed array, no move objects made (the common moves() call).
 */
export function sansInOrder(pos: Position): string[] {
  const ucis = pos.legalMoves();
  const sans = pos.legalMovesSan();
  const n = ucis.length;
  for (let i = 0; i < n; i++) {
    const uci = ucis[i] as string;
    const san = sans[i] as string;
    const first = san.charAt(0);
    const from = (uci.charCodeAt(1) - 49) * 8 + uci.charCodeAt(0) - 97;
    const to = (uci.charCodeAt(3) - 49) * 8 + uci.charCodeAt(2) - 97;
    const castle = first !== 'O' ? '' : to > from ? 'k' : 'q';
    const key = orderKey(from, to, PIECE_OF_SAN[first] ?? 'p', castle, uci.length > 4 ? uci.charAt(4) : undefined);
    KEYS[i] = key * MOVES + i;
  }
  const keys = KEYS.subarray(0, n).sort();
  const out = new Array<string>(n);
  for (let i = 0; i < n; i++) out[i] = sans[(keys[i] as number) % MOVES] as string;
  return out;
}

function isWhite(letter: string): boolean {
  return letter !== letter.toLowerCase();
}

/** The move record of a legal move the engine gave as `uci` and `san`, on `board` (before the move). */
export function engineRec(uci: string, san: string, board: Board): Rec {
  const from = (uci.charCodeAt(1) - 49) * 8 + uci.charCodeAt(0) - 97;
  const to = (uci.charCodeAt(3) - 49) * 8 + uci.charCodeAt(2) - 97;
  const first = san.charAt(0);
  const piece = PIECE_OF_SAN[first] ?? 'p';
  const promotion = uci.length > 4 ? uci.charAt(4) : undefined;
  let captured: string | undefined;
  let flags: string;
  if (first === 'O') flags = to > from ? 'k' : 'q';
  else if (san.includes('x')) {
    const target = board[to];
    // En passant: onto an empty square, or (an en-passant square chess.js
    // was given on an occupied one) onto a man of the mover's own side.
    const passant = target === undefined || isWhite(target) === isWhite(board[from] as string);
    captured = passant ? 'p' : target.toLowerCase();
    flags = passant ? 'e' : 'c';
  } else flags = piece === 'p' && (to - from === 16 || from - to === 16) ? 'b' : 'n';
  if (promotion !== undefined) flags += 'p';
  const key = orderKey(from, to, piece, first === 'O' ? flags : '', promotion);
  return { from, to, piece, captured, promotion, flags, key, san, uci };
}

/**
 * The move `uci`, which the engine read from `clean`, when `clean` is its
 * SAN less the check mark and the promotion's '=' (what chess.js's strict
 * reading compares): with no disambiguation written, the engine would have
 * refused an ambiguous one, so only the capture mark needs checking. Saves
 * formatting the SAN, which costs a legal move list; null otherwise.
 */
export function sanAsWritten(uci: string, clean: string, board: Board): Rec | null {
  const to = (uci.charCodeAt(3) - 49) * 8 + uci.charCodeAt(2) - 97;
  let capture: boolean;
  let san = clean;
  if (clean === 'O-O' || clean === 'O-O-O') capture = false;
  else if (PIECE_SHAPE.test(clean)) capture = board[to] !== undefined;
  else if (PAWN_SHAPE.test(clean)) {
    capture = uci.charCodeAt(0) !== uci.charCodeAt(2);
    if (uci.length > 4) san = clean.slice(0, -1) + '=' + clean.slice(-1);
  } else return null;
  if (capture !== clean.includes('x')) return null;
  const rec = engineRec(uci, san, board);
  rec.unchecked = true;
  return rec;
}
