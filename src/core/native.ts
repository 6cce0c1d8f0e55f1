// The boundary to the addon: loads it (prebuilds/<platform>-<arch>/*.node or
// build/Release, with node-gyp-build from the package root), types its
// surface (the exports of csrc/binding/), and turns its failures into the
// package's errors. Internal: not part of the public API.
//
// The addon throws TypeError / RangeError for bad arguments and, for an
// engine status, an Error whose `code` names the C enum value. Every call
// that can meet an engine status passes what it catches through publicError
// or moveError, so users only ever see the classes of errors.ts,
// TypeError and RangeError.
import * as path from 'node:path';

import { requestedBackend, setChosenBackend, type BackendName } from './backend-choice';
import { EngineError, FenError, rejectedMove, type FenField, type Notation } from './errors';
import { loadWasm } from './wasm-backend';

// node-gyp-build ships no types: it takes the package root and returns the addon's exports.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the CommonJS build loads it synchronously
const nodeGypBuild = require('node-gyp-build') as (root: string) => unknown;

/**
 * An error the addon throws for an engine status; `code` is the C enum name
 * (CN_ERR_FEN with `field`, CN_ERR_ILLEGAL_MOVE, CN_ERR_BAD_MOVE,
 * CN_ERR_BAD_POSITION, CN_ERR_INIT, CN_ERR_UNSUPPORTED, CN_ERR_NO_MEMORY, CN_ERR_NO_THREAD, ...).
 */
interface NativeError extends Error {
  code: string;
  field?: string;
}

/** Limits the binding enforces; TypeScript checks arguments against these, never against copies. */
interface Limits {
  /** Deepest perft / divide / perftAsync depth. */
  readonly maxDepth: number;
  /** Most perftAsync threads. */
  readonly maxThreads: number;
  /** Most units one perftUnitsStart job counts. */
  readonly maxUnits: number;
  /** Largest perft hash table in bytes. */
  readonly maxHashBytes: number;
  /** Longest FEN parsed (longer ones are "too long"). */
  readonly fenMaxLength: number;
  /** Longest UCI / SAN move string read (longer ones are malformed). */
  readonly uciMaxLength: number;
  readonly sanMaxLength: number;
  /** Most moves one playLine call plays. */
  readonly lineMaxMoves: number;
  /** Moves one sanLine call converts. */
  readonly sanLineMoves: number;
  /** Bytes per move in playLine's `ucis` (the UCI string, NUL padded). */
  readonly uciRecordBytes: number;
}

/** A PGN read's parts: [records, strings, lineOffset, records, strings, lineOffset, ...]. */
export type PgnParts = (Uint8Array | number)[];

/** The PGN reader's record codes and limits (pgn.h). */
interface PgnConstants {
  readonly maxDepth: number;
  readonly maxMoveToken: number;
  readonly maxThreads: number;
  readonly recordInts: number;
  readonly stateLength: number;
  readonly op: {
    readonly game: number;
    readonly tag: number;
    readonly start: number;
    readonly move: number;
    readonly comment: number;
    readonly nag: number;
    readonly varStart: number;
    readonly varEnd: number;
    readonly error: number;
    readonly where: number;
    readonly end: number;
  };
  readonly mode: { readonly tree: number; readonly mainline: number; readonly headers: number };
  readonly result: {
    readonly none: number;
    readonly white: number;
    readonly black: number;
    readonly draw: number;
    readonly unknown: number;
  };
}

/** What csrc/binding/ exports. A position is a view of exactly `positionBytes` bytes. */
export interface Native {
  readonly version: string;
  readonly sliders: 'pext' | 'magic';
  readonly impl: string;
  readonly initMs: number;
  readonly napi: number;
  readonly positionBytes: number;
  /** Byte offset of the 64-bit Polyglot key inside the position bytes. */
  readonly keyOffset: number;
  readonly maxMoves: number;
  /** Name of the hashed perft's default second key set (cn_perft_key_set_name). */
  readonly perftKeySet: string;
  /** Name and seed of the key set a verifying perft counts with again. */
  readonly perftVerifyKeySet: string;
  readonly perftVerifyKeySeed: bigint;
  readonly limits: Limits;
  /** The bits of gameState() (CN_GAME_*). Checkmate is check | noMoves. */
  readonly gameStateBits: { readonly check: number; readonly noMoves: number; readonly insufficient: number; readonly fifty: number };
  /** playLine / sanLine formats (CN_LINE_*): uci or san, | list for '\n'-terminated moves. */
  readonly lineFormat: { readonly uci: number; readonly san: number; readonly list: number };
  /** The `code` of the engine statuses TypeScript tells apart. */
  readonly errorCodes: { readonly fen: string; readonly illegalMove: string; readonly badMove: string; readonly noMemory: string };
  /** state[0] after playLine / sanLine. */
  readonly lineStatus: { readonly ok: number; readonly illegal: number; readonly malformed: number };

  /** PGN record layout and codes (pgn.h). */
  readonly pgn: PgnConstants;
  /**
   * Reads the games of `text` (state: see csrc/binding/pgn.cc); returns its
   * parts in order, three entries each: records, strings, line offset.
   */
  pgnRead(text: Uint8Array, state: Float64Array): PgnParts;
  /** pgnRead on a worker thread. */
  pgnReadAsync(text: Uint8Array, state: Float64Array, done: (err: Error | null, parts: PgnParts) => void): void;

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
  /** The sorted legal moves into `out` (an ArrayBuffer of >= 2 * maxMoves bytes or a Uint16Array); returns their count. */
  legalMoves(pos: Uint8Array, out: Uint16Array | ArrayBuffer): number;
  moveToUci(pos: Uint8Array, move: number): string;
  /** 1 when `uci` is a legal move here, else 0 (also for malformed strings). */
  isLegal(pos: Uint8Array, uci: string): 0 | 1;
  /** Plays `uci`, writing the position after it into `out` (never into `pos`); returns the move. */
  play(pos: Uint8Array, uci: string, out: Uint8Array): number;
  hash(pos: Uint8Array): bigint;
  gameState(pos: Uint8Array): number;
  /** out[square] = 0 empty, else 1 + color * 8 + type (type 0 pawn .. 5 king; square 0 = a1). */
  board(pos: Uint8Array, out: Uint8Array): void;
  /** Fills `out` with the attacking squares (ascending, a1 = 0); returns their number. */
  attackers(pos: Uint8Array, square: number, color: 0 | 1, out: Uint8Array): number;

