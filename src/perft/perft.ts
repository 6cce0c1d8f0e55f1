// perftAsync: perft on the engine's own native threads, off the JS thread,
// with an optional shared hash table, AbortSignal and progress callbacks.
import * as os from 'node:os';

import { allocBytes } from '../core/bytes';
import { perftCheckpointed } from './checkpoint';
import { checkDepth } from '../core/checks';
import { AbortError, PerftVerifyError, describe, perftAborted } from '../core/errors';
import { fenArgument, parseFen } from '../core/fen';
import { autoHashMb, checkTableFits } from './memory';
import { backend, LIMITS, publicError, SLOT_LENGTHS, SLOTS, type PerftHandle } from '../core/boundary';

const MIB = 1024 * 1024;
/** Most perftAsync threads. */
export const PERFT_MAX_THREADS: number = LIMITS.maxThreads;
const PROGRESS = SLOTS.perftProgress;
const RESULT = SLOTS.perftResult;
const MAX_THREADS = PERFT_MAX_THREADS;
/** Largest hashMb accepted. What the machine can allocate is checked when the run starts. */
const MAX_HASH_MB = LIMITS.maxHashBytes / MIB;
/** How often onProgress is called while a run lasts. */
const PROGRESS_INTERVAL_MS = 100;

/** Progress of a {@link perftAsync} run, reported about ten times a second. */
export interface PerftProgress {
  /** Leaves counted so far (never decreasing; the total once done). */
  nodes: bigint;
  /** Root moves whose subtrees are fully counted. */
  rootMovesDone: number;
  /** Legal moves at the root (0 at depth 0). */
  rootMovesTotal: number;
  /** Milliseconds since the run started. */
  elapsedMs: number;
  /** With a checkpoint: work units counted, those recorded by earlier runs included. */
  unitsDone?: number;
  /** With a checkpoint: the work units the tree is split into. */
  unitsTotal?: number;
}

/** Options of {@link perftAsync}. */
export interface PerftAsyncOptions {
  /** Threads to count with (1-256): native threads on the addon, workers (worker_threads or Web Workers) on the wasm backend. Default: `os.availableParallelism()` (`navigator.hardwareConcurrency` in browsers). */
  threads?: number;
  /**
   * Size of the transposition table in MiB (rounded down to a power of two); 0 runs without one.
   * More than the memory available now (Linux: MemAvailable, or the cgroup limit if lower;
   * elsewhere `os.freemem()`) is a RangeError before any work. `'auto'`: the largest power of two
   * at most 3/4 of the available memory (the result's `hash` says what it picked and why).
   * Default: by depth, none below 5, 4 MiB at 5, 16 at 6, 64 at 7, 256 at 8 and 1024 from 9, at
   * most a quarter of the machine's memory and 3/4 of the available memory.
   */
  hashMb?: number | 'auto';
  /**
   * Count twice, the second time with the table's other key set, and reject with an
   * {@link PerftVerifyError} (code `ERR_PERFT_VERIFY`) naming both counts if they differ.
   */
  verify?: boolean;
  /** Also return the count below each root move. */
  divide?: boolean;
  /** Parse the FEN as Chess960 (X-FEN / Shredder-FEN castling; UCI castling is king-takes-rook). */
  chess960?: boolean;
  /** Aborting it stops the run within milliseconds; the promise rejects with an {@link AbortError}. */
  signal?: AbortSignal;
  /** Called about every 100 ms while the run lasts, and once at the end. */
  onProgress?: (progress: PerftProgress) => void;
  /**
   * A journal file that makes the run resumable: the tree is split into work units (the unique
   * positions 1 to 3 plies below the root), each unit's count is recorded in the file as soon as
   * it is final, and a later run of the same count with the same file counts only the units not
   * yet recorded. An absent file starts a new run. A file from another position, depth, Chess960
   * flag or engine key set, or one corrupted before its last record, rejects with a
   * {@link JournalError}.
   */
  checkpoint?: string;
}

/** What {@link perftAsync} resolves to. */
export interface PerftAsyncResult {
  /** Leaf count, exact at any depth. */
  nodes: bigint;
  /** Wall-clock seconds of the run. */
  seconds: number;
  /** Leaves per second. */
  nps: number;
  /** With `divide: true`: the count below each root move, by UCI move. */
  divide?: Record<string, bigint>;
  /** The table asked for, in MiB (0: none), and with `hashMb: 'auto'` why that size. */
  hash: { mb: number; reason?: string };
  /** With `verify: true`: both counts agreed (`seconds` and `nps` then cover both runs). */
  verified?: boolean;
  /** With a checkpoint: how the run was split, and how much of it earlier runs had recorded. */
  checkpoint?: { ply: number; units: number; unitsResumed: number };
}

/**
 * The identifier of the engine key set that hashed counts depend on. Checkpoint journals, unit
 * files and part files record it, and a file recorded with another key set is refused.
 */
export function perftKeySetId(): string {
  return backend.perftKeySet;
}

