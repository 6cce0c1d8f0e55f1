// Differential testing against chessops (an independent TypeScript move
// generator): the legal move set at every ply of seeded random games, in
// standard chess and Chess960; and the published perft counts on both slider
// paths (pext and magic), each forced in its own process through
// CHESS_NATIVE_SLIDERS.
//
// `npm test` checks DIFF_POSITIONS positions (default 100k); set
// CHESS_NATIVE_DIFF_POSITIONS to change it.
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Chess, normalizeMove } from 'chessops/chess';
import { parseFen } from 'chessops/fen';
import { makeSquare, parseUci } from 'chessops/util';
import { api, readEpd, ROOT, rng } from './helpers';

const { Position, START_FEN } = api;
const DIFF_POSITIONS = Number(process.env.CHESS_NATIVE_DIFF_POSITIONS ?? 100_000);

/** chessops' legal moves in this package's UCI for the mode. */
function chessopsMoves(chess: Chess, chess960: boolean): string[] {
  const out: string[] = [];
  for (const [from, dests] of chess.allDests()) {
    const piece = chess.board.get(from)!;
    for (const to of dests) {
      const target = chess.board.get(to);
      if (piece.role === 'king' && target?.role === 'rook' && target.color === piece.color) {
        // chessops writes castling as king-takes-rook; standard UCI wants the king's square.
        const kingTo = Math.floor(from / 8) * 8 + (to > from ? 6 : 2);
        out.push(makeSquare(from) + makeSquare(chess960 ? to : kingTo));
      } else if (piece.role === 'pawn' && (to >> 3 === 0 || to >> 3 === 7)) {
        for (const p of 'bnqr') out.push(makeSquare(from) + makeSquare(to) + p);
      } else {
        out.push(makeSquare(from) + makeSquare(to));
      }
    }
  }
  return out.sort();
}

function startPositions(): [string, boolean][] {
  const out: [string, boolean][] = [[START_FEN, false]];
  for (const line of readEpd('fischer.epd').slice(0, 200)) out.push([line.fen, true]);
  for (const line of readEpd('perftsuite.epd')) out.push([line.fen, false]);
  return out;
}

describe('differential: chessops', () => {
  it(`legal move sets agree on ${DIFF_POSITIONS} random-game positions`, { timeout: 900_000 }, () => {
    const starts = startPositions();
    let positions = 0;
    let games = 0;
    let castles = 0;
    let enPassants = 0;
    let promotions = 0;
    while (positions < DIFF_POSITIONS) {
      const seed = games++;
      const random = rng(seed);
      const [fen, chess960] = starts[seed % starts.length]!;
      const pos = new Position(fen, { chess960 });
      const setup = parseFen(fen).unwrap();
      const chess = Chess.fromSetup(setup).unwrap();
      for (let ply = 0; ply < 160 && positions < DIFF_POSITIONS; ply++) {
        const ours = pos.legalMoves().sort();
        const theirs = chessopsMoves(chess, chess960);
        positions++;
        if (ours.join() !== theirs.join()) {
          // Name the game and the position, then fail with the difference.
          expect({ seed, ply, fen: pos.fen(), onlyOurs: ours.filter((m) => !theirs.includes(m)) }).toEqual({
            seed,
            ply,
            fen: pos.fen(),
            onlyOurs: [],
          });
          expect({ seed, ply, fen: pos.fen(), onlyTheirs: theirs.filter((m) => !ours.includes(m)) }).toEqual({
            seed,
            ply,
            fen: pos.fen(),
            onlyTheirs: [],
          });
        }
        expect(pos.inCheck(), `seed ${seed} ply ${ply}`).toBe(chess.isCheck());
        if (ours.length === 0) break;
        const uci = ours[Math.floor(random() * ours.length)]!;
        const move = parseUci(uci)!;
        const mover = chess.board.get((move as { from: number }).from)!;
        const target = chess.board.get(move.to);
        if (mover.role === 'king' && (target?.color === mover.color || Math.abs(move.to - (move as { from: number }).from) === 2))
          castles++;
        if (mover.role === 'pawn' && !target && (move.to & 7) !== ((move as { from: number }).from & 7)) enPassants++;
        if ('promotion' in move && move.promotion) promotions++;
        pos.play(uci);
        chess.play(normalizeMove(chess, move));
      }
    }
    console.log(
      `chessops: ${positions} positions in ${games} games agree (${castles} castlings, ${enPassants} en passant, ${promotions} promotions played)`,
    );
    expect(positions).toBe(DIFF_POSITIONS);
    expect(castles).toBeGreaterThan(0);
    expect(enPassants).toBeGreaterThan(0);
    expect(promotions).toBeGreaterThan(0);
  });
});

describe('perft suites on both slider paths', () => {
  // Each path in a fresh process: the path is chosen once, at load.
  const script = `
    const api = require(${JSON.stringify(path.join(ROOT, 'dist', 'index.js'))});
    const lines = JSON.parse(require('node:fs').readFileSync(0, 'utf8'));
    const out = { sliders: api.engineInfo().sliders, impl: api.engineInfo().impl, counts: [] };
    for (const [fen, chess960, depth] of lines) out.counts.push(String(new api.Position(fen, { chess960 }).perftBig(depth)));
    process.stdout.write(JSON.stringify(out));
  `;
  const jobs: [string, boolean, number, bigint][] = [];
  const files: [string, boolean][] = [
    ['perftsuite.epd', false],
    ['cpw.epd', false],
    ['tricky.epd', false],
    ['unreachable.epd', false],
    ['tricky960.epd', true],
    ['fischer.epd', true],
  ];
  for (const [file, chess960] of files) {
    for (const line of readEpd(file)) {
      for (const [depth, count] of line.counts) if (count <= 100_000n) jobs.push([line.fen, chess960, depth, count]);
    }
  }

  for (const sliders of ['magic', 'pext'] as const) {
    it(`CHESS_NATIVE_SLIDERS=${sliders}: ${jobs.length} published counts`, { timeout: 300_000 }, (ctx) => {
      let text: string;
      try {
        text = execFileSync(process.execPath, ['-e', script], {
          input: JSON.stringify(jobs.map(([f, c, d]) => [f, c, d])),
          env: { ...process.env, CHESS_NATIVE_SLIDERS: sliders },
          encoding: 'utf8',
          maxBuffer: 64 << 20,
        });
      } catch (e) {
        // A CPU without BMI2 cannot force pext: the load fails and says so.
        if (sliders === 'pext' && /pext|bmi2|unsupported/i.test(String((e as { stderr?: string }).stderr))) {
          ctx.skip();
          return;
        }
        throw e;
      }
      const out = JSON.parse(text) as { sliders: string; impl: string; counts: string[] };
      expect(out.sliders).toBe(sliders);
      const wrong = jobs.filter(([, , , count], i) => out.counts[i] !== String(count));
      expect(wrong.map(([fen, , depth, count]) => `${fen} D${depth}: expected ${count}`)).toEqual([]);
    });
  }
});