  san(pos: Uint8Array, uci: string): string;
  /** SAN of the legal moves, space separated, in legalMoves order; `out` receives the moves. */
  legalMovesSan(pos: Uint8Array, out: Uint16Array): string;
  parseSan(pos: Uint8Array, san: string): number;
  /** As play, for a SAN move. */
  playSan(pos: Uint8Array, san: string, out: Uint8Array): number;

  /**
   * Plays the moves of `text` (UTF-8) from byte `offset` (format: lineFormat). Fills
   * positions (positionBytes each, the position after each move), moves and ucis
   * (uciRecordBytes each) for up to as many moves as they hold; never writes `pos`.
   * Returns the number played; state = [lineStatus, offset to continue from, failing
   * move's start, its length].
   */
  playLine(
    pos: Uint8Array,
    text: Uint8Array,
    offset: number,
    format: number,
    positions: Uint8Array,
    moves: Uint16Array,
    ucis: Uint8Array,
    state: Float64Array,
  ): number;
  /** SAN of up to limits.sanLineMoves moves of a UCI line, space separated; `end` gets the position after them. */
  sanLine(pos: Uint8Array, text: Uint8Array, offset: number, format: number, end: Uint8Array, state: Float64Array): string;

  perft(pos: Uint8Array, depth: number): number | bigint;
  divide(pos: Uint8Array, depth: number, moves: Uint16Array, counts: BigUint64Array): number;
  /** Starts a perft job on native threads; `done` is called once it has finished or been cancelled. */
  /** keySeed: the table's second key set, 0n for the default. */
  perftStart(pos: Uint8Array, depth: number, threads: number, hashBytes: number, done: () => void, keySeed: bigint): PerftHandle;
  /**
   * Starts a job counting each of the positions in `units` (n * positionBytes bytes, 1 <= n <=
   * limits.maxUnits) to `depth`, with one table for all; progress counts units as root moves.
   */
  perftUnitsStart(units: Uint8Array, depth: number, threads: number, hashBytes: number, done: () => void, keySeed: bigint): PerftHandle;
  /**
   * For units first, first + 1, ...: done[i] = 1 and counts[i] = the unit's count once it is fully
   * counted (also while running and after a cancel), else 0 and 0n. Returns the number copied.
   */
  perftUnitResults(job: PerftHandle, first: number, counts: BigUint64Array, done: Uint8Array): number;
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

/** Whether `e` is an engine-status error of the addon (its codes all start with CN_). */
function isNativeError(e: unknown): e is NativeError {
  const code = (e as Partial<NativeError> | null)?.code;
  return e instanceof Error && typeof code === 'string' && code.startsWith('CN_');
}

function loadAddon(): Native {
  // dist/core/native.js -> the package root is two levels up.
  return nodeGypBuild(path.join(__dirname, '..', '..')) as Native;
}

/** The addon, or the wasm engine when asked for or when no addon binary loads. */
function load(): { engine: Native; backend: BackendName } {
  const requested = requestedBackend();
  try {
    if (requested === 'wasm') return { engine: loadWasm(), backend: 'wasm' };
    try {
      return { engine: loadAddon(), backend: 'native' };
    } catch (e) {
      if (requested === 'native' || isNativeError(e)) throw e;
      return { engine: loadWasm(), backend: 'wasm' };
    }
  } catch (e) {
    // The only engine status initialisation can throw: the tables could not
    // be built, or a forced code path is unsupported.
    if (isNativeError(e)) throw new EngineError(e.code, e.message);
    throw e;
  }
}

const loaded = load();
setChosenBackend(loaded.backend);
export const native = loaded.engine;
/** Which engine `native` is: the addon, or the WebAssembly build. */
export const backend = loaded.backend;
const CODES = native.errorCodes;

/**
 * The error a user sees for `e`, thrown by the addon: CN_ERR_FEN is a
 * FenError; CN_ERR_NO_MEMORY (a hash table or a PGN read's output cannot be
 * allocated) a RangeError with that `code`, as for an ArrayBuffer too large
 * to allocate; any other engine status an EngineError. Anything else is
 * returned as it is.
 */
export function publicError(e: unknown): unknown {
  if (!isNativeError(e) || e instanceof EngineError) return e;
  if (e.code === CODES.fen) return new FenError(e.field as FenField, e.message);
  if (e.code === CODES.noMemory) return Object.assign(new RangeError(e.message), { code: e.code });
  return new EngineError(e.code, e.message);
}

/**
 * Throws the public error for `e`, thrown by a single-move call on `move` in
 * the position `pos`. (The caller passes the bytes rather than a function
 * giving the FEN: a closure over `this` would cost every call a context.)
 */
export function moveError(e: unknown, move: string, notation: Notation, pos: Uint8Array): never {
  if (isNativeError(e) && (e.code === CODES.illegalMove || e.code === CODES.badMove)) {
    throw rejectedMove(move, notation, e.code === CODES.illegalMove, () => native.fen(pos));
  }
  throw publicError(e);
}
