#!/usr/bin/env node
// chess-native's browser bundle (dist/browser.mjs, the public API on the
// WebAssembly engine) against chessops in one page of Debian's headless
// Chromium (test/browser/harness.mjs), one thread, wall time in the page
// (bench/browser-page.mjs).
//
//   node bench/browser.mjs [--runs 5] [--reps 200] [--pgn-mb 1] [--depth-delta 0] [--chessops-nodes 3000000] [--settle-ms 500] [--warmup 3] [--only startup,moves,pgn,perft]
//
// Each run times chess-native and chessops back to back, so both meet the
// same load; a ratio is taken per run and the medians of --runs are
// reported, after --warmup runs that are left out (they give both sides'
// code time to reach its optimising tier: a single one left the PGN tree's
// first timed runs at two to four times their later time).
// Start-up: in each of --runs fresh browsers, --settle-ms after the page
// loaded (a browser just launched is still busy starting), the page's
// import of the bundle to its API ready (fetch of the bundle and the .wasm,
// never from a cache, compile, instantiate, tables).
// --only: the named sections alone (the same page and runs); the summary
// against the targets is printed when all four run.
// Moves: `new Position(fen).legalMoves()` over every perftsuite.epd position,
// and `legalMoves()` of positions made beforehand, --reps passes a run
// (each kind a block of passes at a time, the kinds taking turns);
// chessops: fromSetup + allDests -> UCI strings (bench/chessops-moves.mjs).
// Move counts checked against D1.
// PGN: `parsePgn` + every node of the tree + `moves()` against chessops
// `parsePgn` + `parseSan` and `play` on every node (bench/pgn-tree.mjs), on
// --pgn-mb megabytes of generated games; node counts checked equal.
// Perft: the six CPW positions, chess-native at the benchmark depth
// (+ --depth-delta), chessops at the deepest depth with at most
// --chessops-nodes leaves; the ratio is of leaves per second; every count
// checked against test/data/cpw.epd.
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { CPW, ROOT, parseArgs, median, spread, fmt, table, machine, loadNote, pkgVersion, suitePositions } from './common.mjs';
import { generatePgn } from './pgn-corpus.mjs';
import { treeText } from './pgn-tree.mjs';
import { BUNDLE_FILES, CHROMIUM, withPage } from '../test/browser/harness.mjs';

const opts = parseArgs(process.argv.slice(2), {
  runs: 5,
  reps: 200,
  pgnMb: 1,
  depthDelta: 0,
  chessopsNodes: 3_000_000,
  settleMs: 500,
  warmup: 3,
  only: 'startup,moves,pgn,perft',
});

/** The project's targets: at least `min` (fetch to ready: at most `max`), aiming at `goal`. */
const TARGETS = {
  fresh: { min: 10, goal: 20 },
  pgn: { min: 5, goal: 10 },
  perft: { min: 80, goal: 120 },
  heldUs: { max: 0.3 },
  readyMs: { max: 40 },
};

const BUNDLE = path.join(ROOT, 'dist', 'browser.mjs');

/** Fails when a source of the bundle is newer than it: the figures would be for older code. */
function checkBundle() {
  const built = statSync(BUNDLE, { throwIfNoEntry: false })?.mtimeMs;
  if (built === undefined) throw new Error('dist/browser.mjs is missing: run `npm run build:ts`');
  const sources = readdirSync(path.join(ROOT, 'src'), { recursive: true })
    .map((f) => path.join('src', String(f)))
    .concat(path.join('wasm', 'browser-shims.mjs'), path.join('wasm', 'chess-native.wasm'));
  const newer = sources.filter((f) => statSync(path.join(ROOT, f)).mtimeMs > built);
  if (newer.length) throw new Error(`dist/browser.mjs is older than ${newer.join(', ')}: run \`npm run build:ts\``);
}

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
    external: ['/dist/browser.mjs'],
    write: false,
    logLevel: 'error',
  });
  return result.outputFiles[0].text;
}

/** `fn(warm)` for --warmup runs (warm: true) and --runs more; the results of the latter. */
async function repeat(fn) {
  const runs = [];
  for (let run = 0; run < opts.warmup + opts.runs; run++) {
    const result = await fn(run < opts.warmup);
    if (run >= opts.warmup) runs.push(result);
  }
  return runs;
}

