// Loads the compiled addon (prebuilds/<platform>-<arch>/*.node or build/Release)
// with node-gyp-build from the package root, and types its surface.
// Internal: not part of the public API.
import * as path from 'node:path';

// node-gyp-build ships no types: it takes the package root and returns the addon's exports.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const nodeGypBuild = require('node-gyp-build') as (root: string) => unknown;

/** Error thrown by the addon for an engine status; `code` is the C enum name. */
export interface NativeError extends Error {
  code: 'CN_ERR_FEN' | 'CN_ERR_ILLEGAL_MOVE' | 'CN_ERR_BAD_MOVE' | 'CN_ERR_BAD_POSITION' | 'CN_ERR_INIT' | 'CN_ERR_UNSUPPORTED' | 'CN_PERFT_JOB_NO_MEMORY' | 'CN_PERFT_JOB_NO_THREAD';
  field?: string;
}

/** Limits the binding enforces (csrc/binding/limits.h and the engine headers). */
export interface Limits {
  readonly maxDepth: number;
  readonly maxThreads: number;
  readonly maxHashBytes: number;
  readonly fenMaxLength: number;
  readonly uciMaxLength: number;
  readonly sanMaxLength: number;
  readonly lineMaxMoves: number;
  readonly sanLineMoves: number;
  readonly uciRecordBytes: number;
}

/** What csrc/binding/ exports. A position is a view of exactly `positionBytes` bytes. */
export interface Native {
  readonly limits: Limits;
  readonly gameStateBits: { readonly check: number; readonly noMoves: number; readonly insufficient: number; readonly fifty: number };
  readonly lineFormat: { readonly uci: number; readonly san: number; readonly list: number };
  readonly lineStatus: { readonly ok: number; readonly illegal: number; readonly malformed: number };
  readonly errorCodes: { readonly fen: string; readonly illegalMove: string; readonly badMove: string; readonly noMemory: string };
  readonly positionBytes: number;
  readonly maxMoves: number;
  readonly version: string;
  readonly sliders: 'pext' | 'magic';
  readonly impl: string;
  readonly initMs: number;
  readonly napi: number;
  fenParse(out: Uint8Array, fen: string, chess960: 0 | 1): void;
  /**
   * fenParse into slab[at, at + positionBytes), then the sorted legal moves
   * of the new position into `moves` (as uint16); returns their count.
   */
  fenParseList(slab: ArrayBuffer, at: number, fen: string, chess960: 0 | 1, moves: ArrayBuffer): number;
  fen(pos: Uint8Array): string;
  turn(pos: Uint8Array): 0 | 1;
  /** 1 when the side to move is in check, else 0. */
  inCheck(pos: Uint8Array): 0 | 1;
  legalMoves(pos: Uint8Array, out: Uint16Array): number;
  moveToUci(pos: Uint8Array, move: number): string;
  /** 1 when `uci` is a legal move here, else 0 (also for malformed strings). */
  isLegal(pos: Uint8Array, uci: string): 0 | 1;
  /** Plays `uci`, writing the position after it into `out` (never into `pos`); returns the move. */
  play(pos: Uint8Array, uci: string, out: Uint8Array): number;
  perft(pos: Uint8Array, depth: number): number | bigint;
  divide(pos: Uint8Array, depth: number, moves: Uint16Array, counts: BigUint64Array): number;
  /** Byte offset of the 64-bit Polyglot key inside the position bytes. */
  readonly keyOffset: number;
  hash(pos: Uint8Array): bigint;
  /** Bits: 1 check, 2 no legal move, 4 insufficient material, 8 halfmove clock >= 100. */
  gameState(pos: Uint8Array): number;
  san(pos: Uint8Array, uci: string): string;
  /** SAN of the legal moves, space separated, in legalMoves order; `out` receives the moves. */
  legalMovesSan(pos: Uint8Array, out: Uint16Array): string;
  parseSan(pos: Uint8Array, san: string): number;
  playSan(pos: Uint8Array, san: string, out: Uint8Array): number;
  /**
   * Plays the moves of `text` (UTF-8) from byte `offset`; format 0 UCI, 1 SAN, | 2 for a
   * '\n'-terminated list. Fills positions (positionBytes each, the position after each
   * move), moves and ucis (6 bytes each, NUL-terminated) for up to as many moves as they
   * hold; never writes `pos`. Returns the number played; state = [status (0 ok, 2 illegal
   * or ambiguous, 3 malformed), offset to continue from, failing move's start, its length].
   */
  playLine(pos: Uint8Array, text: Uint8Array, offset: number, format: number, positions: Uint8Array, moves: Uint16Array, ucis: Uint8Array, state: Float64Array): number;
  /** SAN of up to 256 moves of a UCI line (format 0 or 2), space separated; `end` gets the position after them. */
  sanLine(pos: Uint8Array, text: Uint8Array, offset: number, format: number, end: Uint8Array, state: Float64Array): string;
  /** out[square] = 0 empty, else 1 + color * 8 + type (type 0 pawn .. 5 king; square 0 = a1). */
  board(pos: Uint8Array, out: Uint8Array): void;
  /** Fills `out` with the attacking squares (ascending, a1 = 0); returns their number. */
  attackers(pos: Uint8Array, square: number, color: 0 | 1, out: Uint8Array): number;
  /** Starts a perft job on native threads; `done` is called once it has finished or been cancelled. */
  perftStart(pos: Uint8Array, depth: number, threads: number, hashBytes: number, done: () => void): PerftHandle;
  /** Nodes so far; `out` = [root moves done, root moves total, elapsed ms]. */
  perftProgress(job: PerftHandle, out: Float64Array): bigint;
  perftCancel(job: PerftHandle): void;
  /**
   * -1 unless the job finished uncancelled; else the node count, with the root moves
   * (generation order) and their counts in `moves` / `counts` (maxMoves entries each)
   * and `out` = [seconds, number of root moves].
   */
  perftResult(job: PerftHandle, moves: Uint16Array, counts: BigUint64Array, out: Float64Array): bigint | -1;
  /** Cancels if running, joins the threads, frees the job (and its table). */
  perftFree(job: PerftHandle): void;
}

/** Opaque handle of a native perft job. */
export type PerftHandle = { readonly __perftHandle: unique symbol };

// dist/native.js -> the package root is one level up.
export const native = nodeGypBuild(path.join(__dirname, '..')) as Native;

export function isNativeError(e: unknown, code: NativeError['code']): e is NativeError {
  return e instanceof Error && (e as Partial<NativeError>).code === code;
}
