// FEN in: the argument check, parsing with FenError on failure, and the
// move list that comes with the newest position parsed by the constructor.
import { currentSlab, reserveBytes } from './bytes';
import { describe } from './errors';
import { backend, publicError } from './boundary';

/** Standard starting position. */
export const START_FEN = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';

/** The FEN a caller gave: the start position when undefined; a TypeError unless a string. */
export function fenArgument(fen: unknown): string {
  const text: unknown = fen === undefined ? START_FEN : fen;
  if (typeof text !== 'string') throw new TypeError(`FEN must be a string, got ${describe(text)}`);
  return text;
}

/** Parses `fen` into the position view `out`; a FenError when it is invalid. */
export function parseFen(out: Uint8Array, fen: string, chess960: boolean): void {
  try {
    backend.fenParse(out, fen, chess960 ? 1 : 0);
  } catch (e) {
    throw publicError(e);
  }
}

/**
 * Parses `fen` as a relaxed position (chess.js's rules for positions it
 * accepts and the strict parser refuses: see cn_fen_parse_relaxed) into
 * `out`; kings: each side's king square (a1 = 0), or TABLES' limits.noSquare.
 */
export function parseRelaxedFen(out: Uint8Array, fen: string, whiteKing: number, blackKing: number): void {
  try {
    backend.fenParseRelaxed(out, fen, whiteKing, blackKing);
  } catch (e) {
    throw publicError(e);
  }
}

/** The FEN after the side to move of `fen` passes (a null move: no en passant, clocks on). */
export function passedFen(fen: string, chess960: boolean): string {
  const before = new Uint8Array(backend.positionBytes);
  const after = new Uint8Array(backend.positionBytes);
  parseFen(before, fen, chess960);
  try {
    backend.playNull(before, after);
  } catch (e) {
    throw publicError(e);
  }
  return backend.fen(after);
}

// The move list of the newest position parsed by parseFenListingMoves:
// parsing and listing in one native call makes `new Position(fen).legalMoves()`
// cost one crossing, not two. Only parseFenListingMoves writes NEWEST_MOVES,
// and position bytes are never written after creation, so the list belongs
// to whichever position still holds exactly the bytes at `newestAt` in
// `newestSlab`.
export const NEWEST_MOVES = new Uint16Array(backend.maxMoves);
const NEWEST_MOVES_BUFFER = NEWEST_MOVES.buffer;
let newestSlab: ArrayBuffer | null = null;
let newestAt = -1;
let newestCount = 0;

/**
 * Parses `fen` into newly reserved bytes and lists its legal moves in the
 * same native call; returns the bytes' offset in {@link currentSlab} (until
 * the next reservation). A FenError when the FEN is invalid.
 */
export function parseFenListingMoves(fen: string, chess960: boolean): number {
  const at = reserveBytes();
  const slab = currentSlab();
  try {
    newestCount = backend.fenParseList(slab, at, fen, chess960 ? 1 : 0, NEWEST_MOVES_BUFFER);
  } catch (e) {
    throw publicError(e);
  }
  newestSlab = slab;
  newestAt = at;
  return at;
}

/**
 * A view of the bytes of the position parseFenListingMoves put at `at` in
 * `slab`, parsed from `fen` again where the backend deferred them and no
 * longer holds them.
 */
export function parsedView(slab: ArrayBuffer, at: number, fen: string, chess960: boolean): Uint8Array {
  const view = new Uint8Array(slab, at, backend.positionBytes);
  if (backend.settleParsed !== undefined && !backend.settleParsed(slab, at)) parseFen(view, fen, chess960);
  return view;
}

/**
 * How many moves NEWEST_MOVES holds for the position at `at` in `slab`, or -1
 * when that is not the newest position parsed by parseFenListingMoves.
 */
export function newestMoveCount(slab: ArrayBuffer, at: number): number {
  return at === newestAt && slab === newestSlab ? newestCount : -1;
}
