// The engine's structs and constants as the module lays them out, read once
// from its own cn_boundary_tables() (sizeof / offsetof in the wasm32 build,
// csrc/engine/include/boundary.h), and the scratch block's slots derived
// from those sizes. The hot paths read plain numbers from the frozen object
// layoutOf() returns; nothing here restates an engine fact.
import type { BoundaryTables, StructLayout } from '../boundary';

/** Every number of an object of numbers, checked: a key the module lacks would give NaN offsets. */
type Fields<K extends string> = { readonly [P in K]: number };

/** A struct's size (`bytes`) and the byte offset of each field the backend touches. */
function struct<K extends string>(
  table: StructLayout | undefined,
  name: string,
  keys: readonly K[],
): Fields<K> & { readonly bytes: number } {
  if (table === undefined) throw new Error(`the wasm module's tables have no layout of ${name}`);
  const out: Record<string, number> = { bytes: wholeNumber(table['bytes'], `${name}.bytes`) };
  const seen = new Set<number>();
  for (const key of keys) {
    const offset = wholeNumber(table[key], `${name}.${key}`);
    // Distinct offsets inside the struct: a renamed or misplaced field fails here, at instantiate.
    if (offset >= out['bytes']! || seen.has(offset))
      throw new Error(`the wasm module's ${name}.${key} (${offset}) is not a field of its own`);
    seen.add(offset);
    out[key] = offset;
  }
  return Object.freeze(out) as Fields<K> & { readonly bytes: number };
}

function wholeNumber(value: unknown, name: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) throw new Error(`the wasm module's tables lack ${name}`);
  return value;
}

/** Byte offsets of consecutive blocks of the given sizes, each 8-aligned (64-bit values go in them); `end` is the total. */
function slots<K extends string>(sizes: Readonly<Record<K, number>>): Fields<K | 'end'> {
  const out: Record<string, number> = {};
  let at = 0;
  for (const [name, bytes] of Object.entries(sizes) as [string, number][]) {
    out[name] = at;
    at += Math.ceil(bytes / 8) * 8;
  }
  out['end'] = at;
  return Object.freeze(out) as Fields<K | 'end'>;
}

/**
 * How many of the positions fenParseList parsed the module's parsed slot
 * holds (a power of two: see parseFenListing).
 */
const PARSED_POSITIONS = 64;

