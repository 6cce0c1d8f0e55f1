#!/usr/bin/env node
// perftAsync of the WebAssembly backend on 2 workers against 1, in Node
// (worker_threads, chess-native/wasm) and in Debian's headless Chromium
// (Web Workers, the browser entry dist/browser.mjs; test/browser/harness.mjs).
//
//   node bench/wasm-workers.mjs [--runs 5] [--positions startpos,kiwipete]
//
// Each run times perftAsync(fen, depth, { threads, hashMb: 0 }) with 1 and
// then 2 workers back to back, at the CPW benchmark depth; a speed-up is the
// median of the per-run ratios (1 worker / 2 workers), so both sides of a
// ratio ran under the same load. A warm-up run of each (workers started,
// code tiered up) is not counted. Every count is checked against the CPW
// value. No table: the workers' tables are their own, so a table would
// measure its sharing too.
//
// Two figures: wall time (what a user waits), and, on Linux, the speed-up
// two free cores would give: the workers' own on-CPU time from
// /proc/<pid>/task/<tid>/schedstat (time spent waiting for a CPU left out),
// the 1-worker run's over the busiest worker's of the 2-worker run. On a
// machine others load, wall time cannot show a second core's worth: with
// the kernel's autogroup scheduling, a session's threads share one slice.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { CPW, ROOT, require, parseArgs, median, spread, fmt, table, machine, loadNote } from './common.mjs';
import { BUNDLE_FILES, CHROMIUM, withPage } from '../test/browser/harness.mjs';

const opts = parseArgs(process.argv.slice(2), { runs: 5, positions: 'startpos,kiwipete' });
const positions = String(opts.positions)
  .split(',')
  .map((name) => CPW.find((p) => p.name === name) ?? fail(`unknown position ${name}`));

function fail(message) {
  throw new Error(message);
}

/** The page's side: one timed perftAsync on the browser entry. */
const PAGE = `
import { perftAsync } from '/dist/browser.mjs';
export async function time(fen, depth, threads) {
  const start = performance.now();
  const { nodes } = await perftAsync(fen, depth, { threads, hashMb: 0 });
  return { nodes: String(nodes), ms: performance.now() - start };
}
`;

/** The contents of a /proc file, or '' once the thread or process is gone. */
function proc(file) {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

/** On-CPU nanoseconds so far of the threads of `pids` that `keep(pid, tid, name)` selects, by "pid/tid". */
function threadCpu(pids, keep) {
  const out = new Map();
  for (const pid of pids) {
    for (const tid of existsSync(`/proc/${pid}/task`) ? readdirSync(`/proc/${pid}/task`) : []) {
      if (!keep(pid, tid, proc(`/proc/${pid}/task/${tid}/comm`).trim())) continue;
      const ns = Number(proc(`/proc/${pid}/task/${tid}/schedstat`).split(' ')[0]);
      if (ns > 0) out.set(`${pid}/${tid}`, ns);
    }
  }
  return out;
}

/** This process's descendants (the browser's processes). */
function descendants(root) {
  const children = new Map();
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    const stat = proc(`/proc/${pid}/stat`);
    const ppid = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1];
    if (ppid) children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  }
  const out = [];
  const walk = (pid) => (children.get(pid) ?? []).forEach((child) => (out.push(child), walk(child)));
  walk(String(root));
  return out;
}

/** Node's workers are threads of this process other than the main one; Chromium's are its DedicatedWorker threads. */
const WORKER_THREADS = {
  node: () => threadCpu([String(process.pid)], (pid, tid) => tid !== pid),
  chromium: () => threadCpu(descendants(process.pid), (_pid, _tid, name) => name === 'DedicatedWorker'),
};

/**
 * Times `time(fen, depth, threads)`: wall milliseconds, and the on-CPU
 * milliseconds of the busiest of the `threads` threads that ran most.
 */
async function timed(time, cpu, fen, depth, threads) {
  const before = cpu();
  const r = await time(fen, depth, threads);
  const deltas = [...cpu()].map(([id, ns]) => (ns - (before.get(id) ?? 0)) / 1e6).sort((a, b) => b - a);
  return { ...r, cpuMs: deltas.length >= threads ? deltas[0] : NaN };
}

/** Runs of { wall: { 1, 2 }, cpu: { 1, 2 } } for one position. */
async function pairs(time, cpu, { name, fen, depth, nodes }) {
  const runs = [];
  for (let run = 0; run <= opts.runs; run++) {
    const pair = { wall: {}, cpu: {} };
    for (const threads of [1, 2]) {
      const r = await timed(time, cpu, fen, depth, threads);
      if (String(r.nodes) !== String(nodes)) fail(`${name}: ${r.nodes} leaves with ${threads} workers, CPW says ${nodes}`);
      pair.wall[threads] = r.ms;
      pair.cpu[threads] = r.cpuMs;
    }
    if (run > 0) runs.push(pair);
  }
  return runs;
}

async function report(where, time, cpu) {
  const rows = [];
  const wallRatios = [];
  const cpuRatios = [];
  for (const position of positions) {
    const runs = await pairs(time, cpu, position);
    const mnps = (threads) => fmt(median(runs.map((r) => position.nodes / r.wall[threads] / 1e3)), 0);
    const wall = runs.map((r) => r.wall[1] / r.wall[2]);
    const free = runs.map((r) => r.cpu[1] / r.cpu[2]);
    wallRatios.push(median(wall));
    cpuRatios.push(median(free));
    rows.push([`${position.name} d${position.depth}`, mnps(1), mnps(2), spread(wall), spread(free)]);
  }
  console.log(`\n## ${where} (M leaves per second of wall time, medians of ${opts.runs})\n`);
  console.log(table(['position', '1 worker', '2 workers', '2 / 1, wall', '2 / 1 on free cores (on-CPU)'], rows));
  console.log(`\nmedian speed-up over the positions: wall ${fmt(median(wallRatios))}x, on free cores ${fmt(median(cpuRatios))}x`);
}

const version = execFileSync(CHROMIUM, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
console.log(`# perftAsync on the wasm backend: 2 workers vs 1, in Node ${process.version} and ${version}, headless`);
console.log(machine());
const note = loadNote();
if (note) console.log(note);

const { perftAsync, engineInfo } = require(path.join(ROOT, 'dist', 'wasm.js'));
if (engineInfo().backend !== 'wasm') fail('chess-native/wasm did not load the wasm backend');
const nodeTime = async (fen, depth, threads) => {
  const start = performance.now();
  const { nodes } = await perftAsync(fen, depth, { threads, hashMb: 0 });
  return { nodes, ms: performance.now() - start };
};
await report('Node, worker_threads', nodeTime, WORKER_THREADS.node);

const files = BUNDLE_FILES;
await withPage({ files, bodies: { '/bench.mjs': PAGE }, callMs: 600_000 }, async ({ call, errors }) => {
  await report('Chromium, Web Workers', (...args) => call('/bench.mjs', 'time', ...args), WORKER_THREADS.chromium);
  if (errors.length) fail(errors.join('\n'));
});
