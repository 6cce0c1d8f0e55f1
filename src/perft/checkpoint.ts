// perftAsync with a checkpoint: the tree is split into work units (the unique
// positions a few plies below the root, see split.ts), each unit's count is
// recorded in a journal (journal.ts) as soon as it is final, and a run of the
// same count with the same journal counts only the units not yet recorded.
// The total is the sum of multiplicity * count over the units, each counted
// exactly once whatever was interrupted where.
import { splitChecksum } from './digest';
import { Journal } from './journal';
import { backend } from '../core/boundary';
import { splitTree, type Split } from './split';
import { countUnits } from './unit-runner';

/** Progress of a checkpointed run (the fields of PerftProgress). */
interface CheckpointProgress {
  nodes: bigint;
  rootMovesDone: number;
  rootMovesTotal: number;
  elapsedMs: number;
  unitsDone: number;
  unitsTotal: number;
}

/** A checkpointed count, as perft.ts has checked it. */
export interface CheckpointRun {
  file: string;
  root: Uint8Array;
  chess960: boolean;
  depth: number;
  threads: number;
  hashBytes: number;
  keySet: string;
  signal: AbortSignal | undefined;
  onProgress: ((progress: CheckpointProgress) => void) | undefined;
}

/** What a checkpointed count returns. */
export interface CheckpointResult {
  nodes: bigint;
  /** Leaves counted by this call (the units recorded before it excluded). */
  nodesCounted: bigint;
  seconds: number;
  /** Count below each root move, by UCI move (empty at depth 0). */
  divide: Record<string, bigint>;
  ply: number;
  units: number;
  unitsResumed: number;
}

/** Units above which the split goes no deeper. */
const MAX_SPLIT_UNITS = 16384;

/**
 * The split ply of a checkpointed perft(depth): deep enough that a unit is a small part of the
 * run (a crash loses only the units in flight), shallow enough that the split itself is quick.
 */
function checkpointPly(depth: number): number {
  return depth === 0 ? 0 : Math.min(3, Math.max(1, depth - 5));
}

/** Per root move: how many of its units are not counted yet; and how many root moves are done. */
class RootTally {
  private readonly pending: number[];
  done = 0;

  constructor(split: Split, counted: ReadonlyMap<number, bigint>) {
    this.pending = split.rootMoves.map(() => 0);
    split.units.forEach((unit, index) => {
      if (counted.has(index)) return;
      for (const root of unit.roots?.keys() ?? []) this.pending[root] = (this.pending[root] as number) + 1;
    });
    this.done = this.pending.filter((n) => n === 0).length;
  }

  unitDone(split: Split, index: number): void {
    for (const root of split.units[index]?.roots?.keys() ?? []) {
      const left = (this.pending[root] as number) - 1;
      this.pending[root] = left;
      if (left === 0) this.done++;
    }
  }
}

function divideOf(split: Split, counts: ReadonlyMap<number, bigint>): Record<string, bigint> {
  const byRoot = split.rootMoves.map(() => 0n);
  split.units.forEach((unit, index) => {
    const count = counts.get(index) as bigint;
    for (const [root, multiplicity] of unit.roots ?? []) byRoot[root] = (byRoot[root] as bigint) + multiplicity * count;
  });
  const divide: Record<string, bigint> = {};
  split.rootMoves.forEach((move, i) => (divide[move] = byRoot[i] as bigint));
  return divide;
}

/**
 * Runs (or resumes) the count that `run` describes, journalling it in run.file. Rejects with a
 * JournalError for a journal of another run or a corrupted one, an AbortError when the signal
 * aborts (the journal keeps every unit finished so far), or what onProgress threw.
 */
export async function perftCheckpointed(run: CheckpointRun): Promise<CheckpointResult> {
  const start = performance.now();
  const split = splitTree(run.root, checkpointPly(run.depth), { trackRoots: true, maxUnits: MAX_SPLIT_UNITS });
  const fen = backend.fen(run.root);
  const facts = { fen, chess960: run.chess960, depth: run.depth, ply: split.ply };
  const header = {
    kind: 'perft',
    ...facts,
    units: split.units.length,
    unitsChecksum: splitChecksum(facts, split.units),
    keySet: run.keySet,
  };
  const { journal, counted } = Journal.open(run.file, header, split.units.length);
  const unitsResumed = counted.size;
  const tally = new RootTally(split, counted);
  let weightedDone = 0n; // sum of multiplicity * count over counted units
  for (const [index, count] of counted) weightedDone += (split.units[index]?.multiplicity as bigint) * count;
  const resumedNodes = weightedDone;
  const pending = split.units.map((_, index) => index).filter((index) => !counted.has(index));
  let rawDone = 0n; // unweighted counts of the units finished by this call
  const progress = (rawNodes: bigint): void =>
    run.onProgress?.({
      nodes: weightedDone + rawNodes - rawDone,
      rootMovesDone: tally.done,
      rootMovesTotal: split.rootMoves.length,
      elapsedMs: performance.now() - start,
      unitsDone: counted.size,
      unitsTotal: split.units.length,
    });
  try {
    await countUnits({
      fens: pending.map((index) => split.units[index]?.fen as string),
      chess960: run.chess960,
      depth: run.depth - split.ply,
      threads: run.threads,
      hashBytes: run.hashBytes,
      signal: run.signal,
      onCounted(records) {
        const global = records.map(([local, count]): [number, bigint] => [pending[local] as number, count]);
        journal.append(global);
        for (const [index, count] of global) {
          counted.set(index, count);
          rawDone += count;
          weightedDone += (split.units[index]?.multiplicity as bigint) * count;
          tally.unitDone(split, index);
        }
      },
      onTick: (rawNodes) => progress(rawNodes),
    });
  } finally {
    journal.close();
  }
  progress(rawDone);
  return {
    nodes: weightedDone,
    nodesCounted: weightedDone - resumedNodes,
    seconds: (performance.now() - start) / 1000,
    divide: divideOf(split, counted),
    ply: split.ply,
    units: split.units.length,
    unitsResumed,
  };
}
