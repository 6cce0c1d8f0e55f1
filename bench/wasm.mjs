#!/usr/bin/env node
// The WebAssembly build of the engine against the native addon, in the same
// run: module size, start-up, and one-thread perft on the six CPW positions.
//
//   node bench/wasm.mjs [--runs 5] [--wasm wasm/chess-native.wasm] [--depth-delta 0]
//
// Size: the .wasm raw and gzip -9 (zlib level 9).
// Start-up: compile (WebAssembly.compile of the bytes), then instantiate plus
// table set-up (new WebAssembly.Instance, _initialize, cn_init, as
// WasmEngine does); cn_init's own figure (its clock inside the module) too.
// Medians over --runs fresh compiles and instances.
// Perft: wasm `WasmEngine.perft(position, depth)` (one cn_perft call) and
// native `new Position(fen).perft(depth)`, both one thread, bulk counting,
// timed around the call in on-CPU time of this process (process.cpuUsage:
// time spent waiting for a CPU on a busy machine left out); every count
// checked against the CPW value. A shallower perft of each position runs
// first so that V8 has tiered the module up before the clock runs. The
// ratio (native time / wasm time, so wasm's speed as a fraction of native)
// is the median of the per-run ratios, each run pairing both under the same
// machine load.
//
// Through the API: the same perft as `new Position(fen).perft(depth)` on
// both backends of the package in this one process (the wasm one a second
// copy of dist/ loaded with CHESS_NATIVE_BACKEND=wasm), on-CPU time as above;
// and `new Position(fen).legalMoves()` over the perftsuite positions, in
// microseconds a call (median of --runs passes over all of them).
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import path from 'node:path';
import { CPW, ROOT, require, parseArgs, median, spread, fmt, now, table, loadEngine, machine, loadNote } from './common.mjs';
import { WasmEngine } from '../wasm/loader.mjs';

/** This process's on-CPU seconds. */
function cpuNow() {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
}

const opts = parseArgs(process.argv.slice(2), { runs: 5, wasm: 'wasm/chess-native.wasm', depthDelta: 0 });
const file = path.resolve(ROOT, opts.wasm);
const bytes = readFileSync(file);
const { api, addon } = loadEngine();

console.log(`# chess-native: wasm (${path.relative(ROOT, file)}) vs native addon (${addon})`);
console.log(machine());
const note = loadNote();
if (note) console.log(note);

console.log(`\n## Size\n\nraw ${bytes.length} bytes, gzip -9 ${gzipSync(bytes, { level: 9 }).length} bytes`);

const compileMs = [];
const instantiateMs = [];
const tablesMs = [];
let engine;
for (let run = 0; run < opts.runs; run++) {
  let t = now();
  const module = await WebAssembly.compile(bytes);
  compileMs.push((now() - t) * 1e3);
  t = now();
  engine = new WasmEngine(module);
  instantiateMs.push((now() - t) * 1e3);
  tablesMs.push(engine.initMilliseconds());
}
console.log(`\n## Start-up (ms, median (min-max) of ${opts.runs})\n`);
console.log(
  table(
    ['step', 'ms'],
    [
      ['compile', spread(compileMs)],
      ['instantiate + tables', spread(instantiateMs)],
      ['of which cn_init (tables)', spread(tablesMs)],
    ],
  ),
);
console.log(`\nwasm code path: ${engine.implName()}`);

const rows = [];
const ratios = [];
for (const { name, fen, depth: baseDepth, nodes } of CPW) {
  const depth = baseDepth + opts.depthDelta;
  const { position } = engine.parseFen(fen);
  const wasmS = [];
  const nativeS = [];
  const runRatios = [];
  let count = 0;
  engine.perft(position, depth - 1);
  for (let run = 0; run < opts.runs; run++) {
    let t = cpuNow();
    const w = engine.perft(position, depth);
    wasmS.push(cpuNow() - t);
    const pos = new api.Position(fen);
    t = cpuNow();
    const n = pos.perft(depth);
    nativeS.push(cpuNow() - t);
    if (opts.depthDelta === 0 && (w !== BigInt(nodes) || n !== nodes))
      throw new Error(`${name}: wasm ${w}, native ${n}, expected ${nodes}`);
    if (w !== BigInt(n)) throw new Error(`${name}: wasm ${w} != native ${n}`);
    runRatios.push(nativeS[run] / wasmS[run]);
    count = n;
  }
  ratios.push(median(runRatios));
  rows.push([`${name} d${depth}`, fmt(count / median(wasmS) / 1e6, 0), fmt(count / median(nativeS) / 1e6, 0), spread(runRatios)]);
}
console.log(`\n## Perft, one thread (M nodes per CPU second, medians of ${opts.runs})\n`);
console.log(table(['position', 'wasm', 'native', 'wasm/native'], rows));
console.log(`\nmedian wasm/native over the six positions: ${fmt(median(ratios))}`);

