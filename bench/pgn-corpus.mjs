// A reproducible PGN corpus: games of seeded random play with a preference
// for captures, checks and promotions (so castling, promotions and en
// passant all occur), lichess-style [%eval]/[%clk] comments, NAGs and short
// variations, written by the package's own writer. Same seed, same text.
//
//   node bench/pgn-corpus.mjs <out.pgn> [--mb 50] [--seed 1]
//
// generatePgn({ seed, games, variations, comments, chess960, doubleComments })
// returns the text of `games` games (doubleComments: false keeps one comment
// a move, which chess.js needs); the tests use it for their differential checks.
import { createRequire } from 'node:module';
import { openSync, writeSync, closeSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { Position, writePgn } = createRequire(path.join(ROOT, 'package.json'))(path.join(ROOT, 'dist', 'index.js'));

/** mulberry32: a small seeded generator. */
export function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const NAGS = [1, 2, 3, 4, 5, 6, 10, 14, 15, 16, 17, 18, 19, 36];

/** A move: captures, checks and promotions twice as likely. */
function pickMove(pos, random) {
  const moves = pos.legalMoves();
  const sans = pos.legalMovesSan();
  const weighted = [];
  moves.forEach((m, i) => {
    const san = sans[i];
    const n = /[x+=]/.test(san) ? 3 : 1;
    for (let k = 0; k < n; k++) weighted.push(m);
  });
  return weighted[Math.floor(random() * weighted.length)];
}

function clock(seconds) {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor(seconds / 60) % 60;
  const s = seconds % 60;
  return `${h}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}`;
}

function evalText(random) {
  if (random() < 0.03) return `#${random() < 0.5 ? '-' : ''}${1 + Math.floor(random() * 9)}`;
  return ((random() - 0.5) * 6).toFixed(2);
}

/** A line of up to `plies` random moves from pos (pos is not changed). */
function randomLine(pos, plies, random, o, depth) {
  const p = pos.clone();
  const nodes = [];
  let seconds = 180;
  for (let i = 0; i < plies && !p.isGameOver(); i++) {
    const uci = pickMove(p, random);
    const node = { san: p.san(uci), uci, comments: [], nags: [], children: [] };
    if (o.comments) {
      seconds = Math.max(0, seconds - Math.floor(random() * 8));
      node.comments.push(`[%eval ${evalText(random)}] [%clk ${clock(seconds)}]`);
      if (random() < 0.02) {
        if (o.doubleComments === false) node.comments[0] += ' A plain comment, with words.';
        else node.comments.push('A plain comment, with words.');
      }
    }
    if (o.comments && random() < 0.05) node.nags.push(NAGS[Math.floor(random() * NAGS.length)]);
    if (o.variations && depth < 2 && random() < 0.04 && p.legalMoves().length > 1) {
      nodes.push({ node, alt: randomLine(p, 1 + Math.floor(random() * 6), random, o, depth + 1) });
    } else {
      nodes.push({ node });
    }
    p.play(uci);
  }
  // Link the line: each node's first child is the next; an alternative line hangs beside it.
  for (let i = 0; i < nodes.length - 1; i++) nodes[i].node.children.push(nodes[i + 1].node);
  for (let i = 1; i < nodes.length; i++) {
    const alt = nodes[i].alt;
    if (alt && alt[0] && alt[0].node.uci !== nodes[i].node.uci) nodes[i - 1].node.children.push(alt[0].node);
  }
  return nodes;
}

const RESULTS = ['1-0', '0-1', '1/2-1/2', '*'];

function chess960Fen(random) {
  const back = Array(8).fill(null);
  const free = () => back.map((p, i) => (p ? -1 : i)).filter((i) => i >= 0);
  back[2 * Math.floor(random() * 4)] = 'b';
  back[2 * Math.floor(random() * 4) + 1] = 'b';
  let f = free();
  back[f[Math.floor(random() * f.length)]] = 'q';
  f = free();
  back[f[Math.floor(random() * f.length)]] = 'n';
  f = free();
  back[f[Math.floor(random() * f.length)]] = 'n';
  f = free();
  back[f[0]] = 'r';
  back[f[1]] = 'k';
  back[f[2]] = 'r';
  const rank = back.join('');
  const files = 'ABCDEFGH';
  const castling = files[f[2]] + files[f[0]] + files[f[2]].toLowerCase() + files[f[0]].toLowerCase();
  return `${rank}/pppppppp/8/8/8/8/PPPPPPPP/${rank.toUpperCase()} w ${castling} - 0 1`;
}

/** One game's PGN text. */
export function generateGame(index, random, o = {}) {
  const headers = {
    Event: `Generated ${index}`,
    Site: 'https://example.org/' + index,
    Date: '2024.01.' + String(1 + (index % 28)).padStart(2, '0'),
    Round: String(1 + (index % 9)),
    White: `Player ${Math.floor(random() * 1000)}`,
    Black: `Player ${Math.floor(random() * 1000)}`,
    Result: RESULTS[Math.floor(random() * 4)],
    WhiteElo: String(1200 + Math.floor(random() * 1500)),
    BlackElo: String(1200 + Math.floor(random() * 1500)),
    TimeControl: '180+0',
  };
  const chess960 = !!o.chess960;
  let pos = new Position();
  if (chess960) {
    const fen = chess960Fen(random);
    Object.assign(headers, { Variant: 'Chess960', SetUp: '1', FEN: fen });
    pos = new Position(fen, { chess960: true });
  }
  const line = randomLine(pos, 20 + Math.floor(random() * (o.maxPlies ?? 140)), random, o, 0);
  const root = { comments: [], children: line.length ? [line[0].node] : [] };
  return writePgn({ headers, result: headers.Result, root });
}

/** `games` games' text, separated by blank lines. */
export function generatePgn({ seed = 1, games = 10, ...o } = {}) {
  const random = rng(seed);
  const out = [];
  for (let i = 0; i < games; i++) out.push(generateGame(i, random, o));
  return out.join('\n');
}

/** Writes at least `mb` megabytes of games to `file`; returns { bytes, games }. */
export function writeCorpus(file, { mb = 50, seed = 1, variations = true, comments = true } = {}) {
  const random = rng(seed);
  const fd = openSync(file, 'w');
  let bytes = 0;
  let games = 0;
  while (bytes < mb * 1e6) {
    const text = generateGame(games, random, { variations, comments }) + '\n';
    writeSync(fd, text);
    bytes += Buffer.byteLength(text);
    games++;
  }
  closeSync(fd);
  return { bytes, games };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const out = process.argv[2];
  if (!out) {
    console.error('usage: node bench/pgn-corpus.mjs <out.pgn> [--mb 50] [--seed 1]');
    process.exit(2);
  }
  const arg = (name, fallback) => {
    const i = process.argv.indexOf(name);
    return i > 0 ? Number(process.argv[i + 1]) : fallback;
  };
  const { bytes, games } = writeCorpus(out, { mb: arg('--mb', 50), seed: arg('--seed', 1) });
  console.log(`${out}: ${games} games, ${(bytes / 1e6).toFixed(1)} MB`);
}
