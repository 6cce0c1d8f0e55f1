// Counting a batch of perft units on one engine instance: what a perft
// worker of the wasm backend (./perft-worker) does with each task it is sent.
import type { Engine } from './instance';

/** One batch: units (whole positions) counted to depth. */
export interface Task {
  units: Uint8Array;
  depth: number;
  hashBytes: number;
  keySeed: bigint;
}

/** The answer to a task: each unit's count, or the status that stopped it. */
export type Answer = { counts: BigUint64Array } | { status: number; name: string };

/** Counts one task on `engine`. */
export function countTask(engine: Engine, task: Task): Answer {
  const { JobOptions, POSITION_BYTES, Slot, Status } = engine.layout;
  const n = task.units.length / POSITION_BYTES;
  const unitsAt = engine.block(task.units.length + 9 * n + 8);
  engine.u8.set(task.units, unitsAt);
  const countsAt = (unitsAt + task.units.length + 7) & ~7;
  const doneAt = countsAt + 8 * n;
  const options = engine.scratch + Slot.options;
  const view = engine.view;
  engine.u8.fill(0, options, options + JobOptions.bytes);
  view.setInt32(options + JobOptions.depth, task.depth, true);
  view.setInt32(options + JobOptions.threads, 1, true);
  view.setUint32(options + JobOptions.hashBytes, task.hashBytes, true);
  view.setBigUint64(options + JobOptions.keySeed, task.keySeed, true);
  const jobAt = engine.scratch + Slot.int;
  const status = engine.call('cn_perft_job_start_units', unitsAt, n, options, jobAt);
  if (status !== Status.ok) return { status, name: engine.statusName(status) };
  const job = engine.view.getUint32(jobAt, true);
  engine.call('cn_perft_job_unit_results', job, 0, n, countsAt, doneAt);
  engine.call('cn_perft_job_free', job);
  return { counts: new BigUint64Array(engine.u8.buffer.slice(countsAt, countsAt + 8 * n)) };
}
