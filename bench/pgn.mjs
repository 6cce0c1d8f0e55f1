// PGN benchmark: chess-native's reader against chessops and chess.js, in
// one process, on a reproducible generated corpus (bench/pgn-corpus.mjs).
//
//   node bench/pgn.mjs [--mb 50] [--tree-mb 2] [--rounds 3] [--seed 1]
//
// 1. "mainline, file path": readPgn(file, { mode: 'mainline' }) over the
//    whole corpus (--mb, default 50 MB): every mainline move validated
//    natively on the worker thread; each game's moves() is materialised.
//    Reported in MB/s and games/s, for `threads: 1` and `threads: 2`
//    (--threads, default 2) interleaved round by round, with their ratio
//    and the load average (the ratio needs two idle cores).
//    A second row, "headers only", reads the same file the same way (every
//    mainline move still validated natively) but takes of each game only
//    its headers and errors, not moves(): the native reading's own figure
//    for threads 1 vs 2, which the JS side of the first row bounds.
//    A third, "games counted", takes of each game only its errors: the
//    least a caller can do, so the nearest to the native reading alone.
//    Each row also gives the process CPU time of a round (both native
//    threads and the JS thread) and the ratio that CPU time allows: two
//    threads cannot finish before the CPU time divided by the cores.
// 2. "tree, string": the first --tree-mb megabytes of a corpus whose games
//    carry one comment a move (chess.js reads no more), parsed from a
//    string: chess-native parsePgn + root + moves() for every game;
//    chessops parsePgn + parseSan and play on every node of the tree;
//    chess.js loadPgn per game. Candidates interleave round by round; the
//    median round is reported, with the ratios to chess-native.
//    1 vs 2 threads only: node bench/pgn.mjs --mainline-only
// The corpus is cached in the system temp folder by seed and size.
import { createRequire } from 'node:module';
import { existsSync, statSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generatePgn, writeCorpus } from './pgn-corpus.mjs';
import { apiTreeNodes, chessopsTreeNodes, treeText } from './pgn-tree.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(path.join(ROOT, 'package.json'));
const { parsePgn, readPgn, engineInfo } = require(path.join(ROOT, 'dist', 'index.js'));
const { Chess: ChessJs } = require('chess.js');

function arg(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}
const MB = arg('mb', 50);
const TREE_MB = arg('tree-mb', 2);
const ROUNDS = arg('rounds', 3);
const SEED = arg('seed', 1);
const THREADS = arg('threads', 2);
const MAINLINE_ONLY = process.argv.includes('--mainline-only');

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function corpus() {
  const file = path.join(tmpdir(), `chess-native-pgn-${SEED}-${MB}mb.pgn`);
  if (!existsSync(file)) {
    const t = performance.now();
    const { games } = writeCorpus(file, { mb: MB, seed: SEED });
    console.log(`generated ${file}: ${games} games in ${((performance.now() - t) / 1000).toFixed(0)} s`);
  }
  return file;
}

// A round's wall and process CPU time (every thread of the process).
function clock() {
  const t = performance.now();
  const cpu = process.cpuUsage();
  return () => {
    const used = process.cpuUsage(cpu);
    return { seconds: (performance.now() - t) / 1000, cpuSeconds: (used.user + used.system) / 1e6 };
  };
}

async function mainlineRound(file, threads) {
  const stop = clock();
  let games = 0;
  let plies = 0;
  let errors = 0;
  for await (const g of readPgn(file, { mode: 'mainline', threads })) {
    games++;
    plies += g.moves().length;
    errors += g.errors.length;
  }
  return { ...stop(), games, plies, errors };
}

// The same read with moves() left alone: games counted, headers and errors read.
async function headersOnlyRound(file, threads) {
  const stop = clock();
  let games = 0;
  let tags = 0;
  let errors = 0;
  for await (const g of readPgn(file, { mode: 'mainline', threads })) {
    games++;
    tags += Object.keys(g.headers).length;
    errors += g.errors.length;
  }
  return { ...stop(), games, tags, errors };
}

// The same read taking of each game only its errors.
async function countedRound(file, threads) {
  const stop = clock();
  let games = 0;
  let errors = 0;
  for await (const g of readPgn(file, { mode: 'mainline', threads })) {
    games++;
    errors += g.errors.length;
  }
  return { ...stop(), games, errors };
}

// The fields of a round that are timings, not counts.
const TIMED = new Set(['seconds', 'cpuSeconds']);