const ratioCell = (values) => `${spread(values, 1)}x`;

/** The page's options: the bundle, the engine, and this benchmark's page. */
async function pageOptions() {
  return { files: BUNDLE_FILES, bodies: { '/bench.mjs': await bundlePage() }, callMs: 600_000 };
}

/** Start-up in --runs fresh browsers (a browser keeps compiled modules it has seen: a second import in one page would reuse them). */
async function startup(options) {
  const runs = [];
  for (let run = 0; run < opts.runs; run++) runs.push(await withPage(options, ({ call }) => call('/bench.mjs', 'startup', opts.settleMs)));
  const cell = (key) =>
    spread(
      runs.map((r) => r[key]),
      1,
    );
  console.log(
    `\n## Start-up: the page's import of the bundle to its API ready (ms after the import; median (min-max) of ${opts.runs} fresh browsers)\n`,
  );
  console.log(
    table(
      ['step', 'ms'],
      [
        ['bundle fetched (the last of its modules)', cell('bundleMs')],
        ['engine fetched', cell('wasmMs')],
        ['API ready (fetch to ready)', cell('ms')],
        ['of which tables (engineInfo().initMs)', cell('tablesMs')],
      ],
    ),
  );
  return { ms: median(runs.map((r) => r.ms)) };
}

async function moves(call) {
  const positions = suitePositions('all');
  const fens = positions.map((p) => p.fen);
  const runs = await repeat(async () => {
    const r = await call('moves', fens, opts.reps);
    for (const [kind, { counts }] of Object.entries(r)) {
      const i = positions.findIndex(({ d1 }, k) => counts[k] !== d1);
      if (i >= 0) throw new Error(`${positions[i].name}: ${kind} lists ${counts[i]} moves, D1 is ${positions[i].d1}`);
    }
    return Object.fromEntries(Object.entries(r).map(([kind, { ms, passes }]) => [kind, (ms * 1e3) / passes / fens.length]));
  });
  const us = (kind) =>
    spread(
      runs.map((r) => r[kind]),
      3,
    );
  const ratios = (kind) => runs.map((r) => r[`${kind}Chessops`] / r[kind]);
  console.log(`\n## Legal moves as UCI strings, ${fens.length} perftsuite positions (us per position; median (min-max) of ${opts.runs})\n`);
  console.log(
    table(
      ['call', 'chess-native us', 'chessops us', 'chess-native/chessops'],
      [
        ['`new Position(fen).legalMoves()`', us('fresh'), us('freshChessops'), ratioCell(ratios('fresh'))],
        ['held `legalMoves()`', us('held'), us('heldChessops'), ratioCell(ratios('held'))],
      ],
    ),
  );
  return { fresh: median(ratios('fresh')), heldUs: median(runs.map((r) => r.held)) };
}

async function pgn(call) {
  const text = treeText(generatePgn, opts.pgnMb);
  await call('setPgn', text);
  const runs = await repeat(async () => {
    const r = await call('pgn');
    if (r.nodes !== r.chessopsNodes) throw new Error(`PGN tree: chess-native saw ${r.nodes} nodes, chessops ${r.chessopsNodes}`);
    return r;
  });
  const ratios = runs.map((r) => r.chessopsMs / r.ms);
  console.log(`\n## PGN full tree, ${fmt(text.length / 1e6, 1)} MB, ${runs[0].nodes} nodes (ms; median (min-max) of ${opts.runs})\n`);
  console.log(
    table(
      ['reader', 'ms', 'chess-native/chessops'],
      [
        [
          'chess-native `parsePgn` + `root` + `moves()`',
          spread(
            runs.map((r) => r.ms),
            1,
          ),
          ratioCell(ratios),
        ],
        [
          'chessops `parsePgn` + `parseSan` and `play` on every node',
          spread(
            runs.map((r) => r.chessopsMs),
            1,
          ),
          '',
        ],
      ],
    ),
  );
  return { ratio: median(ratios) };
}

