#!/usr/bin/env node
// Legal move lists: chess-native against chessops and chess.js in the same
// run, on the six CPW positions plus a few from perftsuite.epd, or on every
// perftsuite.epd position (--suite: 126 positions, several minutes).
//
//   node bench/movegen.mjs [--batches 15] [--batch-ms 20] [--warmup-ms 150] [--suite]
//
// What is timed, per call:
//   FEN -> UCI list
//     chess-native  new Position(fen).legalMoves()           (sorted UCI strings)
//     chessops      Chess.fromSetup(parseFen(fen)) + allDests(), turned into UCI
//                   strings: castling king-takes-rook -> e1g1/e1c1, one string per
//                   promotion piece; square names from a 64-entry table (cheaper
//                   than makeUci); left unsorted
//     chess.js      new Chess(fen).moves({ verbose: true }).map(m => m.lan)
//   held position (parsed once, outside the timing)
//     chess-native  pos.legalMoves()
//     chessops      allDests() -> UCI list as above; and count-only (sum of the
//                   destination set sizes, promotions x4, no strings)
//     chess.js      moves() (SAN strings, its cheapest list) and
//                   moves({ verbose: true }).map(m => m.lan)
// Every library's list is checked against the others (as sets) first.
// Each (method, position) pair is warmed up, then timed in --batches batches
// of about --batch-ms each, interleaved across methods and positions so load
// changes hit all alike; figures are medians of the per-batch ns/call.
// Aggregates are the time for one call on each position (sum over positions),
// and their ratios are medians [p25-p75] of the per-batch ratios; a second row
// does the same with on-CPU time (process.cpuUsage, GC helper threads included).
import { chessopsFromFen, chessopsUci, chessopsCount } from './chessops-moves.mjs';
import { Chess as ChessJs } from 'chess.js';
import {
  CPW,
  suitePositions,
  parseArgs,
  median,
  fmt,
  now,
  table,
  loadEngine,
  machine,
  loadNote,
  gitState,
  pkgVersion,
  iqr,
  pinAddon,
} from './common.mjs';

const opts = parseArgs(process.argv.slice(2), { batches: 15, batchMs: 20, warmupMs: 150, suite: false });

pinAddon();
const { api, addon, stale } = loadEngine();
const { Position } = api;
const info = api.engineInfo();

const positions = opts.suite ? suitePositions('all') : [...CPW.map(({ name, fen }) => ({ name, fen })), ...suitePositions()];

const lan = (m) => m.lan;

// --- methods -----------------------------------------------------------------------
// Each: prepare(fen) -> state held outside the timing; run(state) -> a list or a count.

const FEN_METHODS = [
  { id: 'cn', label: 'chess-native', prepare: (fen) => fen, run: (fen) => new Position(fen).legalMoves() },
  { id: 'co', label: 'chessops', prepare: (fen) => fen, run: (fen) => chessopsUci(chessopsFromFen(fen)) },
  { id: 'cj', label: 'chess.js', prepare: (fen) => fen, run: (fen) => new ChessJs(fen).moves({ verbose: true }).map(lan) },
];
const HELD_METHODS = [
  // A second construction takes the constructor's move list (kept for the
  // first legalMoves() of the newest position) away from the held one, so
  // that every held position pays for its listing.
  {
    id: 'cn',
    label: 'chess-native legalMoves()',
    prepare: (fen) => {
      const pos = new Position(fen);
      new Position(fen);
      return pos;
    },
    run: (pos) => pos.legalMoves(),
  },
  { id: 'co', label: 'chessops allDests -> UCI', prepare: chessopsFromFen, run: chessopsUci },
  { id: 'coCount', label: 'chessops count only', prepare: chessopsFromFen, run: chessopsCount },
  { id: 'cjSan', label: 'chess.js moves() (SAN)', prepare: (fen) => new ChessJs(fen), run: (c) => c.moves() },
  { id: 'cj', label: 'chess.js verbose -> lan', prepare: (fen) => new ChessJs(fen), run: (c) => c.moves({ verbose: true }).map(lan) },
];

// --- correctness ---------------------------------------------------------------------

function sameSet(a, b) {
  if (a.length !== b.length) return false;
  const s = [...a].sort();
  const t = [...b].sort();
  return s.every((x, i) => x === t[i]);
}

for (const p of positions) {
  const ref = new Position(p.fen).legalMoves();
  if (p.d1 !== undefined && ref.length !== p.d1) throw new Error(`${p.name}: ${ref.length} moves, suite says ${p.d1}`);
  for (const m of [...FEN_METHODS, ...HELD_METHODS]) {
    const got = m.run(m.prepare(p.fen));
    const ok = typeof got === 'number' ? got === ref.length : m.id === 'cjSan' ? got.length === ref.length : sameSet(got, ref);
    if (!ok)
      throw new Error(`${p.name}: ${m.label} disagrees with chess-native:\n  ${[].concat(got).sort().join(' ')}\n  ${ref.join(' ')}`);
  }
}

// --- timing --------------------------------------------------------------------------

let sink = 0;
function consume(r) {
  sink += typeof r === 'number' ? r : r.length;
}

function timeCalls(m, state, iterations) {
  const t0 = now();
  for (let i = 0; i < iterations; i++) consume(m.run(state));
  return (now() - t0) / iterations;
}

