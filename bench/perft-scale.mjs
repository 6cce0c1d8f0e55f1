#!/usr/bin/env node
// Perft at scale: perftAsync's thread scaling and hash table.
//
//   node bench/perft-scale.mjs [--runs 3] [--hash-mb 1024] [--skip-slow]
//                              [--units-depth 9] [--units-ply 3] [--shards 4]
//                              [--units-hash-mb 4096] [--only-units]
//   node bench/perft-scale.mjs --deep 9|10 [--hash-mb 4096|16384]
//
// 1. scaling: perft 7 from the start position, no table, 1 thread vs 2
//    threads, --runs times each, alternating (so both see the same load);
//    the ratio is the median of the per-run ratios t(1) / t(2).
// 2. perft 8 from the start position, 2 threads, a --hash-mb table (once).
// 3. kiwipete perft 7 and CPW position 3 perft 8, 2 threads, with and without
//    a table (once each; kiwipete without a table takes minutes: --skip-slow
//    leaves it out). The hashed and unhashed counts must agree.
// 4. work units: perft --units-depth from the start position split at
//    --units-ply (splitPerft), counted as --shards shards one after another
//    (runUnits, each with its own --units-hash-mb table, as on separate
//    machines), merged (mergeUnits) and checked against the published count;
//    then the same count in one perftAsync run with the same table and
//    threads. The shards' total CPU time is compared with the single run's.
//    --units-depth 0 skips it; --only-units runs only it.
//
// --deep D runs only perft D from the start position, 2 threads, a --hash-mb
// table (default 4096 MiB for D 9, 16384 MiB for D 10 and up), once, with a
// progress line a minute, and prints the key set it hashed with
// (engineInfo().perftKeySet) and the load average at the start, the lowest
// and the highest seen during the run.
//
// Wall time is what perftAsync reports (the job's own clock). CPU time is the
// process's (getrusage, all threads, including the ones that have exited):
// on a busy machine wall time grows with the queue for a CPU while CPU time
// does not, so both are printed, with the load average.
import os from 'node:os';
import { parseArgs, median, fmt, table, loadEngine, machine, loadNote, gitState } from './common.mjs';

const opts = parseArgs(process.argv.slice(2), {
  runs: 3,
  hashMb: 0,
  skipSlow: false,
  deep: 0,
  unitsDepth: 9,
  unitsPly: 3,
  shards: 4,
  unitsHashMb: 4096,
  onlyUnits: false,
});
opts.hashMb ||= opts.deep >= 10 ? 16384 : opts.deep ? 4096 : 1024;
const { api, addon, stale } = loadEngine();
const { perftAsync, START_FEN, engineInfo, splitPerft, runUnits, mergeUnits } = api;

const KIWIPETE = 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1';
const POSITION_3 = '8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1';
// Published counts (CPW perft page; test/data/cpw.epd).
const START_7 = 3195901860n;
const START_8 = 84998978956n;
const START_BY_DEPTH = new Map([
  [6, 119060324n],
  [7, START_7],
  [8, START_8],
  [9, 2439530234167n],
  [10, 69352859712417n],
]);
const POSITION_3_8 = 3009794393n;

async function timed(fen, depth, threads, hashMb, extra = {}) {
  const cpu0 = process.cpuUsage();
  const load = os.loadavg()[0];
  const r = await perftAsync(fen, depth, { threads, hashMb, ...extra });
  const cpu = process.cpuUsage(cpu0);
  return { nodes: r.nodes, seconds: r.seconds, cpu: (cpu.user + cpu.system) / 1e6, load };
}

function check(label, got, expected) {
  if (expected !== undefined && got !== expected) {
    console.error(`WRONG COUNT: ${label}: ${got}, expected ${expected}`);
    process.exitCode = 1;
  }
}

const info = engineInfo();
console.log(`# perft at scale: ${machine()}`);
console.log(`# engine ${info.version}, code path ${info.impl}, addon ${addon}, ${gitState()}`);
if (stale.length) console.log(`# WARNING: csrc files newer than the addon: ${stale.join(', ')}`);
const note = loadNote();
if (note) console.log(`#${note}`);
console.log('');

if (opts.deep) {
  const loads = [os.loadavg()[0]];
  const sampler = setInterval(() => loads.push(os.loadavg()[0]), 10_000);
  let printed = 0;
  const onProgress = ({ rootMovesDone, rootMovesTotal, elapsedMs }) => {
    if (elapsedMs - printed < 60_000) return;
    printed = elapsedMs;
    console.error(`  ${rootMovesDone}/${rootMovesTotal} root moves, ${fmt(elapsedMs / 1000, 0)} s, load ${fmt(os.loadavg()[0], 2)}`);
  };
  const r = await timed(START_FEN, opts.deep, 2, opts.hashMb, { onProgress });
  clearInterval(sampler);
  check(`start D${opts.deep}`, r.nodes, START_BY_DEPTH.get(opts.deep));
  console.log(`## perft ${opts.deep}, start position, 2 threads, ${opts.hashMb} MiB table, key set ${info.perftKeySet}`);
  const during = `${fmt(Math.min(...loads), 2)}-${fmt(Math.max(...loads), 2)}`;
  console.log(
    table(
      ['nodes', 'wall s', 'cpu s', 'Mnps', 'load at start', 'load during'],
      [[r.nodes.toString(), fmt(r.seconds, 2), fmt(r.cpu, 2), fmt(Number(r.nodes) / r.seconds / 1e6, 0), fmt(r.load, 2), during]],
    ),
  );
  process.exit();
}
if (!opts.onlyUnits) await scalingAndDeepRuns();
if (opts.unitsDepth > 0) await workUnits();

