// parsePgn (text in memory) and readPgn (any source, streamed in constant
// memory): games read and validated by the native reader (pgn.h).
import { open, stat } from 'node:fs/promises';

import { abortedBy } from '../core/errors';
import { backend, PGN, type PgnParts, publicError, SLOTS } from '../core/boundary';
import { Game } from './game';
import { batchesOf, gamesIn, gameTextEnds } from './records';

const C = PGN;
const STATE = SLOTS.pgnState;

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

/**
 * What readPgn reads: a file path, bytes, a `Blob` (a browser `File`), a web `ReadableStream` of
 * bytes, a fetch `Response`, or any (async) iterable of chunks, strings or bytes (a Node Readable).
 */
export type PgnSource =
  string | Uint8Array | Blob | ReadableStream<Uint8Array> | Response | AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>;

function modeCode(options: ParsePgnOptions | undefined): number {
  if (options === undefined) return C.mode.tree;
  if (typeof options !== 'object' || options === null) throw new TypeError('options must be an object');
  const mode = options.mode ?? 'tree';
  if (mode !== 'tree' && mode !== 'mainline' && mode !== 'headers') throw new RangeError("mode must be 'tree', 'mainline' or 'headers'");
  return C.mode[mode];
}

/** The games of a pgnRead result; `shared`: all kept at once (see PgnBatch). */
function gamesOf(parts: PgnParts, shared: boolean): Game[] {
  const games: Game[] = [];
  for (const batch of batchesOf(parts, shared)) for (const records of gamesIn(batch)) games.push(new Game(records));
  return games;
}

/** Reading state across calls: where the next text starts. */
class Cursor {
  readonly state = new Float64Array(C.stateLength);
  constructor(mode: number, threads = 1) {
    this.state[STATE.mode] = mode;
    this.state[STATE.line] = 1;
    this.state[STATE.threads] = threads;
  }
  /** `cut`: the text ends at a size limit, not at its end (the reader reports the game it cuts). */
  prepare(final: boolean, cut = false): void {
    this.state[STATE.textEnd] = final ? (cut ? C.textEnd.cut : C.textEnd.final) : C.textEnd.more;
  }
  get consumed(): number {
    return this.state[STATE.consumed] as number;
  }
}

/** Every game of `text`. */
export function parsePgn(text: string, options?: ParsePgnOptions): Game[] {
  if (typeof text !== 'string') throw new TypeError('text must be a string');
  return gamesOf(readWholeText(text, modeCode(options)), true);
}

/** The records of the whole of `text`, read at once on one thread in reader mode `mode` (PGN.mode). */
export function readWholeText(text: string, mode: number): PgnParts {
  const cursor = new Cursor(mode);
  cursor.prepare(true);
  try {
    if (backend.pgnReadText) return backend.pgnReadText(text, cursor.state, gameTextEnds);
    return backend.pgnRead(Buffer.from(text, 'utf8'), cursor.state);
  } catch (e) {
    throw publicError(e);
  }
}

function readAsync(text: Uint8Array, state: Float64Array): Promise<PgnParts> {
  return new Promise((resolve, reject) =>
    backend.pgnReadAsync(text, state, (err, parts) => (err ? reject(publicError(err)) : resolve(parts))),
  );
}

// Where readPgn's text comes from. next(tail) gives the bytes of `tail` (the
// unread end of the text it gave last) followed by the source's next bytes,
// or null when the source has no more.
interface TextReader {
  readonly totalBytes: number | undefined;
  next(tail: Uint8Array): Promise<Uint8Array | null>;
  close(): Promise<void>;
}

const EMPTY = new Uint8Array(0);

/** One native read of readPgn: its result and the source bytes read up to its end. */
interface Read {
  parts: PgnParts;
  end: number;
}

function joined(tail: Uint8Array, chunk: Uint8Array): Uint8Array {
  return tail.length ? Buffer.concat([tail, chunk]) : chunk;
}