/** The default table size for a depth, in MiB. */
function defaultHashMb(depth: number): number {
  // Measured (2 threads): a table pays from depth 5 (kiwipete D5 2x faster with 4 MiB).
  const byDepth = depth < 5 ? 0 : depth === 5 ? 4 : depth === 6 ? 16 : depth === 7 ? 64 : depth === 8 ? 256 : 1024;
  const quarterOfMemory = Math.floor(os.totalmem() / 4 / MIB);
  return byDepth === 0 ? 0 : Math.min(byDepth, quarterOfMemory, autoHashMb(LIMITS.maxHashBytes).mb);
}

/** The table: an explicit size (checked against the memory available), 'auto', or the default. */
function hashOption(depth: number, hashMb: unknown): { mb: number; reason?: string } {
  if (hashMb === 'auto') return autoHashMb(LIMITS.maxHashBytes);
  if (hashMb === undefined) return { mb: defaultHashMb(depth) };
  if (typeof hashMb !== 'number') throw new TypeError(`options.hashMb must be a number or 'auto', got ${describe(hashMb)}`);
  if (!(hashMb >= 0 && hashMb <= MAX_HASH_MB)) {
    throw new RangeError(`options.hashMb must be from 0 to ${MAX_HASH_MB} or 'auto', got ${hashMb}`);
  }
  checkTableFits('options.hashMb', hashMb);
  return { mb: hashMb };
}

interface CheckedOptions {
  threads: number;
  hash: { mb: number; reason?: string };
  /** hash.mb in bytes, as the native job takes it. */
  hashBytes: number;
  verify: boolean;
  divide: boolean;
  chess960: boolean;
  signal: AbortSignal | undefined;
  onProgress: ((progress: PerftProgress) => void) | undefined;
  checkpoint: string | undefined;
}

export function checkOptions(depth: number, options: unknown): CheckedOptions {
  if (options !== undefined && (typeof options !== 'object' || options === null)) {
    throw new TypeError(`options must be an object, got ${describe(options)}`);
  }
  const o = (options ?? {}) as Record<string, unknown>;
  const { threads, hashMb, divide, chess960, verify, signal, onProgress, checkpoint } = o;
  if (threads !== undefined) {
    if (typeof threads !== 'number') throw new TypeError(`options.threads must be a number, got ${describe(threads)}`);
    if (!Number.isInteger(threads) || threads < 1 || threads > MAX_THREADS) {
      throw new RangeError(`options.threads must be an integer from 1 to ${MAX_THREADS}, got ${threads}`);
    }
  }
  for (const [name, value] of [
    ['divide', divide],
    ['chess960', chess960],
    ['verify', verify],
  ] as const) {
    if (value !== undefined && typeof value !== 'boolean') {
      throw new TypeError(`options.${name} must be a boolean, got ${describe(value)}`);
    }
  }
  if (signal !== undefined && !(signal instanceof AbortSignal)) {
    throw new TypeError(`options.signal must be an AbortSignal, got ${describe(signal)}`);
  }
  if (onProgress !== undefined && typeof onProgress !== 'function') {
    throw new TypeError(`options.onProgress must be a function, got ${describe(onProgress)}`);
  }
  if (checkpoint !== undefined && (typeof checkpoint !== 'string' || checkpoint === '')) {
    throw new TypeError(`options.checkpoint must be a file path, got ${describe(checkpoint)}`);
  }
  if (checkpoint !== undefined && verify === true) {
    throw new TypeError('options.verify and options.checkpoint cannot be combined: verify a checkpointed count by a second run');
  }
  const threadCount = (threads as number | undefined) ?? Math.min(os.availableParallelism(), MAX_THREADS);
  const hash = hashOption(depth, hashMb);
  return {
    threads: threadCount,
    hash,
    hashBytes: Math.floor(hash.mb * MIB),
    verify: verify === true,
    divide: divide === true,
    chess960: chess960 === true,
    signal: signal as AbortSignal | undefined,
    onProgress: onProgress as ((progress: PerftProgress) => void) | undefined,
    checkpoint: checkpoint as string | undefined,
  };
}

async function checkpointed(root: Uint8Array, depth: number, checked: CheckedOptions, file: string): Promise<PerftAsyncResult> {
  const r = await perftCheckpointed({ file, root, depth, keySet: perftKeySetId(), ...checked });
  const out: PerftAsyncResult = {
    nodes: r.nodes,
    seconds: r.seconds,
    nps: r.seconds > 0 ? Number(r.nodesCounted) / r.seconds : 0,
    hash: checked.hash,
    checkpoint: { ply: r.ply, units: r.units, unitsResumed: r.unitsResumed },
  };
  if (checked.divide) out.divide = r.divide;
  return out;
}

