// Running one shard of a units file: shard I of N holds the I-th of N
// contiguous runs of units, units floor(I * n / N) to floor((I + 1) * n / N) - 1.
// Neighbouring units share their first moves, and their subtrees meet the
// same positions further down, so keeping them in one shard keeps those
// meetings in one table: perft(8) from the start split at ply 3, four shards
// of 2 threads and 256 MiB took 29.7 s of CPU in all this way, 50.9 s with
// the units dealt round-robin, and a single run 15.6 s. The result is a part
// (parts.ts); with a checkpoint journal the shard resumes after a crash like
// a checkpointed perftAsync.
import { describe } from '../core/errors';
import { Journal } from './journal';
import { type PartFile, partRecords } from './parts';
import { checkOptions, perftKeySetId } from './perft';
import { countUnits } from './unit-runner';
import { type UnitSet } from './units';

/** Shard `index` of `count` (0 <= index < count). */
export interface Shard {
  index: number;
  count: number;
}

/** Progress of {@link runUnits}, about ten times a second and at the end. */
export interface RunUnitsProgress {
  /** Units of the shard counted (those resumed from the checkpoint included). */
  unitsDone: number;
  unitsTotal: number;
  /** Leaves counted below the shard's units so far, each unit once (multiplicities not applied). */
  nodes: bigint;
  elapsedMs: number;
}

/** Options of {@link runUnits}. */
export interface RunUnitsOptions {
  /** The shard to count. Default: all units, as shard 0 of 1. */
  shard?: Shard;
  /** As for perftAsync. */
  threads?: number;
  /** As for perftAsync (MiB or 'auto'); the default is by the manifest's depth. */
  hashMb?: number | 'auto';
  /** A journal file, as perftAsync's `checkpoint`: a rerun resumes the shard. */
  checkpoint?: string;
  signal?: AbortSignal;
  onProgress?: (progress: RunUnitsProgress) => void;
}

/** The shard argument, checked: a TypeError or RangeError if it is not one. */
function checkShard(shard: unknown): Shard {
  if (shard === undefined) return { index: 0, count: 1 };
  if (typeof shard !== 'object' || shard === null) throw new TypeError(`shard must be { index, count }, got ${describe(shard)}`);
  const { index, count } = shard as Record<string, unknown>;
  if (typeof count !== 'number' || !Number.isInteger(count) || count < 1) {
    throw new RangeError(`shard.count must be a positive integer, got ${describe(count)}`);
  }
  if (typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index >= count) {
    throw new RangeError(`shard.index must be an integer from 0 to ${count - 1}, got ${describe(index)}`);
  }
  return { index, count };
}

/** The units of a shard, as indices into the set's units. */
function shardUnits(set: UnitSet, shard: Shard): number[] {
  const n = set.units.length;
  const first = Math.floor((shard.index * n) / shard.count);
  const end = Math.floor(((shard.index + 1) * n) / shard.count);
  return Array.from({ length: end - first }, (_, i) => first + i);
}

/**
 * Counts one shard of a units set (from `splitPerft` or `readUnitsFile`) on native threads:
 * each unit to the manifest's remaining depth, one table for all of them. Resolves to the part
 * (write it with `writePartFile`; `mergeUnits` sums the parts). Rejects as perftAsync does, and
 * with a JournalError for a checkpoint journal of another shard, split or key set.
 */
export async function runUnits(set: UnitSet, options: RunUnitsOptions = {}): Promise<PartFile> {
  const shard = checkShard(options.shard);
  const { threads, hashBytes, signal, onProgress, checkpoint } = checkOptions(set.manifest.depth, {
    threads: options.threads,
    hashMb: options.hashMb,
    signal: options.signal,
    onProgress: options.onProgress,
    checkpoint: options.checkpoint,
  });
  const start = performance.now();
  const indices = shardUnits(set, shard);
  const counted = new Map<number, bigint>(); // by position in `indices`
  const header = {
    kind: 'units',
    unitsChecksum: set.manifest.checksum,
    shard: `${shard.index}/${shard.count}`,
    units: indices.length,
    remainingDepth: set.manifest.remainingDepth,
    keySet: perftKeySetId(),
  };
  const opened = checkpoint === undefined ? undefined : Journal.open(checkpoint, header, indices.length);
  for (const [local, count] of opened?.counted ?? []) counted.set(local, count);
  let nodesDone = [...counted.values()].reduce((sum, n) => sum + n, 0n);
  let nodesCountedHere = 0n;
  const report = (nodes: bigint): void =>
    (onProgress as ((p: RunUnitsProgress) => void) | undefined)?.({
      unitsDone: counted.size,
      unitsTotal: indices.length,
      nodes,
      elapsedMs: performance.now() - start,
    });
  const pending = indices.map((_, local) => local).filter((local) => !counted.has(local));
  try {
    await countUnits({
      fens: pending.map((local) => set.units[indices[local] as number]?.fen as string),
      chess960: set.manifest.chess960,
      depth: set.manifest.remainingDepth,
      threads,
      hashBytes,
      signal,
      onCounted(records) {
        const byShard = records.map(([i, count]): [number, bigint] => [pending[i] as number, count]);
        opened?.journal.append(byShard);
        for (const [local, count] of byShard) {
          counted.set(local, count);
          nodesCountedHere += count;
        }
      },
      onTick: (nodes) => report(nodesDone + nodes),
    });
  } finally {
    opened?.journal.close();
  }
  nodesDone += nodesCountedHere;
  report(nodesDone);
  const results = indices.map((unit, local): [number, bigint] => [unit, counted.get(local) as bigint]);
  return partRecords(set.manifest, shard, results, (performance.now() - start) / 1000);
}