/** The layout of the module whose tables are `t`: struct offsets, buffer sizes, limits, statuses and scratch slots. */
export function layoutOf(t: BoundaryTables) {
  const s = t.layout;
  for (const width of ['sizeBytes', 'pointerBytes', 'intBytes'] as const) {
    // Every size_t, pointer and int field is read and written as 32 bits.
    if (s[width] !== 4) throw new Error(`the wasm backend needs a wasm32 module (its ${width} is ${s[width]})`);
  }
  const limits = t.limits;
  const position = struct(s.position, 'position', ['key', 'fullmove', 'side']);
  const fenError = struct(s.fenError, 'fenError', ['field', 'message']);
  const Reader = struct(s.lineReader, 'lineReader', ['text', 'len', 'offset', 'format', 'badStart', 'badLen']);
  const PgnInput = struct(s.pgnInput, 'pgnInput', [
    'text',
    'length',
    'final',
    'cut',
    'mode',
    'line',
    'column',
    'maxGames',
    'consumed',
    'consumedLine',
    'consumedColumn',
  ]);
  const PgnPart = struct(s.pgnPart, 'pgnPart', ['records', 'recordCount', 'strings', 'stringLength', 'games', 'lineOffset']);
  const PgnParts = struct(s.pgnParts, 'pgnParts', ['part', 'count']);
  const JobOptions = struct(s.jobOptions, 'jobOptions', ['depth', 'threads', 'hashBytes', 'keySeed']);
  const Split = struct(s.split, 'split', [
    'ply',
    'count',
    'positions',
    'multiplicities',
    'rootFirst',
    'roots',
    'rootCounts',
    'rootMoveCount',
    'rootMoves',
  ]);
  const undo = struct(s.undo, 'undo', []);
  const maxMoves = wholeNumber(s.maxMoves, 'maxMoves');
  const sanBytes = wholeNumber(s.sanBytes, 'sanBytes');
  const fenBytes = wholeNumber(s.fenBytes, 'fenBytes');
  const keySetNameBytes = wholeNumber(s.keySetNameBytes, 'keySetNameBytes');
  // A short string argument is written with one character past its limit and a NUL (args.ts shortString).
  const textBytes = Math.max(
    limits.fenMaxLength + 2,
    limits.sanMaxLength + 2,
    limits.uciMaxLength + 2,
    limits.uciRecordBytes,
    fenBytes,
    sanBytes,
    keySetNameBytes,
  );
  // A position holds 64-bit fields: whole 8-byte words, so that each one in the parsed slot stays aligned.
  if (position.bytes % 8 !== 0) throw new Error(`the wasm module's position (${position.bytes} bytes) is not whole 8-byte words`);
  return Object.freeze({
    POSITION_BYTES: position.bytes,
    PARSED_POSITIONS,
    /** offsetof(cn_position, key), fullmove, side. */
    KEY_OFFSET: position.key,
    FULLMOVE_OFFSET: position.fullmove,
    SIDE_OFFSET: position.side,
    MAX_MOVES: maxMoves,
    /** CN_NO_SQUARE: no king, in a relaxed position. */
    NO_SQUARE: limits.noSquare,
    SAN_MAX: sanBytes,
    /** cn_fen_write's buffer. */
    FEN_BYTES: fenBytes,
    KEY_SET_NAME_MAX: keySetNameBytes,
    FenError: fenError,
    FEN_MESSAGE_BYTES: wholeNumber(s.fenError?.['messageBytes'], 'fenError.messageBytes'),
    UCI_RECORD_BYTES: limits.uciRecordBytes,
    FEN_MAX_LENGTH: limits.fenMaxLength,
    UCI_MAX: limits.uciMaxLength,
    SAN_LINE_MAX: limits.sanMaxLength,
    LINE_MAX_MOVES: limits.lineMaxMoves,
    SAN_LINE_MOVES: limits.sanLineMoves,
    MAX_DEPTH: limits.maxDepth,
    JOB_MAX_THREADS: limits.maxThreads,
    JOB_MAX_UNITS: limits.maxUnits,
    MAX_HASH_BYTES: limits.maxHashBytes,
    PERFT_VERIFY_KEY_SEED: BigInt(t.keySeeds.perftVerify),
    PGN_MIN_BLOCK_BYTES: wholeNumber(s.pgnMinBlockBytes, 'pgnMinBlockBytes'),
    /** A PGN record: recordInts int32 values. */
    PGN_RECORD_BYTES: 4 * t.pgn.recordInts,
    /** cn_status values. */
    Status: Object.freeze({ ...t.status }),
    Reader,
    PgnInput,
    PgnPart,
    PgnParts,
    JobOptions,
    Split,
    /** Slots of the scratch block (offsets from its start); `end` is its size. */
    Slot: slots({
      pos: position.bytes,
      out: position.bytes,
      fenError: fenError.bytes,
      moves: maxMoves * wholeNumber(s.moveBytes, 'moveBytes'),
      counts: maxMoves * 8,
      text: textBytes,
      sans: Math.max(maxMoves, limits.sanLineMoves) * sanBytes,
      reader: Reader.bytes,
      options: JobOptions.bytes,
      /** One scalar result: an int, a move, a pointer or a 64-bit value. */
      int: 8,
      pgnInput: PgnInput.bytes,
      pgnParts: PgnParts.bytes,
      undo: undo.bytes,
      parsed: PARSED_POSITIONS * position.bytes,
    }),
  });
}

/** The layout of one module, read once per Engine. */
export type Layout = ReturnType<typeof layoutOf>;
