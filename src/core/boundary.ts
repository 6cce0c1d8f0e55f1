// The boundary to the engine: the type of what a backend provides
// (Backend), the tables of every slot, code and limit that crosses (read
// from the engine's own JSON text, cn_boundary_tables), the loaded backend
// (the addon from prebuilds/<platform>-<arch>/*.node or build/Release, with
// node-gyp-build from the package root, or the WebAssembly build of
// ./wasm-backend), and the turning of its failures into the package's
// errors. Every engine call from TypeScript goes through here. Internal:
// not part of the public API.
//
// A backend throws TypeError / RangeError for bad arguments and, for an
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

type Table<K extends string> = { readonly [P in K]: number };

/** Limits a backend enforces; TypeScript checks arguments against these, never against copies. */
export interface Limits {
  /** Deepest perft / divide / perftAsync depth. */
  readonly maxDepth: number;
  /** Most perftAsync threads. */
  readonly maxThreads: number;
  /** Most units one perftUnitsStart job counts. */
  readonly maxUnits: number;
  /** Largest perft hash table in bytes (platform dependent: half the address space at most). */
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
  /** Bytes per move in playLine's `ucis` and after a PGN move's SAN (the UCI string, NUL padded). */
  readonly uciRecordBytes: number;
  /** The square number that names no square (fenParseRelaxed's missing king). */
  readonly noSquare: number;
}

/** The PGN reader's record codes and limits (pgn.h, boundary.h). */
export interface PgnConstants {
  readonly maxDepth: number;
  readonly maxMoveToken: number;
  readonly maxThreads: number;
  readonly recordInts: number;
  readonly stateLength: number;
  readonly op: Table<'game' | 'tag' | 'start' | 'move' | 'comment' | 'nag' | 'varStart' | 'varEnd' | 'error' | 'where' | 'end' | 'token'>;
  readonly mode: Table<'tree' | 'mainline' | 'headers' | 'chessjs'>;
  readonly result: Table<'none' | 'white' | 'black' | 'draw' | 'unknown'>;
  /** The pgnState textEnd slot: more text follows, the text's end, or its cut at a size limit. */
  readonly textEnd: Table<'more' | 'final' | 'cut'>;
  /** Bits of a START record's flags. */
  readonly startFlags: Table<'chess960' | 'badFen'>;
}

/**
 * The index of each value in the arrays that cross the boundary: state,
 * progress and result arrays, and the fields of a PGN record (each op's
 * fields follow the record's op slot).
 */
export interface Slots {
  readonly pgnState: Table<'textEnd' | 'mode' | 'line' | 'column' | 'maxGames' | 'consumed' | 'games' | 'threads'>;
  readonly lineState: Table<'status' | 'offset' | 'badStart' | 'badLength'>;
  readonly perftProgress: Table<'rootMovesDone' | 'rootMovesTotal' | 'elapsedMs'>;
  readonly perftResult: Table<'seconds' | 'rootMoves'>;
  readonly pgnRecord: Table<'op' | 'a' | 'b' | 'c'>;
  readonly pgnGame: Table<'line' | 'column'>;
  readonly pgnTag: Table<'name' | 'nameLength' | 'valueLength'>;
  readonly pgnStart: Table<'fen' | 'fenLength' | 'flags'>;
  /** `san`: the SAN (sanLength bytes), then the move's UCI record (limits.uciRecordBytes). */
  readonly pgnMove: Table<'move' | 'san' | 'sanLength'>;
  readonly pgnComment: Table<'text' | 'length'>;
  readonly pgnNag: Table<'nag'>;
  readonly pgnError: Table<'message' | 'length' | 'ply'>;
  readonly pgnWhere: Table<'line' | 'column'>;
  readonly pgnToken: Table<'text' | 'length'>;
  readonly pgnEnd: Table<'result' | 'fen' | 'fenLength'>;
}

type PieceName = 'Pawn' | 'Knight' | 'Bishop' | 'Rook' | 'Queen' | 'King';

/** The tables of csrc/engine/include/boundary.h, as cn_boundary_tables() writes them. */
export interface BoundaryTables {
  readonly slots: Slots;
  /** The length of each state, progress and result array, and of a PGN record. */
  readonly slotLengths: Table<'pgnState' | 'lineState' | 'perftProgress' | 'perftResult' | 'pgnRecord'>;
  readonly limits: Limits;
  readonly pgn: PgnConstants;
  /** board()'s code of each square: empty, or the piece on it. */
  readonly board: Table<'empty' | `white${PieceName}` | `black${PieceName}`>;
  /** The sides, as turn() gives them and attackers() takes them. */
  readonly colors: Table<'white' | 'black'>;
  /** The bits of gameState() (CN_GAME_*). Checkmate is check | noMoves. */
  readonly gameStateBits: Table<'check' | 'noMoves' | 'insufficient' | 'fifty'>;
  /** playLine / sanLine formats (CN_LINE_*): uci or san, | list for '\n'-terminated moves. */
  readonly lineFormat: Table<'uci' | 'san' | 'list'>;
  /** The lineState status slot. */
  readonly lineStatus: Table<'ok' | 'illegal' | 'malformed'>;
  /** The `code` of the engine statuses TypeScript tells apart. */
  readonly errorCodes: { readonly fen: string; readonly illegalMove: string; readonly badMove: string; readonly noMemory: string };
  /** Every engine status (cn_status), by name. */
  readonly status: Table<
    'ok' | 'fen' | 'illegalMove' | 'badMove' | 'init' | 'badPosition' | 'unsupported' | 'badArgument' | 'noMemory' | 'noThread'
  >;
  /** The structs as this build lays them out (the addon's host, or wasm32): read by the wasm backend. */
  readonly layout: EngineLayout;
  /** 64-bit key seeds of the perft tables, as decimal strings. */
  readonly keySeeds: { readonly perft: string; readonly perftVerify: string };
}