/**
 * Counts the leaves of the move tree below `fen` to `depth` plies, on native threads: the event
 * loop keeps running meanwhile. Counts are exact `bigint`s at any depth.
 *
 * The hash table is shared by the threads without locks; an entry is used only when it matches
 * two independent 64-bit Zobrist keys of the position (all 64 bits of the Polyglot key and 32 of
 * a second key from the engine's own generator, each mixed with the depth), so races and index
 * collisions are misses, never wrong counts. What remains is a match of all 96 checked bits with
 * another position's: at most about 3 * 2^-96 per probe, below 4e-14 even for 10^15 probes.
 * `verify: true` counts again with another key set; `hashMb: 0` rules collisions out.
 *
 * Rejects with a `FenError` for a bad FEN, `RangeError` for a bad depth, `TypeError` /
 * `RangeError` for bad options or a table larger than the memory available (all before any work
 * starts), `RangeError` when the hash table cannot be allocated, {@link EngineError} when no
 * thread can start, {@link PerftVerifyError} when a verifying run's counts differ, and {@link AbortError} when
 * `options.signal` aborts. With `options.checkpoint`, also a {@link JournalError} for a
 * journal of another run, or a corrupted one, and what reading or writing the file throws.
 *
 * ```ts
 * const { nodes, nps } = await perftAsync(START_FEN, 7, { hashMb: 64 });
 * ```
 */
export async function perftAsync(fen: string, depth: number, options?: PerftAsyncOptions): Promise<PerftAsyncResult> {
  const text = fenArgument(fen);
  checkDepth(depth);
  const checked = checkOptions(depth, options);
  const bytes = allocBytes();
  parseFen(bytes, text, checked.chess960);
  if (checked.signal?.aborted) throw perftAborted(checked.signal);
  if (checked.checkpoint !== undefined) return checkpointed(bytes, depth, checked, checked.checkpoint);
  const first = await countOnce(bytes, depth, checked, 0n);
  if (!checked.verify) return first;
  const second = await countOnce(bytes, depth, checked, backend.perftVerifyKeySeed);
  const differs = Object.entries(first.divide ?? {}).some(([move, count]) => second.divide?.[move] !== count);
  if (first.nodes !== second.nodes || differs) {
    throw new PerftVerifyError(
      [first.nodes, second.nodes],
      `perft verification failed: ${first.nodes} with key set ${backend.perftKeySet}, ` +
        `${second.nodes} with key set ${backend.perftVerifyKeySet}${differs ? ' (the divides differ)' : ''}`,
    );
  }
  const seconds = first.seconds + second.seconds;
  return { ...first, seconds, nps: seconds > 0 ? (2 * Number(first.nodes)) / seconds : 0, verified: true };
}

/** One run on native threads, its table keyed with the key set of keySeed (0n: the default). */
function countOnce(bytes: Uint8Array, depth: number, checked: CheckedOptions, keySeed: bigint): Promise<PerftAsyncResult> {
  const { signal, onProgress } = checked;
  if (signal?.aborted) return Promise.reject(perftAborted(signal));
  return new Promise<PerftAsyncResult>((resolve, reject) => {
    let timer: NodeJS.Timeout | undefined;
    let callbackError: { error: unknown } | undefined;
    const onAbort = (): void => backend.perftCancel(job);
    const report = (): void => {
      if (!onProgress || callbackError) return;
      const progress = new Float64Array(SLOT_LENGTHS.perftProgress);
      const nodes = backend.perftProgress(job, progress);
      const rootMovesDone = progress[PROGRESS.rootMovesDone] as number;
      const rootMovesTotal = progress[PROGRESS.rootMovesTotal] as number;
      const elapsedMs = progress[PROGRESS.elapsedMs] as number;
      try {
        onProgress({ nodes, rootMovesDone, rootMovesTotal, elapsedMs });
      } catch (error) {
        // A throwing callback ends the run; the promise rejects with its error.
        callbackError = { error };
        backend.perftCancel(job);
      }
    };
    const finished = (): void => {
      if (timer) clearInterval(timer);
      signal?.removeEventListener('abort', onAbort);
      const moves = new Uint16Array(backend.maxMoves);
      const counts = new BigUint64Array(backend.maxMoves);
      const info = new Float64Array(SLOT_LENGTHS.perftResult);
      const nodes = backend.perftResult(job, moves, counts, info);
      if (nodes !== -1) report();
      backend.perftFree(job); // joins the (already finished) threads; the table is already freed
      if (callbackError) return reject(callbackError.error);
      if (nodes === -1) return reject(signal ? perftAborted(signal) : new AbortError('perft was cancelled'));
      const seconds = info[RESULT.seconds] as number;
      const out: PerftAsyncResult = { nodes, seconds, nps: seconds > 0 ? Number(nodes) / seconds : 0, hash: checked.hash };
      if (checked.divide) {
        const divide: Record<string, bigint> = {};
        for (let i = 0; i < (info[RESULT.rootMoves] as number); i++) {
          divide[backend.moveToUci(bytes, moves[i] as number)] = counts[i] as bigint;
        }
        out.divide = divide;
      }
      resolve(out);
    };
    let job: PerftHandle;
    try {
      job = backend.perftStart(bytes, depth, checked.threads, checked.hashBytes, finished, keySeed);
    } catch (e) {
      reject(publicError(e));
      return;
    }
    signal?.addEventListener('abort', onAbort, { once: true });
    if (onProgress) timer = setInterval(report, PROGRESS_INTERVAL_MS);
  });
}
