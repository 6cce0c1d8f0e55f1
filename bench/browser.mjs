#!/usr/bin/env node
// The WebAssembly engine against chessops in one page of Debian's headless
// Chromium (test/browser/harness.mjs), one thread, wall time in the page.
//
//   node bench/browser.mjs [--runs 5] [--depth-delta 0] [--chessops-nodes 3000000] [--reps 20]
//
// Start-up: fetch of wasm/chess-native.wasm (no cache) to compiled
// (WebAssembly.compileStreaming), then to instantiated with the engine's
// tables; medians over --runs.
// Perft: the six CPW positions, wasm at the benchmark depth (+ --depth-delta),
// chessops at the deepest depth with at most --chessops-nodes leaves; speed in
// leaves per second, the ratio wasm/chessops per run (each run times both
// back to back under the same load), medians of --runs after a warm-up run.
// Every count is checked against test/data/cpw.epd.
// Moves: new position + legal moves as UCI strings over every perftsuite.epd
// position (bench/chessops-moves.mjs for chessops), and wasm's list as move
// codes (what the loader's strings cost), --reps passes per run,
// microseconds per position; move counts checked against D1.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { CPW, ROOT, parseArgs, median, spread, fmt, table, machine, loadNote, pkgVersion, suitePositions } from './common.mjs';
import { CHROMIUM, withPage } from '../test/browser/harness.mjs';

const opts = parseArgs(process.argv.slice(2), { runs: 5, depthDelta: 0, chessopsNodes: 3_000_000, reps: 20 });

/** Published leaf counts by depth of each FEN in test/data/cpw.epd. */
function cpwCounts() {
  const counts = new Map();
  for (const line of readFileSync(path.join(ROOT, 'test', 'data', 'cpw.epd'), 'utf8').split('\n')) {
    const [fen, ...fields] = line.split(';').map((s) => s.trim());
    if (fen) counts.set(fen, new Map(fields.map((f) => f.slice(1).split(' ').map(Number))));
  }
  return counts;
}

async function bundlePage() {
  const result = await build({
    entryPoints: [path.join(ROOT, 'bench', 'browser-page.mjs')],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    write: false,
    logLevel: 'error',
  });
  return result.outputFiles[0].text;
}

async function startup(call) {
  const runs = [];
  for (let run = 0; run < opts.runs; run++) runs.push(await call('startup', '/wasm/chess-native.wasm'));
  const row = (label, key) => [label, spread(runs.map((r) => r[key])), fmt(runs[0][key])];
  console.log(`\n## Start-up in the page (ms, median (min-max) of ${opts.runs}; the first run apart)\n`);
  console.log(
    table(
      ['step', 'ms', 'first'],
      [
        row('fetch + compile', 'fetchCompileMs'),
        row('instantiate + tables', 'instantiateMs'),
        row('of which tables (cn_init)', 'tablesMs'),
        row('fetch to ready', 'totalMs'),
      ],
    ),
  );
}

async function perft(call) {
  const published = cpwCounts();
  const rows = [];
  const ratios = [];
  for (const { name, fen, depth } of CPW) {
    const counts = published.get(fen);
    const wasmDepth = depth + opts.depthDelta;
    const chessopsDepth = Math.max(...[...counts].filter(([d, n]) => d <= wasmDepth && n <= opts.chessopsNodes).map(([d]) => d));
    const runs = [];
    for (let run = 0; run <= opts.runs; run++) {
      const r = await call('perftPair', fen, run === 0 ? wasmDepth - 1 : wasmDepth, chessopsDepth);
      if (
        r.wasmNodes !== String(counts.get(run === 0 ? wasmDepth - 1 : wasmDepth)) ||
        r.chessopsNodes !== String(counts.get(chessopsDepth))
      )
        throw new Error(`${name}: wasm ${r.wasmNodes}, chessops ${r.chessopsNodes}: not the published counts`);
      if (run > 0) runs.push({ wasm: Number(r.wasmNodes) / r.wasmMs / 1e3, chessops: Number(r.chessopsNodes) / r.chessopsMs / 1e3 });
    }
    const runRatios = runs.map((r) => r.wasm / r.chessops);
    ratios.push(median(runRatios));
    rows.push([
      name,
      `d${wasmDepth} ${fmt(median(runs.map((r) => r.wasm)), 1)}`,
      `d${chessopsDepth} ${fmt(median(runs.map((r) => r.chessops)), 2)}`,
      spread(runRatios, 1),
    ]);
  }
  console.log(`\n## Perft, one thread (M leaves per second, medians of ${opts.runs})\n`);
  console.log(table(['position', 'wasm', 'chessops', 'wasm/chessops'], rows));
  console.log(`\nmedian wasm/chessops over the six positions: ${fmt(median(ratios), 1)}x`);
}

async function moves(call) {
  const positions = suitePositions('all');
  const fens = positions.map((p) => p.fen);
  const kinds = ['wasm', 'codes', 'chessops'];
  const runs = [];
  for (let run = 0; run <= opts.runs; run++) {
    const r = await call('movesPasses', fens, opts.reps);
    for (const kind of kinds) {
      const wrong = positions.find(({ d1 }, i) => r[kind].counts[i] !== d1);
      if (wrong) throw new Error(`${wrong.name}: ${kind} lists ${r[kind].counts[positions.indexOf(wrong)]} moves, D1 is ${wrong.d1}`);
    }
    if (run > 0) runs.push(Object.fromEntries(kinds.map((kind) => [kind, (r[kind].ms * 1e3) / opts.reps / fens.length])));
  }
  const row = (label, kind) => [
    label,
    spread(runs.map((r) => r[kind])),
    spread(
      runs.map((r) => r.chessops / r[kind]),
      1,
    ),
  ];
  console.log(`\n## New position + legal moves, ${fens.length} perftsuite positions (us per position, medians of ${opts.runs})\n`);
  console.log(
    table(
      ['method', 'us', 'speed vs chessops'],
      [
        row('wasm: parseFen + legalMoves (UCI strings)', 'wasm'),
        row('wasm: parseFen + move codes (no strings)', 'codes'),
        row('chessops: fromSetup + allDests -> UCI', 'chessops'),
      ],
    ),
  );
}

const version = execFileSync(CHROMIUM, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
console.log(`# chess-native wasm vs chessops ${pkgVersion('chessops')} in ${version}, headless`);
console.log(machine());
const note = loadNote();
if (note) console.log(note);

const options = {
  files: ['wasm/chess-native.wasm'],
  bodies: { '/bench.mjs': await bundlePage() },
  callMs: 600_000,
};
await withPage(options, async ({ call, errors }) => {
  const bench = (name, ...args) => call('/bench.mjs', name, ...args);
  await startup(bench);
  await perft(bench);
  await moves(bench);
  if (errors.length) throw new Error(errors.join('\n'));
});
