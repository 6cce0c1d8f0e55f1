// parsePgn (text in memory) and readPgn (any source, streamed in constant
// memory): games read and validated by the native reader (pgn.h).
import * as buffer from 'node:buffer';
import { open } from 'node:fs/promises';

import { AbortError } from './errors';
import { native, publicError } from './native';
import { Game, type PgnBatch } from './pgn-game';

const C = native.pgn;
// buffer.isAscii is missing from Node 18 before 18.15.
const isAscii = (buffer as { isAscii?: (b: Uint8Array) => boolean }).isAscii;
const INTS = C.recordInts;
const OP_GAME: number = C.op.game;
const OP_END: number = C.op.end;

/** Deepest variation nesting read; deeper variations are skipped with an error. */
export const PGN_MAX_DEPTH: number = C.maxDepth;

/** Most native threads `readPgn` reads with (the `threads` option). */
export const PGN_MAX_THREADS: number = C.maxThreads;

/** How much of each game to read. */
export type PgnMode = 'tree' | 'mainline' | 'headers';

export interface ParsePgnOptions {
  /**
   * 'tree' (default): everything; 'mainline': mainline moves, every one
   * validated, no comments, NAGs or variations; 'headers': tags only.
   */
  mode?: PgnMode;
}

export interface PgnProgress {
  bytes: number;
  totalBytes: number | undefined;
  games: number;
}

export interface ReadPgnOptions extends ParsePgnOptions {
  signal?: AbortSignal;
  onProgress?: (progress: PgnProgress) => void;
  /** Bytes read from a file per step; default 1 MiB. */
  chunkBytes?: number;
  /**
   * A game still open after this many bytes is read as if the text ended
   * there (with its errors), so memory stays bounded; default 64 MiB.
   */
  maxGameBytes?: number;
  /**
   * Native threads reading each chunk, 1 to PGN_MAX_THREADS; default 1.
   * The games, their order and their errors are the same for any count.
   */
  threads?: number;
}

export type PgnSource = string | Uint8Array | AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>;

function modeCode(options: ParsePgnOptions | undefined): number {
  if (options === undefined) return C.mode.tree;
  if (typeof options !== 'object' || options === null) throw new TypeError('options must be an object');
  const mode = options.mode ?? 'tree';
  if (mode !== 'tree' && mode !== 'mainline' && mode !== 'headers') throw new RangeError("mode must be 'tree', 'mainline' or 'headers'");
  return C.mode[mode];
}

/** The games of a pgnRead result. */
function gamesOf(bytes: Uint8Array, recordBytes: number): Game[] {
  const strings = Buffer.from(bytes.buffer, bytes.byteOffset + recordBytes, bytes.length - recordBytes);
  const batch: PgnBatch = {
    records: new Int32Array(bytes.buffer, bytes.byteOffset, recordBytes / 4),
    strings,
    // One string for an ASCII table: its slices cost no call into Node's buffer code.
    ascii: isAscii?.(strings) ? strings.toString('latin1') : undefined,
  };
  const games: Game[] = [];
  const r = batch.records;
  let first = 0;
  for (let i = 0; i < r.length; i += INTS) {
    if (r[i] === OP_GAME) first = i / INTS;
    else if (r[i] === OP_END) games.push(new Game(batch, first, i / INTS));
  }
  return games;
}

/** Reading state across calls: where the next text starts. */
class Cursor {
  readonly state = new Float64Array(C.stateLength);
  constructor(mode: number, threads = 1) {
    this.state[1] = mode;
    this.state[2] = 1;
    this.state[8] = threads;
  }
  prepare(final: boolean): void {
    this.state[0] = final ? 1 : 0;
  }
  get consumed(): number {
    return this.state[5] as number;
  }
  get recordBytes(): number {
    return this.state[7] as number;
  }
}

/** Every game of `text`. */
export function parsePgn(text: string, options?: ParsePgnOptions): Game[] {
  if (typeof text !== 'string') throw new TypeError('text must be a string');
  const cursor = new Cursor(modeCode(options));
  cursor.prepare(true);
  let bytes: Uint8Array;
  try {
    bytes = native.pgnRead(Buffer.from(text, 'utf8'), cursor.state);
  } catch (e) {
    throw publicError(e);
  }
  return gamesOf(bytes, cursor.recordBytes);
}

function readAsync(text: Uint8Array, state: Float64Array): Promise<Uint8Array> {
  return new Promise((resolve, reject) =>
    native.pgnReadAsync(text, state, (err, bytes) => (err ? reject(publicError(err)) : resolve(bytes))),
  );
}

