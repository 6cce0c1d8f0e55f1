// Perft jobs of the wasm backend: perftStart / perftUnitsStart and the calls
// that read and stop them, as csrc/binding/perft.cc has them, run on
// workers (worker_threads in Node, Web Workers in browsers: ./transport),
// each with its own single-threaded engine instance (no SharedArrayBuffer).
// The root is split as the units are: a perftStart job's units are the
// root's children (generation order), so progress counts root moves as the
// addon does. Units go out in batches, each one cn_perft_job
// over its units with its own table: a few batches a thread balance the
// load and keep progress moving; a shallow job goes out in one batch a
// thread, as a table and a message a unit would cost more than the count.
// A cancel terminates the job's busy workers at once, which also returns
// their memory; idle workers are kept (unreferenced) for the next job when
// their tables were small.
import type { BoundaryTables, PerftHandle } from '../boundary';
import { arrayArg, arrayArgOrThrow, integerArg, rangeError, typeError } from './args';
import type { Answer, Task } from './count-task';
import { wasm, type CompiledModule, type Engine } from './instance';
import { workers, type PerftWorker } from './transport';

/** Workers whose last table was at most this large go back to the pool. */
const POOL_TABLE_BYTES = 16 << 20;
/** Batches a thread: for a perftStart job (root moves), and for a units job. */
const ROOT_TASKS_PER_THREAD = 4;
const UNIT_TASKS_PER_THREAD = 16;
/** Units this shallow or shallower go out in one batch a thread. */
const SHALLOW_DEPTH = 3;
const MAX_UINT64 = (1n << 64n) - 1n;

interface Job {
  state: 'running' | 'done' | 'cancelled';
  freed: boolean;
  units: Uint8Array;
  unitCount: number;
  depth: number;
  hashBytes: number;
  keySeed: bigint;
  /** Root moves (generation order) of a perftStart job, else null (a units job). */
  rootMoves: Uint16Array | null;
  unitCounts: BigUint64Array;
  unitDone: Uint8Array;
  unitsDone: number;
  nodes: bigint;
  startMs: number;
  elapsedMs: number;
  next: number;
  batch: number;
  busy: Set<PerftWorker>;
  done: () => void;
  /** The result without workers (depth 0, or no units to count). */
  immediate: bigint | null;
}

/** Units a batch: about tasksPerThread batches a thread, one a thread for shallow units. */
function batchSize(units: number, depth: number, tasksPerThread: number, threads: number): number {
  return Math.max(1, Math.ceil(units / (threads * (depth <= SHALLOW_DEPTH ? 1 : tasksPerThread))));
}

/** A job's checked options (the binding's JobOptionsArgs). */
interface JobArgs {
  depth: number;
  threads: number;
  hashBytes: number;
  done: () => void;
  keySeed: bigint;
}

/** The job calls over an engine (for validation and the root split) and its compiled module (for the workers). */
export class WasmJobs {
  readonly #engine: Engine;
  readonly #module: CompiledModule;
  readonly #tables: BoundaryTables;
  readonly #status: (status: number, message: string) => Error;
  readonly #jobs = new WeakMap<object, Job>();
  readonly #idle: PerftWorker[] = [];

  constructor(engine: Engine, module: CompiledModule, tables: BoundaryTables, status: (status: number, message: string) => Error) {
    this.#engine = engine;
    this.#tables = tables;
    this.#module = module;
    this.#status = status;
  }

  #job(handle: unknown): Job {
    return (typeof handle === 'object' && handle !== null && this.#jobs.get(handle)) || typeError('expected a handle from perftStart');
  }

