// SAN benchmark: chess-native vs chess.js vs chessops, in the same process.
//
//   node bench/san.mjs [--seconds 1] [--rounds 5]
//
// 1. "all legal moves": the SAN of every legal move of a position
//    (chess-native legalMovesSan(); chess.js moves(); chessops makeSan per
//    legal move), over a few positions.
// 2. "replay": a 100-move (200-ply) game given in SAN, played from the
//    start (chess-native playSan per ply, and playSanLine with the array
//    and with PGN movetext "1. e4 e5 2. ..." in one call; chess.js
//    move(san); chessops parseSan+play).
// 3. "export": the same game given in UCI, turned into SAN (chess-native
//    san()+play() per ply, and sanLine(ucis) in one call; chess.js
//    move({from,to,promotion}).san; chessops makeSanAndPlay).
// Sections 2 and 3 interleave their candidates round by round and also
// report CPU time.
// Each measurement is the median of --rounds timed rounds of >= --seconds.
// Needs `npm run build:all` first (loads dist/ like a user would).
import { createRequire } from 'node:module';
import { cpus } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(path.join(ROOT, 'package.json'));
const { Position, engineInfo } = require(path.join(ROOT, 'dist', 'index.js'));
const { Chess: ChessJs } = require('chess.js');
// chessops ships ES modules only.
const { Chess: ChessOps } = await import('chessops/chess');
const { parseFen } = await import('chessops/fen');
const { makeSan, makeSanAndPlay, parseSan } = await import('chessops/san');
const { parseUci } = await import('chessops/util');

function arg(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}
const SECONDS = arg('seconds', 1);
const ROUNDS = arg('rounds', 5);