async function scalingAndDeepRuns() {
  // 1. Scaling.
  const one = [];
  const two = [];
  for (let i = 0; i < opts.runs; i++) {
    const a = await timed(START_FEN, 7, 1, 0);
    const b = await timed(START_FEN, 7, 2, 0);
    check('start D7 1 thread', a.nodes, START_7);
    check('start D7 2 threads', b.nodes, START_7);
    one.push(a);
    two.push(b);
  }
  const ratios = one.map((a, i) => a.seconds / two[i].seconds);
  const rows = [
    [
      '1 thread',
      fmt(median(one.map((r) => r.seconds)), 3),
      fmt(median(one.map((r) => r.cpu)), 3),
      fmt(Number(START_7) / median(one.map((r) => r.seconds)) / 1e6, 0),
      fmt(median(one.map((r) => r.load)), 2),
    ],
    [
      '2 threads',
      fmt(median(two.map((r) => r.seconds)), 3),
      fmt(median(two.map((r) => r.cpu)), 3),
      fmt(Number(START_7) / median(two.map((r) => r.seconds)) / 1e6, 0),
      fmt(median(two.map((r) => r.load)), 2),
    ],
  ];
  console.log(`## Thread scaling: perft 7 start position (${START_7} nodes), no table, median of ${opts.runs}`);
  console.log(table(['threads', 'wall s', 'cpu s', 'Mnps', 'load'], rows));
  console.log(`speed-up 2 vs 1 thread: median ${fmt(median(ratios), 2)}x (runs: ${ratios.map((r) => fmt(r, 2)).join(', ')})\n`);

  // 2 and 3. Deep runs, once each.
  const deep = [
    ['start', START_FEN, 8, opts.hashMb, START_8],
    ['kiwipete', KIWIPETE, 7, opts.hashMb, undefined],
    ['kiwipete', KIWIPETE, 7, 0, undefined],
    ['position 3', POSITION_3, 8, opts.hashMb, POSITION_3_8],
    ['position 3', POSITION_3, 8, 0, POSITION_3_8],
  ];
  const results = [];
  const counts = new Map();
  for (const [name, fen, depth, hashMb, expected] of deep) {
    if (opts.skipSlow && name === 'kiwipete' && hashMb === 0) continue;
    const r = await timed(fen, depth, 2, hashMb);
    check(`${name} D${depth} hash ${hashMb}`, r.nodes, expected);
    const key = `${name} ${depth}`;
    if (counts.has(key) && counts.get(key) !== r.nodes) check(`${key} hashed vs unhashed`, r.nodes, counts.get(key));
    counts.set(key, r.nodes);
    results.push([
      `${name} D${depth}`,
      hashMb ? `${hashMb} MiB` : 'none',
      r.nodes.toString(),
      fmt(r.seconds, 2),
      fmt(r.cpu, 2),
      fmt(Number(r.nodes) / r.seconds / 1e6, 0),
      fmt(r.load, 2),
    ]);
    console.log(`  ${results.at(-1).join('  ')}`);
  }
  console.log('\n## Deep runs, 2 threads');
  console.log(table(['position', 'table', 'nodes', 'wall s', 'cpu s', 'Mnps', 'load'], results));
}

function cpuSeconds(before) {
  const cpu = process.cpuUsage(before);
  return (cpu.user + cpu.system) / 1e6;
}

// 4. Work units.
async function workUnits() {
  const { unitsDepth: depth, unitsPly: ply, shards, unitsHashMb: hashMb } = opts;
  const expected = START_BY_DEPTH.get(depth);
  const load = os.loadavg()[0];
  let t0 = performance.now();
  const set = splitPerft(START_FEN, depth, ply);
  const splitSeconds = (performance.now() - t0) / 1000;
  const m = set.manifest;
  console.log(
    `## Work units: perft ${depth} from the start position, split at ply ${ply}: ${m.units} units ` +
      `(multiplicity ${m.multiplicity}), ${shards} shards, 2 threads and a ${hashMb} MiB table each`,
  );
  const rows = [];
  const parts = [];
  let shardCpu = 0;
  let shardWall = 0;
  for (let index = 0; index < shards; index++) {
    const cpu0 = process.cpuUsage();
    t0 = performance.now();
    const part = await runUnits(set, { shard: { index, count: shards }, threads: 2, hashMb });
    const wall = (performance.now() - t0) / 1000;
    const cpu = cpuSeconds(cpu0);
    shardCpu += cpu;
    shardWall += wall;
    parts.push(part);
    rows.push([`shard ${index}/${shards}`, String(part.records.length), fmt(wall, 2), fmt(cpu, 2), fmt(os.loadavg()[0], 2)]);
    console.log(`  ${rows.at(-1).join('  ')}`);
  }
  const merged = mergeUnits(set, parts);
  check(`units perft ${depth}`, merged.nodes, expected);
  const cpu0 = process.cpuUsage();
  const single = await perftAsync(START_FEN, depth, { threads: 2, hashMb });
  const singleCpu = cpuSeconds(cpu0);
  check(`single perft ${depth}`, single.nodes, expected);
  rows.push([`all ${shards} shards`, String(m.units), fmt(shardWall, 2), fmt(shardCpu, 2), '']);
  rows.push(['single run', '', fmt(single.seconds, 2), fmt(singleCpu, 2), fmt(os.loadavg()[0], 2)]);
  console.log(table(['run', 'units', 'wall s', 'cpu s', 'load'], rows));
  console.log(
    `split: ${fmt(splitSeconds, 2)} s; merged ${merged.nodes} (${merged.nodes === expected ? 'the published count' : 'WRONG'}); ` +
      `shards' CPU / single run's CPU: ${fmt(shardCpu / singleCpu, 2)}x (load at start ${fmt(load, 2)})`,
  );
}
