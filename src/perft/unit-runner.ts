// Counting a list of unit positions on the engine's threads (one native job
// per limits.maxUnits units, one table per job), reporting each unit's count
// as soon as it is final: checkpoint journals and shard runs record them
// while the run goes on, so a crash loses only the units in flight.
import { perftAborted } from '../core/errors';
import { parseFen } from '../core/fen';
import { backend, LIMITS, publicError, SLOT_LENGTHS, type PerftHandle } from '../core/boundary';

const BYTES = backend.positionBytes;
/** How often finished units are collected and progress is reported. */
const POLL_INTERVAL_MS = 100;

/** What {@link countUnits} counts, and where it reports. */
export interface UnitCount {
  /** The units' FENs. */
  fens: readonly string[];
  chess960: boolean;
  /** Plies to count below every unit. */
  depth: number;
  threads: number;
  hashBytes: number;
  signal?: AbortSignal | undefined;
  /** Units just fully counted: [index into fens, count]. An exception cancels the run and rejects with it. */
  onCounted: (counted: Array<[number, bigint]>) => void;
  /** About every 100 ms: leaves counted so far (unweighted, finished units included) and units done. */
  onTick?: ((nodes: bigint, unitsDone: number) => void) | undefined;
}

/** The units' positions, parsed into one buffer (a FenError for a bad FEN). */
function unitBytes(fens: readonly string[], chess960: boolean): Uint8Array {
  const bytes = new Uint8Array(fens.length * BYTES);
  fens.forEach((fen, i) => parseFen(bytes.subarray(i * BYTES, (i + 1) * BYTES), fen, chess960));
  return bytes;
}

/** Runs one native job over fens[first, first + count); resolves once all are counted. */
function countBatch(run: UnitCount, first: number, count: number, nodesBefore: bigint): Promise<bigint> {
  const bytes = unitBytes(run.fens.slice(first, first + count), run.chess960);
  const { signal } = run;
  if (signal?.aborted) return Promise.reject(perftAborted(signal));
  return new Promise<bigint>((resolve, reject) => {
    const counts = new BigUint64Array(count);
    const done = new Uint8Array(count);
    const reported = new Uint8Array(count);
    let lowestPending = 0;
    let unitsDone = 0;
    let failure: { error: unknown } | undefined;
    let job: PerftHandle;
    const collect = (): void => {
      if (failure) return;
      const copied =
        lowestPending < count
          ? backend.perftUnitResults(job, lowestPending, counts.subarray(lowestPending), done.subarray(lowestPending))
          : 0;
      const counted: Array<[number, bigint]> = [];
      for (let i = lowestPending; i < lowestPending + copied; i++) {
        if (done[i] && !reported[i]) {
          reported[i] = 1;
          counted.push([first + i, counts[i] as bigint]);
        }
      }
      while (lowestPending < count && reported[lowestPending]) lowestPending++;
      unitsDone += counted.length;
      try {
        if (counted.length) run.onCounted(counted);
        run.onTick?.(nodesBefore + backend.perftProgress(job, new Float64Array(SLOT_LENGTHS.perftProgress)), unitsDone);
      } catch (error) {
        failure = { error };
        backend.perftCancel(job);
      }
    };
    const onAbort = (): void => backend.perftCancel(job);
    // Set once the job has started; `finished` runs later, on a turn of the event loop.
    let timer: NodeJS.Timeout | undefined = undefined;
    const finished = (): void => {
      clearInterval(timer);
      signal?.removeEventListener('abort', onAbort);
      collect(); // after a cancel too: units finished before it are kept
      const complete = backend.perftResult(
        job,
        new Uint16Array(backend.maxMoves),
        new BigUint64Array(backend.maxMoves),
        new Float64Array(SLOT_LENGTHS.perftResult),
      );
      backend.perftFree(job);
      if (failure) return reject(failure.error);
      if (complete === -1) return reject(perftAborted(signal));
      resolve(nodesBefore + complete);
    };
    try {
      job = backend.perftUnitsStart(bytes, run.depth, run.threads, run.hashBytes, finished, 0n);
    } catch (e) {
      reject(publicError(e));
      return;
    }
    signal?.addEventListener('abort', onAbort, { once: true });
    timer = setInterval(collect, POLL_INTERVAL_MS);
  });
}

/**
 * Counts every unit to `depth`, reporting each one's count through onCounted as soon as it is
 * final. Rejects with an AbortError when the signal aborts (units already reported stay
 * reported), with a FenError for a bad unit FEN, or with what onCounted / onTick threw.
 */
export async function countUnits(run: UnitCount): Promise<void> {
  let nodes = 0n;
  for (let first = 0; first < run.fens.length; first += LIMITS.maxUnits) {
    const count = Math.min(LIMITS.maxUnits, run.fens.length - first);
    nodes = await countBatch(run, first, count, nodes);
  }
}