// Room before each chunk read from a file for the tail of the text before
// it (most often part of one game), so that joining the two copies only
// the tail.
const FILE_HEADROOM = 64 << 10;

// One read from the file is always in flight, so the next chunk is there
// as soon as the native reader is done with the text before it. Three
// buffers take turns: the text given last is done with once its tail is
// copied into the next one, and its buffer takes the read after (a fresh
// buffer a chunk costs a page fault a page).
async function fileReader(path: string, chunkBytes: number): Promise<TextReader> {
  const totalBytes = (await stat(path)).size;
  const file = await open(path, 'r');
  let spare: Buffer | undefined;
  const read = async () => {
    const buffer = spare ?? Buffer.allocUnsafe(FILE_HEADROOM + chunkBytes);
    spare = undefined;
    const { bytesRead } = await file.read(buffer, FILE_HEADROOM, chunkBytes, null);
    return { buffer, bytesRead };
  };
  let ahead: ReturnType<typeof read> | undefined = read();
  let given: Buffer | undefined; // the buffer of the text given last
  return {
    totalBytes,
    async next(tail) {
      if (!ahead) return null;
      const { buffer, bytesRead } = await ahead;
      if (!bytesRead) {
        ahead = undefined;
        return null;
      }
      const end = FILE_HEADROOM + bytesRead;
      let text: Uint8Array;
      if (tail.length > FILE_HEADROOM) text = joined(tail, buffer.subarray(FILE_HEADROOM, end));
      else {
        buffer.set(tail, FILE_HEADROOM - tail.length);
        text = buffer.subarray(FILE_HEADROOM - tail.length, end);
      }
      spare = given;
      given = buffer;
      ahead = read();
      return text;
    },
    async close() {
      await ahead?.catch(() => {}); // a read still in flight: its outcome is not wanted
      await file.close();
    },
  };
}

// Views of the caller's bytes: the tail is always the end of the view given last.
function bytesReader(bytes: Uint8Array, chunkBytes: number): TextReader {
  let end = 0;
  return {
    totalBytes: bytes.length,
    next(tail) {
      if (end === bytes.length) return Promise.resolve(null);
      const start = end - tail.length;
      end = Math.min(bytes.length, end + chunkBytes);
      return Promise.resolve(bytes.subarray(start, end));
    },
    close: () => Promise.resolve(),
  };
}

function iterableReader(source: AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>): TextReader {
  const input = (async function* () {
    for await (const chunk of source) yield chunk;
  })();
  return {
    totalBytes: undefined,
    async next(tail) {
      const next = await input.next();
      if (next.done) return null;
      const chunk: unknown = next.value;
      if (typeof chunk === 'string') return joined(tail, Buffer.from(chunk, 'utf8'));
      if (chunk instanceof Uint8Array) return joined(tail, chunk);
      throw new TypeError('PGN chunks must be strings or Uint8Arrays');
    },
    async close() {
      await input.return(undefined);
    },
  };
}

// A web stream read through its reader (not async iteration, which some
// browsers lack); `cancel` on close releases what the source holds.
function webStreamReader(stream: ReadableStream<Uint8Array>, totalBytes: number | undefined): TextReader {
  const reader = stream.getReader();
  let done = false;
  return {
    totalBytes,
    async next(tail) {
      if (done) return null;
      const next = await reader.read();
      if (next.done) {
        done = true;
        return null;
      }
      const chunk: unknown = next.value;
      if (!(chunk instanceof Uint8Array)) throw new TypeError('PGN stream chunks must be Uint8Arrays');
      return joined(tail, chunk);
    },
    async close() {
      if (!done) await reader.cancel().catch(() => {});
      reader.releaseLock();
    },
  };
}

/** The Content-Length of a response, when it gives one. */
function contentLength(response: Response): number | undefined {
  const value = Number(response.headers.get('content-length') ?? NaN);
  return Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}