// Rounds of `round` on 1 and THREADS threads, interleaved; prints the median
// round of each with `counts` of it. Every median round must read what the
// first round read. Returns the ratio of the medians (1 thread / THREADS).
async function compareThreads(file, round, label, counts) {
  const bytes = statSync(file).size;
  const load = loadavg()[0];
  const byThreads = new Map([
    [1, []],
    [THREADS, []],
  ]);
  for (let r = 0; r < ROUNDS; r++) for (const [threads, runs] of byThreads) runs.push(await round(file, threads));
  const first = byThreads.get(1)[0];
  const seconds = new Map();
  const cpuSeconds = new Map();
  for (const [threads, runs] of byThreads) {
    const m = runs.find((x) => x.seconds === median(runs.map((y) => y.seconds)));
    if (Object.keys(first).some((k) => !TIMED.has(k) && m[k] !== first[k])) throw new Error('thread counts read differently');
    seconds.set(threads, m.seconds);
    cpuSeconds.set(threads, median(runs.map((y) => y.cpuSeconds)));
    console.log(
      `${label}, threads ${threads}: ${counts(m)}: ` +
        `${(bytes / 1e6 / m.seconds).toFixed(1)} MB/s, ${(m.games / m.seconds).toFixed(0)} games/s, ` +
        `process CPU ${cpuSeconds.get(threads).toFixed(3)} s (medians of ${ROUNDS})`,
    );
  }
  // Two threads cannot finish before their round's CPU time spread over the cores.
  const fastest = Math.max(cpuSeconds.get(THREADS) / Math.min(THREADS, cpus().length), seconds.get(1) / THREADS);
  return { ratio: seconds.get(1) / seconds.get(THREADS), bound: seconds.get(1) / fastest, load, games: first.games };
}

function chessjs(games) {
  let plies = 0;
  const chess = new ChessJs();
  for (const g of games) {
    chess.loadPgn(g);
    plies += chess.history().length;
  }
  return plies;
}

function time(f) {
  const t = performance.now();
  const n = f();
  return { seconds: (performance.now() - t) / 1000, n };
}

function ratioLine(r) {
  return (
    `${r.ratio.toFixed(2)}x (at most ${r.bound.toFixed(2)}x for the process CPU time of a round; ` +
    `load average ${r.load.toFixed(2)} before, ${loadavg()[0].toFixed(2)} after)`
  );
}

async function main() {
  const info = engineInfo();
  console.log(`chess-native ${info.version} (${info.impl}), node ${process.version}, ${cpus()[0]?.model ?? '?'}`);
  const file = corpus();
  const bytes = statSync(file).size;
  await mainlineRound(file, 1); // warm-up (and the file in the page cache)
  const mainline = await compareThreads(
    file,
    mainlineRound,
    'mainline, file path',
    (m) => `${(bytes / 1e6).toFixed(1)} MB, ${m.games} games, ${m.plies} plies, ${m.errors} errors`,
  );
  console.log(`  threads ${THREADS} vs 1: ${ratioLine(mainline)}, ${cpus().length} cores`);
  const headers = await compareThreads(
    file,
    headersOnlyRound,
    'mainline, file path, headers only (no moves())',
    (m) => `${m.games} games, ${m.tags} tags, ${m.errors} errors`,
  );
  if (headers.games !== mainline.games) throw new Error('headers-only rounds read other games');
  console.log(`  headers only, threads ${THREADS} vs 1: ${ratioLine(headers)}`);
  const counted = await compareThreads(
    file,
    countedRound,
    'mainline, file path, games counted (errors only)',
    (m) => `${m.games} games, ${m.errors} errors`,
  );
  if (counted.games !== mainline.games) throw new Error('counting rounds read other games');
  console.log(`  games counted, threads ${THREADS} vs 1: ${ratioLine(counted)}`);
  if (MAINLINE_ONLY) return;

  const text = treeText(generatePgn, TREE_MB, SEED);
  const split = text.split(/\n(?=\[Event )/);
  const treeBytes = Buffer.byteLength(text);
  const results = { 'chess-native': [], chessops: [], 'chess.js': [] };
  let nodes = 0;
  for (let r = 0; r < ROUNDS; r++) {
    const a = time(() => apiTreeNodes(parsePgn, text));
    const b = time(() => chessopsTreeNodes(text));
    const c = time(() => chessjs(split));
    if (a.n !== b.n) throw new Error(`node counts differ: ${a.n} vs chessops ${b.n}`);
    nodes = a.n;
    results['chess-native'].push(a.seconds);
    results.chessops.push(b.seconds);
    results['chess.js'].push(c.seconds);
  }
  const base = median(results['chess-native']);
  console.log(`tree, string: ${(treeBytes / 1e6).toFixed(1)} MB, ${split.length} games, ${nodes} nodes (median of ${ROUNDS})`);
  for (const [name, secs] of Object.entries(results)) {
    const s = median(secs);
    console.log(
      `  ${name.padEnd(13)} ${(s * 1000).toFixed(0).padStart(7)} ms  ${(treeBytes / 1e6 / s).toFixed(2).padStart(7)} MB/s  ` +
        `${((s * 1e9) / nodes).toFixed(0).padStart(6)} ns/node  ${(s / base).toFixed(1)}x chess-native's time`,
    );
  }
}

await main();
