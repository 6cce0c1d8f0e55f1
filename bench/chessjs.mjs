// chess-native/chessjs vs chess.js 1.4.0: the same calls on both Chess
// classes, in one process, candidates interleaved round by round.
//
//   node bench/chessjs.mjs [--seconds 0.5] [--rounds 5] [--games 20] [--json]
//
// - moves() and moves({ verbose: true }) on every perftsuite position;
// - move(san) over whole games, then undo() back to the start;
// - loadPgn() of a game, then pgn();
// - fen(), load(fen), isGameOver() on every perftsuite position.
// Games: --games generated games (bench/pgn-corpus.mjs, seeded: legal random
// play weighted towards captures, checks and promotions, 20 to 160 plies).
// Each cell is the median of --rounds rounds of >= --seconds each; --json
// prints the table as a results.json table too.
// Needs `npm run build:all` first (loads dist/ like a user would).
import { Chess as ChessJs } from 'chess.js';
import { machine, parseArgs, pkgVersion, require, ROOT, suitePositions, table } from './common.mjs';
import { readFileSync } from 'node:fs';
import { generatePgn } from './pgn-corpus.mjs';
import path from 'node:path';

const opts = parseArgs(process.argv.slice(2), { seconds: 0.5, rounds: 5, games: 20, json: false });
const { Chess: ChessNative } = require(path.join(ROOT, 'dist', 'chessjs', 'index.js'));

const FENS = suitePositions('all').map((p) => p.fen.split(/\s+/).slice(0, 4).join(' ') + ' 0 1');
const PGNS = generatePgn({ seed: 7, games: opts.games, variations: false, comments: false }).split(/\n(?=\[Event )/);
const GAMES = PGNS.map((text) => {
  const c = new ChessJs();
  c.loadPgn(text);
  return c.history();
});
const PLIES = GAMES.reduce((n, g) => n + g.length, 0);

/** Calls fn() for >= opts.seconds; returns ns per unit (fn does `units` units). */
function spin(fn, units) {
  let calls = 0;
  const start = process.hrtime.bigint();
  const deadline = start + BigInt(Math.round(opts.seconds * 1e9));
  let now;
  do {
    fn();
    calls++;
    now = process.hrtime.bigint();
  } while (now < deadline);
  return Number(now - start) / (calls * units);
}

function median(values) {
  const s = [...values].sort((a, b) => a - b);
  return s[s.length >> 1];
}

/** Each case: a name, the unit it is timed per, and a body run on one Chess class. */
const CASES = [
  [
    'moves()',
    'position',
    FENS.length,
    (Chess) => {
      const boards = FENS.map((f) => new Chess(f));
      return () => {
        for (const c of boards) c.moves();
      };
    },
  ],
  [
    'moves({ verbose: true })',
    'position',
    FENS.length,
    (Chess) => {
      const boards = FENS.map((f) => new Chess(f));
      return () => {
        for (const c of boards) c.moves({ verbose: true });
      };
    },
  ],
  [
    'move(san) + undo()',
    'ply',
    PLIES,
    (Chess) => {
      const c = new Chess();
      return () => {
        for (const game of GAMES) {
          for (const san of game) c.move(san);
          for (let i = 0; i < game.length; i++) c.undo();
        }
      };
    },
  ],
  [
    'loadPgn() + pgn()',
    'game',
    PGNS.length,
    (Chess) => {
      const c = new Chess();
      return () => {
        for (const text of PGNS) {
          c.loadPgn(text);
          c.pgn();
        }
      };
    },
  ],
  [
    'fen()',
    'position',
    FENS.length,
    (Chess) => {
      const boards = FENS.map((f) => new Chess(f));
      return () => {
        for (const c of boards) c.fen();
      };
    },
  ],
  [
    'load(fen)',
    'position',
    FENS.length,
    (Chess) => {
      const c = new Chess();
      return () => {
        for (const f of FENS) c.load(f);
      };
    },
  ],
  [
    'isGameOver()',
    'position',
    FENS.length,
    (Chess) => {
      const boards = FENS.map((f) => new Chess(f));
      return () => {
        for (const c of boards) c.isGameOver();
      };
    },
  ],
];

function fmtTime(ns) {
  return ns >= 1e6 ? `${(ns / 1e6).toFixed(2)} ms` : ns >= 1e3 ? `${(ns / 1e3).toFixed(2)} µs` : `${ns.toFixed(0)} ns`;
}

const rows = [];
for (const [name, unit, units, make] of CASES) {
  const ours = make(ChessNative);
  const theirs = make(ChessJs);
  ours();
  theirs();
  const a = [];
  const b = [];
  for (let r = 0; r < opts.rounds; r++) {
    a.push(spin(ours, units));
    b.push(spin(theirs, units));
  }
  const ratios = a.map((x, i) => b[i] / x);
  rows.push([`${name}, per ${unit}`, fmtTime(median(a)), fmtTime(median(b)), `${median(ratios).toFixed(1)}x`]);
  console.error(`${name}: done`);
}

const head = ['call', 'chess-native/chessjs', 'chess.js', 'speed-up'];
const version = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version;
console.log(`chess-native ${version} chessjs facade vs chess.js ${pkgVersion('chess.js')}; ${machine()}`);
console.log(
  `${FENS.length} perftsuite positions; ${PGNS.length} generated games, ${PLIES} plies; ${opts.rounds} rounds of >= ${opts.seconds} s`,
);
console.log(table(head, rows));
if (opts.json) console.log(JSON.stringify({ head, rows }, null, 1));