const POSITIONS = [
  ['start', 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1'],
  ['kiwipete', 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1'],
  ['middlegame', 'r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10'],
  ['promotions', 'n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1'],
];

/** Calls fn() in groups of 8 for >= SECONDS; returns the calls made and the wall time they took (ns). */
function spin(fn) {
  let calls = 0;
  const start = process.hrtime.bigint();
  const deadline = start + BigInt(Math.round(SECONDS * 1e9));
  let now;
  do {
    for (let i = 0; i < 8; i++) fn();
    calls += 8;
    now = process.hrtime.bigint();
  } while (now < deadline);
  return { calls, ns: Number(now - start) };
}

/** Calls fn(), which does `units` units of work, for >= SECONDS; returns ns per unit (median of ROUNDS). */
function measure(fn, units) {
  const results = [];
  for (let round = 0; round < ROUNDS; round++) {
    const { calls, ns } = spin(fn);
    results.push(ns / (calls * units));
  }
  results.sort((a, b) => a - b);
  return results[Math.floor(results.length / 2)];
}

/** Every legal chessops move (castling king-takes-rook, promotions expanded). */
function chessopsMoves(pos) {
  const moves = [];
  for (const [from, dests] of pos.allDests()) {
    const pawn = pos.board.get(from)?.role === 'pawn';
    for (const to of dests) {
      if (pawn && (to >> 3 === 0 || to >> 3 === 7)) {
        for (const promotion of ['queen', 'rook', 'bishop', 'knight']) moves.push({ from, to, promotion });
      } else moves.push({ from, to });
    }
  }
  return moves;
}

/** A deterministic 200-ply game that does not end early (chess-native picks the moves). */
function makeGame(plies) {
  for (let seed = 1; ; seed++) {
    let a = seed;
    const random = () => {
      a = (a + 0x6d2b79f5) >>> 0;
      let t = Math.imul(a ^ (a >>> 15), a | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    const pos = new Position();
    const ucis = [];
    const sans = [];
    while (ucis.length < plies && !pos.isGameOver()) {
      const moves = pos.legalMoves();
      const names = pos.legalMovesSan();
      const i = Math.floor(random() * moves.length);
      ucis.push(moves[i]);
      sans.push(names[i]);
      pos.play(moves[i]);
    }
    if (ucis.length === plies) return { ucis, sans };
  }
}

function row(label, ns) {
  return { label, ns };
}

function report(title, unit, rows) {
  const [ours, js, ops] = rows;
  console.log(`\n${title} (${unit})`);
  for (const r of rows) console.log(`  ${r.label.padEnd(14)} ${r.ns.toFixed(0).padStart(10)} ns`);
  console.log(`  speedup vs chess.js ${(js.ns / ours.ns).toFixed(1)}x, vs chessops ${(ops.ns / ours.ns).toFixed(1)}x`);
  return { title, ours: ours.ns, chessjs: js.ns, chessops: ops.ns };
}

const info = engineInfo();
const results = [];
console.log(`chess-native ${info.version} (${info.impl}), node ${process.version}, ${cpus()[0]?.model ?? 'unknown CPU'}`);
console.log(`median of ${ROUNDS} rounds of >= ${SECONDS} s each`);

// --- 1. all legal moves ------------------------------------------------------
for (const [name, fen] of POSITIONS) {
  const ours = new Position(fen);
  const js = new ChessJs(fen);
  const ops = ChessOps.fromSetup(parseFen(fen).unwrap()).unwrap();
  const opsMoves = chessopsMoves(ops);
  const n = ours.legalMoves().length;
  // Same answers before timing anything.
  const a = [...ours.legalMovesSan()].sort();
  const b = [...js.moves()].sort();
  const c = opsMoves.map((m) => makeSan(ops, m)).sort();
  if (JSON.stringify(a) !== JSON.stringify(b) || JSON.stringify(a) !== JSON.stringify(c)) {
    throw new Error(`${name}: the three libraries disagree on SAN`);
  }
  results.push(
    report(`SAN of all ${n} legal moves: ${name}`, 'per position', [
      row(
        'chess-native',
        measure(() => ours.legalMovesSan(), 1),
      ),
      row(
        'chess.js',
        measure(() => js.moves(), 1),
      ),
      row(
        'chessops',
        measure(() => {
          for (const m of opsMoves) makeSan(ops, m);
        }, 1),
      ),
    ]),
  );
}

// --- 2. replay a SAN game ------------------------------------------------------
//
// Sections 2 and 3 interleave their candidates: each round times every one
// of them once, in turn, so a change in the machine's load hits them alike;
// the medians of wall time and of this process's CPU time are reported.
const game = makeGame(200);
const pgn = (() => {
  const parts = [];
  game.sans.forEach((san, i) => parts.push(i % 2 === 0 ? `${i / 2 + 1}. ${san}` : san));
  return `${parts.join(' ')} *`;
})();
{
  const check = new ChessJs();
  for (const san of game.sans) check.move(san);
  const final = game.ucis.reduce((p, u) => p.play(u), new Position());
  if (check.fen() !== final.fen()) throw new Error('chess.js replays the game to a different position');
  const a = new Position().playSanLine(game.sans);
  const b = new Position().playSanLine(pgn);
  if (a.fen() !== final.fen() || b.fen() !== final.fen() || a.history().join() !== final.history().join()) {
    throw new Error('playSanLine replays the game differently');
  }
}

/** Times each fn (one unit of work per call) for >= SECONDS per round, in turn, ROUNDS times; medians in ns. */
function measureTogether(fns) {
  const wall = fns.map(() => []);
  const cpu = fns.map(() => []);
  for (let round = 0; round < ROUNDS; round++) {
    fns.forEach((fn, k) => {
      const cpuStart = process.cpuUsage();
      const { calls, ns } = spin(fn);
      const used = process.cpuUsage(cpuStart);
      wall[k].push(ns / calls);
      cpu[k].push(((used.user + used.system) * 1000) / calls);
    });
  }
  const median = (xs) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  return fns.map((_, k) => ({ wall: median(wall[k]), cpu: median(cpu[k]) }));
}

const cpuRows = [];
function group(title, unit, ours, others) {
  const [js, ops] = others;
  for (const [label, m] of ours) {
    results.push(report(`${title}: ${label}`, unit, [row('chess-native', m.wall), row('chess.js', js.wall), row('chessops', ops.wall)]));
    cpuRows.push({ title: `${title}: ${label}`, ours: m.cpu, chessjs: js.cpu, chessops: ops.cpu });
  }
}

{
  const [perPly, batchArray, batchPgn, js, ops] = measureTogether([
    () => {
      const pos = new Position();
      for (const san of game.sans) pos.playSan(san);
    },
    () => new Position().playSanLine(game.sans),
    () => new Position().playSanLine(pgn),
    () => {
      const chess = new ChessJs();
      for (const san of game.sans) chess.move(san);
    },
    () => {
      const pos = ChessOps.default();
      for (const san of game.sans) pos.play(parseSan(pos, san));
    },
  ]);
  group(
    'Replay a 100-move game from SAN',
    'per game (200 plies)',
    [
      ['playSan per ply', perPly],
      ['playSanLine(array)', batchArray],
      ['playSanLine(PGN movetext)', batchPgn],
    ],
    [js, ops],
  );
}

// --- 3. write a UCI game as SAN -----------------------------------------------
const opsUci = (() => {
  const pos = ChessOps.default();
  return game.ucis.map((uci) => {
    const move = parseUci(uci);
    // chessops castles king-takes-rook.
    if (pos.board.get(move.from)?.role === 'king' && Math.abs(move.to - move.from) === 2) {
      move.to = move.to > move.from ? move.from + 3 : move.from - 4;
    }
    pos.play(move);
    return move;
  });
})();
const jsMoves = game.ucis.map((u) => ({ from: u.slice(0, 2), to: u.slice(2, 4), promotion: u[4] }));
if (new Position().sanLine(game.ucis).join() !== game.sans.join()) throw new Error('sanLine disagrees');
{
  const [perPly, batch, js, ops] = measureTogether([
    () => {
      const pos = new Position();
      for (const uci of game.ucis) {
        pos.san(uci);
        pos.play(uci);
      }
    },
    () => new Position().sanLine(game.ucis),
    () => {
      const chess = new ChessJs();
      for (const m of jsMoves) chess.move(m);
    },
    () => {
      const pos = ChessOps.default();
      for (const m of opsUci) makeSanAndPlay(pos, m);
    },
  ]);
  group(
    'Write a 100-move UCI game as SAN',
    'per game (200 plies)',
    [
      ['san()+play() per ply', perPly],
      ['sanLine(array)', batch],
    ],
    [js, ops],
  );
}

console.log('\n| benchmark | chess-native | chess.js | chessops | vs chess.js | vs chessops |');
console.log('|---|---:|---:|---:|---:|---:|');
const us = (ns) => (ns >= 1e6 ? `${(ns / 1e6).toFixed(2)} ms` : `${(ns / 1e3).toFixed(2)} µs`);
for (const r of results) {
  console.log(
    `| ${r.title} | ${us(r.ours)} | ${us(r.chessjs)} | ${us(r.chessops)} | ${(r.chessjs / r.ours).toFixed(1)}x | ${(r.chessops / r.ours).toFixed(1)}x |`,
  );
}

console.log('\nCPU time of this process (same rounds; less sensitive to other load than wall time):');
console.log('| benchmark | chess-native | chess.js | chessops | vs chess.js | vs chessops |');
console.log('|---|---:|---:|---:|---:|---:|');
for (const r of cpuRows) {
  console.log(
    `| ${r.title} | ${us(r.ours)} | ${us(r.chessjs)} | ${us(r.chessops)} | ${(r.chessjs / r.ours).toFixed(1)}x | ${(r.chessops / r.ours).toFixed(1)}x |`,
  );
}
