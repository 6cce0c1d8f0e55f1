// readPgn with `threads`: the text is read in blocks on several native
// threads, and the games, their order and their errors (line, column) must
// be exactly those of one thread. Each tolerance and error case, repeated,
// sits in the middle of a text of generated games long enough to be cut
// into blocks (the engine gives a thread at least 16 KiB), so the cuts land
// among its lines; the C tests check blocks of every size down to one byte.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { generatePgn } from '../bench/pgn-corpus.mjs';
import { api, ROOT } from './helpers';

const { readPgn, AbortError, PGN_MAX_THREADS } = api;
type Game = Awaited<ReturnType<typeof collect>>[number];
type Options = NonNullable<Parameters<typeof readPgn>[1]>;

async function collect(source: Parameters<typeof readPgn>[0], options?: Options) {
  const games = [];
  for await (const g of readPgn(source, options)) games.push(g);
  return games;
}

const summary = (g: Game) => ({
  headers: g.headers,
  result: g.result,
  errors: g.errors,
  root: g.root,
  moves: g.moves().map((m) => m.uci),
});

const fixture = (name: string) => readFileSync(path.join(ROOT, 'test', 'fixtures', name), 'utf8');

// The tolerance and error cases of pgn.test.ts and pgn-stream.test.ts.
const CASES: Record<string, string | Buffer> = {
  mixed:
    '[Event "one"]\r\n[Site "x"]\r\n\r\n1. e4 {c} e5 (1... c5 2. Nf3) 2. Nf3 $1 1-0\r\n\r\n' +
    'stray text\n[Event "two"]\n1. d4 d5 2. Kd3 Nf6 *\n' +
    '[Event "three"]\n1. c4 { open\n\n[Event "four"]\n1. Nf3 ; rest\n% escape\nd5 0-1\n1. e4 e5 *\n',
  tolerance: fixture('pgn-tolerance.pgn'),
  annotated: fixture('pgn-annotated.pgn'),
  blankLines: '[Event "A"]\r\n\r\n1. e4\r\n\r\ne5 2. Nf3\r\n\r\n[Event "B"]\r\n1. d4 d5',
  illegal: '[Event "A"]\n\n1. e4 e5 2. Ke3 Nf6 3. d4 *\n\n[Event "B"]\n\n1. d4 *\n',
  unterminated: '[Event "A"]\n1. e4 { never closed\n\n[Event "B"]\n1. d4 *\n[Event "C\n1. c4 *\n',
  badFen: '[FEN "bad fen"]\n1. e4 *\n[Variant "Atomic"]\n1. e4 *\n',
  commentFirst: '{ before the tags }\n[Event "C"]\n\n1. e4 *\n\n[Event "D"]\n\n[Site "split by a blank line"]\n\n1. d4 *\n',
  nesting: '1. e4 ' + '( 1. d4 '.repeat(70) + ')'.repeat(70) + ' 1... e5 *\n',
  invalidUtf8: Buffer.concat([Buffer.from('[White "caf'), Buffer.from([0xe9]), Buffer.from('"]\n1. e4 *\n')]),
  nul: '1. e4\u0000e5\n% 2. Nf3\n2. Nc3 *\n',
};

function randomText(seed: number): string {
  const next = () => (seed = (seed * 1103515245 + 12345) >>> 0);
  const alphabet = '[]{}()"\\;%$!?*.-/=+#01 2345678abcdefghKQRBNOx\n\r\u0000\u00e9';
  let s = '';
  for (let k = 0; k < 2000; k++) s += alphabet[next() % alphabet.length];
  return s;
}
for (let i = 0; i < 4; i++) CASES[`random${i}`] = randomText(i + 1);

describe('readPgn threads', () => {
  const filler = generatePgn({ seed: 21, games: 7, variations: true, comments: true });

  it('reads every case the same on 1, 2 and 3 threads, whole and in chunks', async () => {
    expect(2 * Buffer.byteLength(filler)).toBeGreaterThan(3 * 16384); // three blocks of at least 16 KiB
    for (const [name, text] of Object.entries(CASES)) {
      // The case repeated over 8 KiB, so that the middle of the text, where two threads cut it, falls among its lines.
      const middle = Buffer.concat(
        Array.from({ length: Math.ceil(8192 / text.length) }, () => Buffer.concat([Buffer.from(text), Buffer.from('\n')])),
      );
      const bytes = Buffer.concat([Buffer.from(filler), Buffer.from('\n'), middle, Buffer.from(filler)]);
      const one = (await collect(bytes)).map(summary);
      expect(one.length).toBeGreaterThan(14);
      for (const threads of [2, 3]) {
        for (const chunkBytes of [1 << 20, 40000]) {
          const many = (await collect(bytes, { threads, chunkBytes })).map(summary);
          if (JSON.stringify(many) !== JSON.stringify(one))
            expect({ name, threads, chunkBytes, many }).toEqual({ name, threads, chunkBytes, many: one });
        }
      }
    }
  }, 120_000);

  it('reads a generated file in mainline mode the same on 1, 2 and 3 threads', async () => {
    const text = generatePgn({ seed: 22, games: 600 });
    const folder = mkdtempSync(path.join(tmpdir(), 'chess-native-pgn-threads-'));
    onTestFinished(() => rmSync(folder, { recursive: true, force: true }));
    const file = path.join(folder, 'games.pgn');
    writeFileSync(file, text);
    const one = (await collect(file, { mode: 'mainline' })).map(summary);
    expect(one.length).toBe(600);
    for (const threads of [2, 3]) {
      const progress: number[] = [];
      const many = await collect(file, { mode: 'mainline', threads, chunkBytes: 100_000, onProgress: (p) => progress.push(p.games) });
      expect(many.map(summary)).toEqual(one);
      expect(progress.at(-1)).toBe(600);
    }
  });

  it('stops with AbortError', async () => {
    const controller = new AbortController();
    const bytes = Buffer.from(filler.repeat(8));
    const games: Game[] = [];
    await expect(
      (async () => {
        for await (const g of readPgn(bytes, { threads: 2, chunkBytes: 65536, signal: controller.signal })) {
          games.push(g);
          controller.abort();
        }
      })(),
    ).rejects.toBeInstanceOf(AbortError);
    expect(games.length).toBeGreaterThan(0);
    expect(games.length).toBeLessThan(56);
  });

  it('rejects a thread count that is not an integer from 1 to PGN_MAX_THREADS', async () => {
    expect(PGN_MAX_THREADS).toBe(16);
    const empty = Buffer.from('');
    for (const threads of [0, -1, 1.5, PGN_MAX_THREADS + 1, Number.NaN, Infinity])
      await expect(collect(empty, { threads })).rejects.toThrow(RangeError);
    await expect(collect(empty, { threads: '2' as unknown as number })).rejects.toThrow(TypeError);
    expect(await collect(Buffer.from('1. e4 *'), { threads: PGN_MAX_THREADS })).toHaveLength(1);
  });
});