/** A struct's size (`bytes`) and the byte offsets of its fields, by name. */
export type StructLayout = { readonly [field: string]: number };

/** boundary.h's layout table: scalar widths, buffer sizes, and each struct's layout. */
interface EngineLayout {
  readonly sizeBytes: number;
  readonly pointerBytes: number;
  readonly intBytes: number;
  readonly moveBytes: number;
  readonly maxMoves: number;
  readonly sanBytes: number;
  readonly fenBytes: number;
  readonly keySetNameBytes: number;
  readonly pgnMinBlockBytes: number;
  readonly position: StructLayout;
  readonly undo: StructLayout;
  readonly fenError: StructLayout;
  readonly lineReader: StructLayout;
  readonly pgnInput: StructLayout;
  readonly pgnPart: StructLayout;
  readonly pgnParts: StructLayout;
  readonly jobOptions: StructLayout;
  readonly split: StructLayout;
}

/** splitTree's result (csrc/binding/split.cc). */
interface BackendSplit {
  /** The ply the units stand at. */
  readonly ply: number;
  /** Each unit's FEN: its four position fields and clocks `0 1`. */
  readonly fens: string[];
  /** Move sequences from the root reaching each unit. */
  readonly multiplicities: bigint[];
  /** The root's legal moves in UCI, in legalMoves order. */
  readonly rootMoves: string[];
  /**
   * With trackRoots at ply >= 1: unit i is reached by rootCounts[j] sequences starting with root
   * move roots[j], for j from rootFirst[i] to rootFirst[i + 1] - 1 (roots ascending).
   */
  readonly rootFirst?: Uint32Array;
  readonly roots?: Uint16Array;
  readonly rootCounts?: bigint[];
}

/**
 * A PGN read's parts: [records, strings, lineOffset, records, strings,
 * lineOffset, ...]. The strings are bytes, or, where pgnReadText decoded an
 * ASCII table itself, that table as strings cut where its `cuts` said.
 */
export type PgnParts = (Uint8Array | string[] | number)[];

/**
 * What a backend (the addon of csrc/binding/, or the engine as WebAssembly)
 * provides. A position is a view of exactly `positionBytes` bytes; the
 * slots and codes of what crosses are in `boundaryTables`.
 */
export interface Backend {
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
  /** cn_boundary_tables(): the JSON text of BoundaryTables. */
  readonly boundaryTables: string;

  /**
   * Reads the games of `text` (state: SLOTS.pgnState); returns its
   * parts in order, three entries each: records, strings, line offset.
   */
  pgnRead(text: Uint8Array, state: Float64Array): PgnParts;
  /**
   * pgnRead of a string's UTF-8, where the backend can encode it straight
   * into its own memory (the wasm engine's): no bytes of its own to copy.
   * An ASCII string table comes decoded, cut at the offsets `cuts` gives
   * for the part's records (a view it must not keep).
   */
  pgnReadText?(text: string, state: Float64Array, cuts: (records: Int32Array) => number[]): PgnParts;
  /** pgnRead on a worker thread. */
  pgnReadAsync(text: Uint8Array, state: Float64Array, done: (err: Error | null, parts: PgnParts) => void): void;