async function perft(call) {
  const published = cpwCounts();
  const rows = [];
  const medians = [];
  for (const { name, fen, depth } of CPW) {
    const counts = published.get(fen);
    const ours = depth + opts.depthDelta;
    const theirs = Math.max(...[...counts].filter(([d, n]) => d <= ours && n <= opts.chessopsNodes).map(([d]) => d));
    const runs = await repeat(async (warm) => {
      // The warm-up a ply shallower: it only has to bring the code to its optimising tier.
      const d = warm ? ours - 1 : ours;
      const r = await call('perft', fen, d, theirs);
      if (r.nodes !== counts.get(d) || r.chessopsNodes !== counts.get(theirs))
        throw new Error(`${name}: chess-native ${r.nodes}, chessops ${r.chessopsNodes}: not the published counts`);
      return { ours: r.nodes / r.ms / 1e3, theirs: r.chessopsNodes / r.chessopsMs / 1e3 };
    });
    const ratios = runs.map((r) => r.ours / r.theirs);
    medians.push(median(ratios));
    rows.push([
      name,
      `d${ours} ${fmt(median(runs.map((r) => r.ours)), 1)}`,
      `d${theirs} ${fmt(median(runs.map((r) => r.theirs)), 2)}`,
      ratioCell(ratios),
    ]);
  }
  console.log(`\n## Perft, one thread: \`new Position(fen).perft(depth)\` (M leaves per second; median (min-max) of ${opts.runs})\n`);
  console.log(table(['position', 'chess-native', 'chessops', 'chess-native/chessops'], rows));
  console.log(`\nmedian over the six positions: ${fmt(median(medians), 1)}x`);
  return { ratio: median(medians) };
}

function verdict(value, { min, max, goal }) {
  if (max !== undefined) return value <= max ? 'met' : 'NOT met';
  return value >= goal ? 'goal met' : value >= min ? 'met' : 'NOT met';
}

function summary({ ready, moveFigures, pgnRatio, perftRatio }) {
  const x = (value) => `${fmt(value, 1)}x`;
  console.log(`\n## Against the targets (medians)\n`);
  console.log(
    table(
      ['figure', 'measured', 'target', 'verdict'],
      [
        ['`new Position(fen).legalMoves()` vs chessops', x(moveFigures.fresh), '10x (goal 20x)', verdict(moveFigures.fresh, TARGETS.fresh)],
        ['held `legalMoves()`, µs per position', fmt(moveFigures.heldUs, 3), 'at most 0.3', verdict(moveFigures.heldUs, TARGETS.heldUs)],
        ['`parsePgn` full tree vs chessops', x(pgnRatio), '5x (goal 10x)', verdict(pgnRatio, TARGETS.pgn)],
        ['perft, six CPW positions, vs chessops', x(perftRatio), '80x (goal 120x)', verdict(perftRatio, TARGETS.perft)],
        ['fetch to ready, ms', fmt(ready.ms, 1), 'at most 40', verdict(ready.ms, TARGETS.readyMs)],
      ],
    ),
  );
}

checkBundle();
const version = execFileSync(CHROMIUM, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
console.log(`# chess-native's browser bundle vs chessops ${pkgVersion('chessops')} in ${version}, headless`);
console.log(machine());
const note = loadNote();
if (note) console.log(note);

const options = await pageOptions();
const SECTIONS = ['startup', 'moves', 'pgn', 'perft'];
const only = new Set(String(opts.only).split(','));
for (const name of only) if (!SECTIONS.includes(name)) throw new Error(`--only: no section ${name} (${SECTIONS.join(', ')})`);
const ready = only.has('startup') ? await startup(options) : null;
if (SECTIONS.slice(1).some((name) => only.has(name)))
  await withPage(options, async ({ call, errors }) => {
    const bench = (name, ...args) => call('/bench.mjs', name, ...args);
    await bench('startup');
    const moveFigures = only.has('moves') ? await moves(bench) : null;
    const pgnRatio = only.has('pgn') ? (await pgn(bench)).ratio : null;
    const perftRatio = only.has('perft') ? (await perft(bench)).ratio : null;
    if (errors.length) throw new Error(errors.join('\n'));
    if (only.size === SECTIONS.length) summary({ ready, moveFigures, pgnRatio, perftRatio });
    console.log(`\n${machine()}`);
  });