  /** depth, threads, hashBytes, done, keySeed (the binding's JobOptionsArgs). */
  #options(depth: unknown, threads: unknown, hashBytes: unknown, done: unknown, keySeed: unknown): JobArgs {
    const L = this.#engine.layout;
    const d = integerArg(depth, 'depth', 0, L.MAX_DEPTH);
    const t = integerArg(threads, 'threads', 1, L.JOB_MAX_THREADS);
    const h = integerArg(hashBytes, 'hashBytes', 0, L.MAX_HASH_BYTES);
    if (typeof done !== 'function') typeError('done must be a function');
    if (typeof keySeed !== 'bigint' || keySeed < 0n || keySeed > MAX_UINT64) typeError('keySeed must be a bigint from 0 to 2^64 - 1');
    return { depth: d, threads: t, hashBytes: h, done: done as () => void, keySeed };
  }

  /** Throws CN_ERR_NO_MEMORY, as the addon does for a table it cannot allocate, when no worker could hold it. */
  #checkTable(hashBytes: number): void {
    const L = this.#engine.layout;
    if (hashBytes === 0) return;
    const table = 2 ** Math.floor(Math.log2(hashBytes));
    try {
      new wasm.Memory({ initial: Math.ceil(table / 65536) + 256 });
    } catch {
      throw this.#status(L.Status.noMemory, 'cannot allocate the perft hash table');
    }
  }

  /** Validates units with the engine's own checks: a units job of depth 0 on this thread. */
  #checkUnits(units: Uint8Array, n: number): void {
    const L = this.#engine.layout;
    const e = this.#engine;
    const at = e.block(units.length);
    e.u8.set(units, at);
    const options = e.scratch + L.Slot.options;
    e.u8.fill(0, options, options + L.JobOptions.bytes);
    e.view.setInt32(options + L.JobOptions.threads, 1, true);
    const jobAt = e.scratch + L.Slot.int;
    const status = e.call('cn_perft_job_start_units', at, n, options, jobAt);
    if (status === L.Status.ok) {
      e.call('cn_perft_job_free', e.view.getUint32(jobAt, true));
      return;
    }
    throw this.#status(
      status,
      status === L.Status.noMemory
        ? 'cannot allocate the perft hash table'
        : status === L.Status.badPosition
          ? 'the units are not valid positions of one game'
          : 'cannot start the perft job',
    );
  }

  /** The root's children (generation order) as units, and the root moves. */
  #children(pos: Uint8Array): { units: Uint8Array; moves: Uint16Array } {
    const L = this.#engine.layout;
    const e = this.#engine;
    const root = e.scratch + L.Slot.pos;
    const child = e.scratch + L.Slot.out;
    const movesAt = e.scratch + L.Slot.moves;
    e.u8.set(pos, root);
    if (e.call('cn_position_validate', root) !== L.Status.ok) {
      throw this.#status(L.Status.badPosition, 'position bytes are not a consistent position');
    }
    const n = e.call('cn_legal_moves', root, movesAt);
    const moves = new Uint16Array(e.u8.buffer, movesAt, n).slice();
    const units = new Uint8Array(n * L.POSITION_BYTES);
    for (let i = 0; i < n; i++) {
      e.u8.copyWithin(child, root, root + L.POSITION_BYTES);
      e.call('cn_make', child, moves[i] as number, e.scratch + L.Slot.undo);
      units.set(e.u8.subarray(child, child + L.POSITION_BYTES), i * L.POSITION_BYTES);
    }
    return { units, moves };
  }

  #start(job: Job, threads: number): PerftHandle {
    const handle = Object.freeze({}) as PerftHandle;
    this.#jobs.set(handle, job);
    if (job.immediate !== null || job.unitCount === 0) {
      job.nodes = job.immediate ?? 0n;
      setImmediate(() => this.#finish(job));
    } else {
      const workers = Math.min(threads, Math.ceil(job.unitCount / job.batch));
      for (let i = 0; i < workers; i++) this.#feed(job, this.#worker(job));
    }
    return handle;
  }

  #worker(job: Job): PerftWorker {
    const worker = this.#idle.pop() ?? workers().spawn(this.#module, this.#engine.env);
    worker.keepAlive(true);
    job.busy.add(worker);
    worker.listen(null, (message) => this.#failed(job, worker, message));
    return worker;
  }

  #failed(job: Job, worker: PerftWorker, message: string): void {
    workers().warn(`chess-native: a wasm perft worker failed (${message}); its job ends as cancelled`);
    this.#fail(job, worker);
  }

  /** Sends the worker the job's next batch, or releases it when there is none. */
  #feed(job: Job, worker: PerftWorker): void {
    const L = this.#engine.layout;
    if (job.state !== 'running') return;
    const first = job.next;
    if (first >= job.unitCount) {
      this.#release(job, worker);
      if (job.busy.size === 0) this.#finish(job);
      return;
    }
    const count = Math.min(job.batch, job.unitCount - first);
    job.next = first + count;
    const task: Task = {
      units: job.units.slice(first * L.POSITION_BYTES, (first + count) * L.POSITION_BYTES),
      depth: job.depth,
      hashBytes: job.hashBytes,
      keySeed: job.keySeed,
    };
    const onAnswer = (answer: Answer): void => {
      if (job.state !== 'running') return;
      if (!('counts' in answer)) return this.#fail(job, worker);
      answer.counts.forEach((c, i) => {
        job.unitCounts[first + i] = c;
        job.unitDone[first + i] = 1;
        job.nodes += c;
      });
      job.unitsDone += count;
      this.#feed(job, worker);
    };
    worker.listen(onAnswer, (message) => this.#failed(job, worker, message));
    worker.post(task);
  }

  #release(job: Job, worker: PerftWorker): void {
    job.busy.delete(worker);
    if (job.hashBytes <= POOL_TABLE_BYTES) {
      worker.keepAlive(false);
      worker.listen(null, () => this.#drop(worker));
      this.#idle.push(worker);
    } else {
      void worker.terminate();
    }
  }

  #drop(worker: PerftWorker): void {
    const i = this.#idle.indexOf(worker);
    if (i >= 0) this.#idle.splice(i, 1);
  }

  /** A worker that failed (trap, no memory) ends the job as a cancel does: no counts. */
  #fail(job: Job, worker: PerftWorker): void {
    this.#cancel(job);
    void worker.terminate();
  }

  #cancel(job: Job): void {
    if (job.state !== 'running') return;
    job.state = 'cancelled';
    job.elapsedMs = performance.now() - job.startMs;
    // `done` once the workers have exited and their memory is returned, as the addon calls it once its threads are joined.
    const exits = [...job.busy].map((worker) => worker.terminate());
    job.busy.clear();
    void Promise.allSettled(exits).then(() => setImmediate(job.done));
  }

  #finish(job: Job): void {
    if (job.state !== 'running') return;
    job.state = 'done';
    job.elapsedMs = performance.now() - job.startMs;
    job.done();
  }

  #newJob(units: Uint8Array, n: number, rootMoves: Uint16Array | null, options: JobArgs, threads: number): Job {
    return {
      state: 'running',
      freed: false,
      units,
      unitCount: n,
      depth: rootMoves ? Math.max(options.depth - 1, 0) : options.depth,
      hashBytes: options.hashBytes,
      keySeed: options.keySeed,
      rootMoves,
      unitCounts: new BigUint64Array(n),
      unitDone: new Uint8Array(n),
      unitsDone: 0,
      nodes: 0n,
      startMs: performance.now(),
      elapsedMs: 0,
      next: 0,
      batch: batchSize(
        n,
        rootMoves ? Math.max(options.depth - 1, 0) : options.depth,
        rootMoves ? ROOT_TASKS_PER_THREAD : UNIT_TASKS_PER_THREAD,
        threads,
      ),
      busy: new Set(),
      done: options.done,
      immediate: null,
    };
  }

  /** The job calls of the Native interface. */
  calls() {
    const L = this.#engine.layout;
    const rootArrays = (moves: unknown, counts: unknown): { moves: Uint16Array; counts: BigUint64Array } => {
      const m = arrayArg(moves, Uint16Array, L.MAX_MOVES);
      const c = arrayArg(counts, BigUint64Array, L.MAX_MOVES);
      if (!m || !c) typeError('root moves need a Uint16Array and a BigUint64Array of at least maxMoves entries');
      return { moves: m, counts: c };
    };
    return {
      perftStart: (pos: unknown, depth: unknown, threads: unknown, hashBytes: unknown, done: unknown, keySeed: unknown): PerftHandle => {
        const bytes =
          ArrayBuffer.isView(pos) && pos.byteLength === L.POSITION_BYTES
            ? new Uint8Array(pos.buffer, pos.byteOffset, L.POSITION_BYTES)
            : null;
        if (!bytes) typeError('position must be an ArrayBufferView of positionBytes bytes');
        const { units, moves } = this.#children(bytes);
        const options = this.#options(depth, threads, hashBytes, done, keySeed);
        this.#checkTable(options.hashBytes);
        const job = this.#newJob(units, options.depth === 0 ? 0 : moves.length, moves, options, options.threads);
        if (options.depth === 0) job.immediate = 1n;
        return this.#start(job, options.threads);
      },
      perftUnitsStart: (
        units: unknown,
        depth: unknown,
        threads: unknown,
        hashBytes: unknown,
        done: unknown,
        keySeed: unknown,
      ): PerftHandle => {
        const data = arrayArgOrThrow(units, Uint8Array, 1, 'units must be a non-empty Uint8Array');
        if (data.length % L.POSITION_BYTES !== 0 || data.length / L.POSITION_BYTES > L.JOB_MAX_UNITS) {
          rangeError('units must be whole positions, at most limits.maxUnits of them');
        }
        const options = this.#options(depth, threads, hashBytes, done, keySeed);
        const n = data.length / L.POSITION_BYTES;
        this.#checkUnits(data, n);
        this.#checkTable(options.hashBytes);
        const job = this.#newJob(data.slice(), n, null, options, options.threads);
        if (options.depth === 0) {
          job.unitCounts.fill(1n);
          job.unitDone.fill(1);
          job.unitsDone = n;
          job.immediate = BigInt(n);
        }
        return this.#start(job, options.threads);
      },
      perftUnitResults: (handle: unknown, first: unknown, counts: unknown, done: unknown): number => {
        const job = this.#job(handle);
        const from = integerArg(first, 'first', 0, L.JOB_MAX_UNITS);
        const c = arrayArgOrThrow(counts, BigUint64Array, 1, 'counts must be a non-empty BigUint64Array');
        const d = arrayArgOrThrow(done, Uint8Array, 1, 'done must be a non-empty Uint8Array');
        if (job.freed || job.rootMoves) return 0;
        const n = Math.max(0, Math.min(c.length, d.length, L.JOB_MAX_UNITS, job.unitCount - from));
        for (let i = 0; i < n; i++) {
          const unitDone = job.unitDone[from + i] as number;
          d[i] = unitDone;
          c[i] = unitDone ? (job.unitCounts[from + i] as bigint) : 0n;
        }
        return n;
      },
      perftProgress: (handle: unknown, out: unknown): bigint => {
        const job = this.#job(handle);
        const slot = this.#tables.slots.perftProgress;
        const length = this.#tables.slotLengths.perftProgress;
        const progress = arrayArgOrThrow(out, Float64Array, length, `progress needs a Float64Array of at least ${length} entries`);
        if (job.freed) {
          progress.fill(0, 0, length);
          return 0n;
        }
        progress[slot.rootMovesDone] = job.unitsDone;
        progress[slot.rootMovesTotal] = job.unitCount;
        progress[slot.elapsedMs] = job.state === 'running' ? performance.now() - job.startMs : job.elapsedMs;
        return job.nodes;
      },
      perftCancel: (handle: unknown): void => {
        const job = this.#job(handle);
        if (!job.freed) this.#cancel(job);
      },
      perftResult: (handle: unknown, moves: unknown, counts: unknown, out: unknown): bigint | -1 => {
        const job = this.#job(handle);
        const root = rootArrays(moves, counts);
        const length = this.#tables.slotLengths.perftResult;
        const info = arrayArgOrThrow(out, Float64Array, length, `result needs a Float64Array of at least ${length} entries`);
        if (job.freed || job.state !== 'done') return -1;
        const n = job.rootMoves ? job.unitCount : 0;
        if (job.rootMoves) {
          root.moves.set(job.rootMoves.subarray(0, n));
          root.counts.set(job.unitCounts.subarray(0, n));
        }
        info[this.#tables.slots.perftResult.seconds] = job.elapsedMs / 1000;
        info[this.#tables.slots.perftResult.rootMoves] = n;
        return job.nodes;
      },
      perftFree: (handle: unknown): void => {
        const job = this.#job(handle);
        if (job.freed) return;
        this.#cancel(job);
        job.freed = true;
      },
    };
  }
}
