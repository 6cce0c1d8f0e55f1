// The standard perft suites through the JS API, at small depths (the C
// tests go deeper): every published count up to LIMIT leaves, divide against
// perft, and the legal move lists against chessops as an independent oracle.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Chess } from 'chessops/chess';
import { parseFen } from 'chessops/fen';
import { makeSquare } from 'chessops/util';
import { api, PERFT_DIR, readEpd, STANDARD_SUITES, type EpdLine } from './helpers';

const { Position } = api;

/** Counts up to this many leaves are checked through the JS API. */
const LIMIT = 200_000n;

function checked(line: EpdLine): [number, bigint][] {
  return [...line.counts].filter(([, n]) => n <= LIMIT);
}

describe('test data', () => {
  it('every suite file is the one SOURCES.md describes (SHA256SUMS)', () => {
    const listed = new Map(
      readFileSync(path.join(PERFT_DIR, 'SHA256SUMS'), 'utf8')
        .trim()
        .split('\n')
        .map((line) => line.split(/\s+/).reverse() as [string, string]),
    );
    const files = [
      ...readdirSync(PERFT_DIR).filter((f) => f.endsWith('.epd')),
      ...readdirSync(path.join(PERFT_DIR, 'pgn')).map((f) => `pgn/${f}`),
    ].sort();
    expect([...listed.keys()].sort()).toEqual(files);
    for (const file of files) {
      const digest = createHash('sha256')
        .update(readFileSync(path.join(PERFT_DIR, file)))
        .digest('hex');
      expect(digest, file).toBe(listed.get(file));
    }
  });
});

/** chessops' legal moves for a FEN, in this package's UCI convention (e1g1 castling). */
function chessopsMoves(fen: string): string[] | null {
  const setup = parseFen(fen);
  if (setup.isErr) return null;
  const pos = Chess.fromSetup(setup.value);
  if (pos.isErr) return null;
  const chess = pos.value;
  const out: string[] = [];
  for (const [from, dests] of chess.allDests()) {
    const piece = chess.board.get(from);
    for (const to of dests) {
      const target = chess.board.get(to);
      if (piece?.role === 'king' && target?.role === 'rook' && target.color === piece.color) {
        // chessops encodes castling as king-takes-rook.
        const rank = Math.floor(from / 8);
        const file = to > from ? 6 : 2;
        out.push(makeSquare(from) + makeSquare(rank * 8 + file));
      } else if (piece?.role === 'pawn' && (Math.floor(to / 8) === 0 || Math.floor(to / 8) === 7)) {
        for (const p of ['b', 'n', 'q', 'r']) out.push(makeSquare(from) + makeSquare(to) + p);
      } else {
        out.push(makeSquare(from) + makeSquare(to));
      }
    }
  }
  return out.sort();
}

for (const suite of STANDARD_SUITES) {
  const lines = readEpd(suite);

  describe(suite, { timeout: 60_000 }, () => {
    it('has the positions the suite documents', () => {
      expect(lines.length).toBeGreaterThan(0);
      for (const line of lines) expect(line.counts.size).toBeGreaterThan(0);
    });

    it(`perft matches every published count <= ${LIMIT}`, () => {
      let compared = 0;
      for (const line of lines) {
        const pos = new Position(line.fen);
        for (const [depth, count] of checked(line)) {
          expect(pos.perft(depth), `${suite}:${line.line} D${depth}`).toBe(Number(count));
          expect(pos.perftBig(depth), `${suite}:${line.line} D${depth} (bigint)`).toBe(count);
          compared++;
        }
      }
      // Every line publishes at least one small count except the deep-only ones.
      expect(compared).toBeGreaterThan(lines.length / 2);
    });

    it('divide sums to the published count and lists exactly the legal moves', () => {
      for (const line of lines) {
        const usable = checked(line).filter(([d]) => d >= 1);
        const deepest = usable[usable.length - 1];
        if (deepest === undefined) continue;
        const [depth, count] = deepest;
        const pos = new Position(line.fen);
        const divide = pos.divide(depth);
        const keys = Object.keys(divide);
        expect(keys, `${suite}:${line.line}`).toEqual(pos.legalMoves());
        const sum = Object.values(divide).reduce((a, b) => a + b, 0);
        expect(sum, `${suite}:${line.line} divide(${depth})`).toBe(Number(count));
        const big = pos.divideBig(depth);
        expect(Object.keys(big)).toEqual(keys);
        for (const k of keys) expect(big[k]).toBe(BigInt(divide[k] as number));
      }
    });

    it('legal moves: sorted, unique, D1-sized, each playable, and play+perft agrees with the counts', () => {
      for (const line of lines) {
        const pos = new Position(line.fen);
        const fen = pos.fen();
        const moves = pos.legalMoves();
        expect([...moves].sort(), `${suite}:${line.line} sorted`).toEqual(moves);
        expect(new Set(moves).size).toBe(moves.length);
        const d1 = line.counts.get(1);
        if (d1 !== undefined) expect(moves.length, `${suite}:${line.line} D1`).toBe(Number(d1));
        for (const m of moves) expect(m).toMatch(/^[a-h][1-8][a-h][1-8][qrbn]?$/);

        // Make every move through play(); the children's perft must add up to
        // the smallest published count of depth >= 2.
        const target = checked(line).find(([d]) => d >= 2);
        let sum = 0;
        for (const m of moves) {
          expect(pos.isLegal(m)).toBe(true);
          pos.play(m);
          if (target) sum += pos.perft(target[0] - 1);
          expect(pos.undo()).toBe(m);
          expect(pos.fen()).toBe(fen);
        }
        if (target) expect(sum, `${suite}:${line.line} D${target[0]} via play`).toBe(Number(target[1]));
      }
    });

    if (suite !== 'unreachable.epd') {
      it('legal move sets equal chessops on every position', () => {
        const rejected: number[] = [];
        for (const line of lines) {
          const expected = chessopsMoves(line.fen);
          if (expected === null) {
            rejected.push(line.line);
            continue;
          }
          expect(new Position(line.fen).legalMoves(), `${suite}:${line.line}`).toEqual(expected);
        }
        // chessops validates positions more strictly; none of these suites' lines should be refused.
        expect(rejected).toEqual([]);
      });
    }
  });
}

describe('64-bit counts', () => {
  it('a published count above 2^32 crosses the boundary exactly (cpw.epd line 7, D6, ~7e9 leaves)', { timeout: 120_000 }, () => {
    const line = readEpd('cpw.epd')[6]!;
    const count = line.counts.get(6)!;
    expect(count).toBeGreaterThan(2n ** 32n);
    expect(new Position(line.fen).perft(6)).toBe(Number(count));
  });
});
