// Shared helpers for the vitest suites. Tests go through the compiled package
// (dist/, loaded with require like a user would), not through src/.
import { createRequire } from 'node:module';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

if (!existsSync(path.join(ROOT, 'dist', 'index.js'))) {
  throw new Error('dist/ is missing: run `npm run build` before the tests');
}

const require = createRequire(import.meta.url);
export const api = require('../dist/index.js') as typeof import('../src/index');

/** The perft suites with their published counts (test/data, provenance in test/data/SOURCES.md). */
export const PERFT_DIR = path.join(ROOT, 'test', 'data');

export interface EpdLine {
  /** 1-based line number in the file. */
  line: number;
  fen: string;
  /** Published leaf counts by depth. */
  counts: Map<number, bigint>;
}

/** Parses `<FEN> ;D1 <n> ;D2 <n> ...` lines (see test/data/SOURCES.md). */
export function readEpd(file: string): EpdLine[] {
  const text = readFileSync(path.join(PERFT_DIR, file), 'utf8');
  return text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l, i) => {
      const [fen, ...fields] = l.split(';');
      const counts = new Map<number, bigint>();
      for (const field of fields) {
        const m = /^\s*D(\d+)\s+(\d+)\s*$/.exec(field);
        if (!m) throw new Error(`${file}:${i + 1}: cannot parse ${JSON.stringify(field)}`);
        counts.set(Number(m[1]), BigInt(m[2] as string));
      }
      return { line: i + 1, fen: (fen as string).trim(), counts };
    });
}

/** The standard-chess perft suites (fischer.epd and tricky960.epd need Chess960 mode). */
export const STANDARD_SUITES = ['perftsuite.epd', 'cpw.epd', 'tricky.epd', 'unreachable.epd'] as const;

/** Small seeded PRNG (mulberry32): a failure names a reproducible game. The PGN corpus generator's. */
export { rng } from '../bench/pgn-corpus.mjs';

/**
 * Calls body(i) for i from `from` to `to` - 1, giving the event loop a turn
 * every `every` calls: a synchronous test that runs past a minute leaves
 * vitest's worker deaf to its runner, whose calls then time out and fail the
 * run (the sizes the scaled-up comparisons are run at).
 */
export async function loopWithTurns(from: number, to: number, body: (i: number) => void, every = 8): Promise<void> {
  for (let i = from; i < to; i++) {
    body(i);
    if ((i - from) % every === every - 1) await new Promise<void>((resolve) => setImmediate(resolve));
  }
}