/** A second copy of the package's API on the wasm backend: dist/ loaded again with CHESS_NATIVE_BACKEND=wasm. */
function loadWasmApi() {
  const dist = path.join(ROOT, 'dist') + path.sep;
  const cached = Object.keys(require.cache).filter((k) => k.startsWith(dist));
  const saved = cached.map((k) => [k, require.cache[k]]);
  for (const k of cached) delete require.cache[k];
  const before = process.env.CHESS_NATIVE_BACKEND;
  process.env.CHESS_NATIVE_BACKEND = 'wasm';
  try {
    return require(path.join(ROOT, 'dist', 'index.js'));
  } finally {
    if (before === undefined) delete process.env.CHESS_NATIVE_BACKEND;
    else process.env.CHESS_NATIVE_BACKEND = before;
    for (const k of Object.keys(require.cache)) if (k.startsWith(dist)) delete require.cache[k];
    for (const [k, v] of saved) require.cache[k] = v;
  }
}

const wasmApi = loadWasmApi();
if (wasmApi.engineInfo().backend !== 'wasm' || api.engineInfo().backend !== 'native')
  throw new Error('the two APIs are not on the two backends');

const apiRows = [];
const apiRatios = [];
for (const { name, fen, depth: baseDepth, nodes } of CPW) {
  const depth = baseDepth + opts.depthDelta;
  const wasmS = [];
  const nativeS = [];
  const runRatios = [];
  new wasmApi.Position(fen).perft(depth - 1);
  for (let run = 0; run < opts.runs; run++) {
    const w = new wasmApi.Position(fen);
    let t = cpuNow();
    const wn = w.perft(depth);
    wasmS.push(cpuNow() - t);
    const n = new api.Position(fen);
    t = cpuNow();
    const nn = n.perft(depth);
    nativeS.push(cpuNow() - t);
    if (wn !== nn || (opts.depthDelta === 0 && nn !== nodes)) throw new Error(`${name}: wasm ${wn}, native ${nn}, expected ${nodes}`);
    runRatios.push(nativeS[run] / wasmS[run]);
  }
  apiRatios.push(median(runRatios));
  const count = Number(new api.Position(fen).perft(depth));
  apiRows.push([`${name} d${depth}`, fmt(count / median(wasmS) / 1e6, 0), fmt(count / median(nativeS) / 1e6, 0), spread(runRatios)]);
}
console.log(`\n## Through the API: Position.perft, one thread (M nodes per CPU second, medians of ${opts.runs})\n`);
console.log(table(['position', 'wasm', 'native', 'wasm/native'], apiRows));
console.log(`\nmedian wasm/native over the six positions: ${fmt(median(apiRatios))}`);

const fens = readFileSync(path.join(ROOT, 'test', 'data', 'perftsuite.epd'), 'utf8')
  .split('\n')
  .filter((line) => line.trim())
  .map((line) => line.split(';')[0].trim());
/** Microseconds a `new Position(fen).legalMoves()` over all the fens, median of the runs. */
function legalMovesUs(Position) {
  const passes = 20;
  for (const fen of fens) new Position(fen).legalMoves();
  const times = [];
  for (let run = 0; run < opts.runs; run++) {
    const t = cpuNow();
    for (let pass = 0; pass < passes; pass++) for (const fen of fens) new Position(fen).legalMoves();
    times.push(((cpuNow() - t) / (passes * fens.length)) * 1e6);
  }
  return times;
}
const wasmUs = legalMovesUs(wasmApi.Position);
const nativeUs = legalMovesUs(api.Position);
console.log(
  `\n## new Position(fen).legalMoves() over the ${fens.length} perftsuite positions (us a call, median (min-max) of ${opts.runs})\n`,
);
console.log(
  table(
    ['backend', 'us'],
    [
      ['wasm', spread(wasmUs)],
      ['native', spread(nativeUs)],
      ['wasm/native speed', fmt(median(nativeUs) / median(wasmUs))],
    ],
  ),
);