async function* fileChunks(path: string, chunkBytes: number): AsyncGenerator<Uint8Array> {
  const file = await open(path, 'r');
  try {
    for (;;) {
      const buffer = Buffer.allocUnsafe(chunkBytes);
      const { bytesRead } = await file.read(buffer, 0, chunkBytes, null);
      if (bytesRead === 0) return;
      yield buffer.subarray(0, bytesRead);
    }
  } finally {
    await file.close();
  }
}

async function* bufferChunks(bytes: Uint8Array, chunkBytes: number): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += chunkBytes) yield bytes.subarray(at, at + chunkBytes);
}

async function* sourceChunks(source: AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>) {
  for await (const chunk of source) {
    if (typeof chunk === 'string') yield Buffer.from(chunk, 'utf8');
    else if (chunk instanceof Uint8Array) yield chunk;
    else throw new TypeError('PGN chunks must be strings or Uint8Arrays');
  }
}

interface Chunks {
  chunks: AsyncIterable<Uint8Array>;
  totalBytes: number | undefined;
}

async function chunksOf(source: PgnSource, chunkBytes: number): Promise<Chunks> {
  if (typeof source === 'string') {
    const { stat } = await import('node:fs/promises');
    return { chunks: fileChunks(source, chunkBytes), totalBytes: (await stat(source)).size };
  }
  if (source instanceof Uint8Array) return { chunks: bufferChunks(source, chunkBytes), totalBytes: source.length };
  if (source && (Symbol.asyncIterator in source || Symbol.iterator in source))
    return { chunks: sourceChunks(source), totalBytes: undefined };
  throw new TypeError('source must be a file path, a Uint8Array, a Readable or an iterable of chunks');
}

function positiveOption(value: number | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1) throw new RangeError(`${name} must be a positive integer`);
  return value;
}

function threadsOption(value: number | undefined): number {
  if (value === undefined) return 1;
  if (typeof value !== 'number') throw new TypeError('threads must be a number');
  if (!Number.isInteger(value) || value < 1 || value > PGN_MAX_THREADS)
    throw new RangeError(`threads must be an integer from 1 to ${PGN_MAX_THREADS}`);
  return value;
}

/**
 * The games of a file path, bytes, a Node Readable or any (async) iterable
 * of chunks, in order, in memory bounded by the largest game whatever the
 * source's size. Reading and validation run off the event loop, on
 * `threads` native threads.
 * @throws {AbortError} when `signal` aborts.
 */
export async function* readPgn(source: PgnSource, options: ReadPgnOptions = {}): AsyncGenerator<Game> {
  const cursor = new Cursor(modeCode(options), threadsOption(options.threads));
  const chunkBytes = positiveOption(options.chunkBytes, 'chunkBytes', 1 << 20);
  const maxGameBytes = positiveOption(options.maxGameBytes, 'maxGameBytes', 64 << 20);
  const { signal, onProgress } = options;
  signal?.throwIfAborted?.();
  const { chunks, totalBytes } = await chunksOf(source, chunkBytes);
  let pending: Uint8Array = new Uint8Array(0);
  let need = 0; // bytes pending must reach before the next read: doubles while no game completes
  let bytes = 0;
  let games = 0;
  const step = async (final: boolean): Promise<Game[]> => {
    if (signal?.aborted) throw new AbortError();
    cursor.prepare(final);
    const result = gamesOf(await readAsync(pending, cursor.state), cursor.recordBytes);
    const consumed = cursor.consumed;
    need = consumed === 0 && !final ? pending.length * 2 : 0;
    pending = pending.subarray(consumed);
    games += result.length;
    onProgress?.({ bytes: bytes - pending.length, totalBytes, games });
    return result;
  };
  const input = chunks[Symbol.asyncIterator]();
  let ended = false;
  // Appends chunks until a read is due; false when nothing is left to read.
  const fill = async (): Promise<boolean> => {
    while (!ended && pending.length < maxGameBytes) {
      const next = await input.next();
      if (next.done) ended = true;
      else {
        bytes += next.value.length;
        pending = pending.length ? Buffer.concat([pending, next.value]) : next.value;
        if (pending.length >= need) return true;
      }
    }
    return pending.length > 0;
  };
  const due = () => step(ended || pending.length >= maxGameBytes);
  let final = false;
  // The next native read runs while the caller takes the games of this one.
  let ready = (await fill()) ? due() : undefined;
  try {
    while (ready) {
      const batch = await ready;
      if (signal?.aborted) throw new AbortError();
      final = ended;
      ready = !final && (await fill()) ? due() : undefined;
      yield* batch;
    }
  } finally {
    ready?.catch(() => {}); // a read still running when the caller stops: its outcome is not wanted
  }
  if (!final) onProgress?.({ bytes, totalBytes, games });
}

export { Game };