/** Warms up and sizes a batch to about batchMs. */
function calibrate(m, state) {
  let iterations = 4;
  const end = now() + opts.warmupMs / 1000;
  let per = timeCalls(m, state, iterations);
  while (now() < end) {
    iterations = Math.max(2, Math.min(1 << 20, Math.round(opts.batchMs / 1000 / Math.max(per, 1e-9) / 4)));
    per = timeCalls(m, state, iterations);
  }
  return Math.max(2, Math.round(opts.batchMs / 1000 / per));
}

function measure(methods) {
  const cells = methods.map((m) =>
    positions.map((p) => {
      const state = m.prepare(p.fen);
      return { state, iterations: calibrate(m, state), samples: [], cpu: [] };
    }),
  );
  for (let b = 0; b < opts.batches; b++) {
    // Rotate the method order each batch.
    for (let k = 0; k < methods.length; k++) {
      const mi = (k + b) % methods.length;
      for (let pi = 0; pi < positions.length; pi++) {
        const cell = cells[mi][pi];
        const c0 = process.cpuUsage();
        cell.samples.push(timeCalls(methods[mi], cell.state, cell.iterations) * 1e9);
        const c = process.cpuUsage(c0);
        cell.cpu.push(((c.user + c.system) * 1e3) / cell.iterations);
      }
    }
  }
  return cells;
}

function report(title, methods, cells, versus) {
  const ci = methods.findIndex((m) => m.id === 'cn');
  const med = cells.map((row) => row.map((c) => median(c.samples)));
  const headers = [
    'position',
    'moves',
    ...methods.map((m) => `${m.label} ns`),
    ...versus.map((id) => `${methods.find((m) => m.id === id).label} / cn`),
  ];
  const rows = positions.map((p, pi) => {
    const n = new Position(p.fen).legalMoves().length;
    return [
      p.name,
      n,
      ...med.map((r) => fmt(r[pi], 0)),
      ...versus.map((id) => fmt(med[methods.findIndex((m) => m.id === id)][pi] / med[ci][pi], 1)),
    ];
  });
  // Aggregate: one call on every position, per batch; ratios per batch, so
  // each pairs the libraries under the same load. IQR: robust to the odd stall.
  const sums = (field) => cells.map((row) => Array.from({ length: opts.batches }, (_, b) => row.reduce((s, c) => s + c[field][b], 0)));
  const perBatch = sums('samples');
  const perBatchCpu = sums('cpu');
  const aggRatio = (id, data = perBatch) => {
    const mi = methods.findIndex((m) => m.id === id);
    return data[mi].map((t, b) => t / data[ci][b]);
  };
  rows.push(['all positions (sum)', '', ...perBatch.map((r) => fmt(median(r), 0)), ...versus.map((id) => iqr(aggRatio(id), 1))]);
  rows.push([
    '  same, on-CPU time',
    '',
    ...perBatchCpu.map((r) => fmt(median(r), 0)),
    ...versus.map((id) => iqr(aggRatio(id, perBatchCpu), 1)),
  ]);
  console.log(`\n${title}`);
  console.log(table(headers, rows));
  return Object.fromEntries(versus.map((id) => [id, { wall: median(aggRatio(id)), cpu: median(aggRatio(id, perBatchCpu)) }]));
}

console.log(`\n## movegen: chess-native vs chessops ${pkgVersion('chessops')} and chess.js ${pkgVersion('chess.js')}`);
console.log(`engine ${info.version}: sliders=${info.sliders} impl=${info.impl} (addon ${addon}); ${gitState()}`);
console.log(`${machine()}; ${positions.length} positions; ${opts.batches} batches of ~${opts.batchMs} ms per method and position`);
if (stale.length) console.log(`  WARNING: csrc/ files modified after the addon was built (${stale.join(', ')})`);
const busy = loadNote();
if (busy) console.log(busy);

const fenCells = measure(FEN_METHODS);
const held = measure(HELD_METHODS);
const fenAgg = report('FEN -> UCI list (ns per call; medians; ratio = peer time / chess-native time)', FEN_METHODS, fenCells, ['co', 'cj']);
const heldAgg = report('held position -> move list (ns per call; medians; ratio = peer time / chess-native time)', HELD_METHODS, held, [
  'co',
  'coCount',
  'cjSan',
  'cj',
]);

const verdict = (r, target) =>
  `${fmt(r.wall, 1)}x (on-CPU ${fmt(r.cpu, 1)}x; required >= ${target}x: ${r.wall >= target ? 'MET' : 'NOT MET'})`;
console.log(`\nFEN -> UCI list vs chessops: ${verdict(fenAgg.co, 20)}; vs chess.js: ${fmt(fenAgg.cj.wall, 1)}x`);
console.log(
  `held position vs chessops UCI list: ${verdict(heldAgg.co, 2)}; vs chessops count only: ${fmt(heldAgg.coCount.wall, 1)}x; ` +
    `vs chess.js moves(): ${fmt(heldAgg.cjSan.wall, 1)}x, verbose: ${fmt(heldAgg.cj.wall, 1)}x`,
);
if (sink === 0) console.log('(nothing was generated?)');
