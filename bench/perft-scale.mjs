#!/usr/bin/env node
// Perft at scale: perftAsync's thread scaling and hash table.
//
//   node bench/perft-scale.mjs [--runs 3] [--hash-mb 1024] [--skip-slow]
//   node bench/perft-scale.mjs --perft9 [--hash-mb 4096]
//
// 1. scaling: perft 7 from the start position, no table, 1 thread vs 2
//    threads, --runs times each, alternating (so both see the same load);
//    the ratio is the median of the per-run ratios t(1) / t(2).
// 2. perft 8 from the start position, 2 threads, a --hash-mb table (once).
// 3. kiwipete perft 7 and CPW position 3 perft 8, 2 threads, with and without
//    a table (once each; kiwipete without a table takes minutes: --skip-slow
//    leaves it out). The hashed and unhashed counts must agree.
//
// --perft9 runs only perft 9 from the start position, 2 threads, a --hash-mb
// table (default 4096 with --perft9), once, and prints the key set it hashed
// with (engineInfo().perftKeySet; an engine without one predates the second key).
//
// Wall time is what perftAsync reports (the job's own clock). CPU time is the
// process's (getrusage, all threads, including the ones that have exited):
// on a busy machine wall time grows with the queue for a CPU while CPU time
// does not, so both are printed, with the load average.
import os from 'node:os';
import { parseArgs, median, fmt, table, loadEngine, machine, loadNote, gitState } from './common.mjs';

const opts = parseArgs(process.argv.slice(2), { runs: 3, hashMb: 0, skipSlow: false, perft9: false });
opts.hashMb ||= opts.perft9 ? 4096 : 1024;
const { api, addon, stale } = loadEngine();
const { perftAsync, START_FEN, engineInfo } = api;

const KIWIPETE = 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1';
const POSITION_3 = '8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1';
// Published counts (CPW perft page; test/data/cpw.epd).
const START_7 = 3195901860n;
const START_8 = 84998978956n;
const START_9 = 2439530234167n;
const POSITION_3_8 = 3009794393n;

async function timed(fen, depth, threads, hashMb) {
  const cpu0 = process.cpuUsage();
  const load = os.loadavg()[0];
  const r = await perftAsync(fen, depth, { threads, hashMb });
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

if (opts.perft9) {
  const r = await timed(START_FEN, 9, 2, opts.hashMb);
  check('start D9', r.nodes, START_9);
  console.log(`## perft 9, start position, 2 threads, ${opts.hashMb} MiB table, key set ${info.perftKeySet ?? 'none (64-bit tags)'}`);
  console.log(
    table(
      ['nodes', 'wall s', 'cpu s', 'Mnps', 'load'],
      [[r.nodes.toString(), fmt(r.seconds, 2), fmt(r.cpu, 2), fmt(Number(r.nodes) / r.seconds / 1e6, 0), fmt(r.load, 2)]],
    ),
  );
  process.exit();
}

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