async function readerOf(source: PgnSource, chunkBytes: number): Promise<TextReader> {
  if (typeof source === 'string') return fileReader(source, chunkBytes);
  if (source instanceof Uint8Array) return bytesReader(source, chunkBytes);
  if (typeof Blob !== 'undefined' && source instanceof Blob) return webStreamReader(source.stream(), source.size);
  if (typeof Response !== 'undefined' && source instanceof Response) {
    if (source.bodyUsed) throw new TypeError('the Response body has already been read');
    return source.body ? webStreamReader(source.body, contentLength(source)) : bytesReader(new Uint8Array(0), chunkBytes);
  }
  if (typeof ReadableStream !== 'undefined' && source instanceof ReadableStream) return webStreamReader(source, undefined);
  if (source && (Symbol.asyncIterator in source || Symbol.iterator in source)) return iterableReader(source);
  throw new TypeError(
    'source must be a file path, a Uint8Array, a Blob, a ReadableStream, a Response, a Readable or an iterable of chunks',
  );
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
 * The games of a file path, bytes, a Blob, a web ReadableStream, a fetch
 * Response, a Node Readable or any (async) iterable of chunks, in order, in memory bounded by the largest game whatever the
 * source's size. Reading and validation run off the event loop, on
 * `threads` native threads.
 * @throws {AbortError} when `signal` aborts.
 */
export async function* readPgn(source: PgnSource, options: ReadPgnOptions = {}): AsyncGenerator<Game> {
  const cursor = new Cursor(modeCode(options), threadsOption(options.threads));
  const chunkBytes = positiveOption(options.chunkBytes, 'chunkBytes', 1 << 20);
  const maxGameBytes = positiveOption(options.maxGameBytes, 'maxGameBytes', 64 << 20);
  const { signal, onProgress } = options;
  if (signal?.aborted) throw abortedBy('readPgn', signal);
  const reader = await readerOf(source, chunkBytes);
  const { totalBytes } = reader;
  let pending: Uint8Array = EMPTY;
  let need = 0; // bytes pending must reach before the next read: doubles while no game completes
  let bytes = 0;
  let games = 0;
  // A native read; its games are built by the caller once the next read is on its way.
  const step = async (final: boolean, cut: boolean): Promise<Read> => {
    if (signal?.aborted) throw abortedBy('readPgn', signal);
    cursor.prepare(final, cut);
    const parts = await readAsync(pending, cursor.state);
    const consumed = cursor.consumed;
    need = consumed === 0 && !final ? pending.length * 2 : 0;
    pending = pending.subarray(consumed);
    return { parts, end: bytes - pending.length };
  };
  let ended = false;
  // Takes text until a read is due; false when nothing is left to read.
  const fill = async (): Promise<boolean> => {
    while (!ended && pending.length < maxGameBytes) {
      const text = await reader.next(pending);
      if (text === null) ended = true;
      else {
        bytes += text.length - pending.length;
        pending = text;
        if (pending.length >= need) return true;
      }
    }
    return pending.length > 0;
  };
  const due = () => step(ended || pending.length >= maxGameBytes, !ended && pending.length >= maxGameBytes);
  let final = false;
  let ready: Promise<Read> | undefined;
  try {
    // The next native read runs while this one's games are built and taken.
    ready = (await fill()) ? due() : undefined;
    while (ready) {
      const read = await ready;
      if (signal?.aborted) throw abortedBy('readPgn', signal);
      final = ended;
      ready = !final && (await fill()) ? due() : undefined;
      const batch = gamesOf(read.parts, false);
      games += batch.length;
      onProgress?.({ bytes: read.end, totalBytes, games });
      yield* batch;
    }
  } finally {
    ready?.catch(() => {}); // a read still running when the caller stops: its outcome is not wanted
    await reader.close();
  }
  if (!final) onProgress?.({ bytes, totalBytes, games });
}