  fenParse(out: Uint8Array, fen: string, chess960: 0 | 1): void;
  /**
   * A relaxed position (cn_fen_parse_relaxed: chess.js's rules for the
   * positions it accepts) into `out`; whiteKing / blackKing: each side's
   * king square (a1 = 0), or 64 for none.
   */
  fenParseRelaxed(out: Uint8Array, fen: string, whiteKing: number, blackKing: number): void;
  /**
   * fenParse into slab[at, at + positionBytes), then the sorted legal moves
   * of the new position into `moves` (as uint16); returns their count.
   * Where the backend has settleParsed, the bytes are there only once it
   * has copied them; until then nothing may read them.
   */
  fenParseList(slab: ArrayBuffer, at: number, fen: string, chess960: 0 | 1, moves: ArrayBuffer): number;
  /**
   * Copies the position fenParseList parsed into `slab` at `at` there, where
   * a backend defers that (the wasm engine keeps its newest ones); false
   * when the backend no longer holds it, and the caller parses it again.
   */
  settleParsed?(slab: ArrayBuffer, at: number): boolean;
  fen(pos: Uint8Array): string;
  /** The FEN's four position fields (placement, side, castling, en passant): an EPD's position. */
  epd(pos: Uint8Array): string;
  /** TABLES.colors: the side to move. */
  turn(pos: Uint8Array): 0 | 1;
  /** The fullmove number, from 1. */
  moveNumber(pos: Uint8Array): number;
  /** 1 when the side to move is in check, else 0. */
  inCheck(pos: Uint8Array): 0 | 1;
  /** The sorted legal moves into `out` (an ArrayBuffer of >= 2 * maxMoves bytes or a Uint16Array); returns their count. */
  legalMoves(pos: Uint8Array, out: Uint16Array | ArrayBuffer): number;
  moveToUci(pos: Uint8Array, move: number): string;
  /** 1 when `uci` is a legal move here, else 0 (also for malformed strings). */
  isLegal(pos: Uint8Array, uci: string): 0 | 1;
  /** Plays `uci`, writing the position after it into `out` (never into `pos`); returns the move. */
  play(pos: Uint8Array, uci: string, out: Uint8Array): number;
  /** The side to move passes (a PGN null move), writing the position after it into `out`; CN_ERR_ILLEGAL_MOVE in check. */
  playNull(pos: Uint8Array, out: Uint8Array): void;
  hash(pos: Uint8Array): bigint;
  gameState(pos: Uint8Array): number;
  /** out[square] = the board code (TABLES.board) of the square (square 0 = a1). */
  board(pos: Uint8Array, out: Uint8Array): void;
  /** Fills `out` with the attacking squares (ascending, a1 = 0); returns their number. */
  attackers(pos: Uint8Array, square: number, color: number, out: Uint8Array): number;

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
   * Returns the number played; state: SLOTS.lineState (status, offset to continue from,
   * failing move's start and length).
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
  /** Nodes so far; `out`: SLOTS.perftProgress. */
  perftProgress(job: PerftHandle, out: Float64Array): bigint;
  perftCancel(job: PerftHandle): void;
  /**
   * -1 unless the job finished uncancelled; else the node count, with the root moves
   * (generation order) and their counts in `moves` / `counts` (maxMoves entries each)
   * and `out`: SLOTS.perftResult (seconds, number of root moves).
   */
  perftResult(job: PerftHandle, moves: Uint16Array, counts: BigUint64Array, out: Float64Array): bigint | -1;
  /** Cancels if running, joins the threads, frees the job (and its table). */
  perftFree(job: PerftHandle): void;

  /**
   * The unique positions `ply` plies below `root` (split.h), in the order they are first reached,
   * expanding while the level holds at most maxUnits units; trackRoots 1 counts each unit's
   * sequences per root move. A count beyond 2^128 - 1 is an engine error CN_ERR_BAD_ARGUMENT.
   */
  splitTree(root: Uint8Array, ply: number, maxUnits: number, trackRoots: 0 | 1): BackendSplit;
}

/** Opaque handle of a native perft job. */
export type PerftHandle = { readonly __perftHandle: unique symbol };

/** Whether `e` is an engine-status error of the addon (its codes all start with CN_). */
function isNativeError(e: unknown): e is NativeError {
  const code = (e as Partial<NativeError> | null)?.code;
  return e instanceof Error && typeof code === 'string' && code.startsWith('CN_');
}

function loadAddon(): Backend {
  // dist/core/boundary.js -> the package root is two levels up.
  return nodeGypBuild(path.join(__dirname, '..', '..')) as Backend;
}

/** The addon, or the wasm engine when asked for or when no addon binary loads. */
function load(): { engine: Backend; name: BackendName } {
  const requested = requestedBackend();
  try {
    if (requested === 'wasm') return { engine: loadWasm(), name: 'wasm' };
    try {
      return { engine: loadAddon(), name: 'native' };
    } catch (e) {
      if (requested === 'native' || isNativeError(e)) throw e;
      return { engine: loadWasm(), name: 'wasm' };
    }
  } catch (e) {
    // The only engine status initialisation can throw: the tables could not
    // be built, or a forced code path is unsupported.
    if (isNativeError(e)) throw new EngineError(e.code, e.message);
    throw e;
  }
}

const loaded = load();
setChosenBackend(loaded.name);
/** The engine: the addon, or the WebAssembly build. */
export const backend: Backend = loaded.engine;
/** Which engine `backend` is. */
export const backendName: BackendName = loaded.name;

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

/** The tables of a backend's boundaryTables text, deep-frozen. */
function tablesOf(json: string): BoundaryTables {
  return deepFreeze(JSON.parse(json) as BoundaryTables);
}

/** Every slot, code and limit of the boundary: TypeScript reads them by name, never by number. */
export const TABLES: BoundaryTables = tablesOf(backend.boundaryTables);
export const SLOTS: Slots = TABLES.slots;
export const SLOT_LENGTHS = TABLES.slotLengths;
export const LIMITS: Limits = TABLES.limits;
export const PGN: PgnConstants = TABLES.pgn;
const CODES = TABLES.errorCodes;

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
    throw rejectedMove(move, notation, e.code === CODES.illegalMove, () => backend.fen(pos));
  }
  throw publicError(e);
}
