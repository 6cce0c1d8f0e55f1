// readPgn: every kind of source, chunk boundaries anywhere (each byte
// boundary of a multi-game file with errors, comments and CRLF), progress,
// abort and bounded memory for a game that never ends.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { generatePgn } from '../bench/pgn-corpus.mjs';
import { api } from './helpers';

const { parsePgn, readPgn, AbortError } = api;
type Game = ReturnType<typeof parsePgn>[number];

// The files the tests write, removed with the folder when the file's tests end.
const TMP = mkdtempSync(path.join(tmpdir(), 'chess-native-pgn-stream-'));
afterAll(() => rmSync(TMP, { recursive: true, force: true }));

const summary = (g: Game) => ({ headers: g.headers, result: g.result, errors: g.errors, root: g.root });

async function collect(source: Parameters<typeof readPgn>[0], options?: Parameters<typeof readPgn>[1]): Promise<Game[]> {
  const games: Game[] = [];
  for await (const g of readPgn(source, options)) games.push(g);
  return games;
}

const MIXED =
  '\uFEFF[Event "one"]\r\n[Site "x"]\r\n\r\n1. e4 {c} e5 (1... c5 2. Nf3) 2. Nf3 $1 1-0\r\n\r\n' +
  'stray text\n[Event "two"]\n1. d4 d5 2. Kd3 Nf6 *\n' +
  '[Event "three"]\n1. c4 { open\n\n[Event "four"]\n1. Nf3 ; rest\n% escape\nd5 0-1\n' +
  '1. e4 e5 *\n' +
  generatePgn({ seed: 5, games: 2, variations: true, comments: true, maxPlies: 30 });

// Counts the files readPgn opens and closes: the package calls open through
// the module's exports object at each call, so replacing it there is seen.
const fsPromises = createRequire(import.meta.url)('node:fs/promises') as typeof import('node:fs/promises');
function countFiles() {
  const count = { opened: 0, closed: 0 };
  const realOpen = fsPromises.open;
  const spy = vi.spyOn(fsPromises, 'open').mockImplementation(async (...args: Parameters<typeof realOpen>) => {
    const handle = await realOpen(...args);
    count.opened++;
    const close = handle.close.bind(handle);
    handle.close = () => {
      count.closed++;
      return close();
    };
    return handle;
  });
  return { count, restore: () => spy.mockRestore() };
}

describe('readPgn', () => {
  const expected = parsePgn(MIXED).map(summary);

  it('reads the same games as parsePgn from a Buffer', async () => {
    expect(expected.length).toBe(7);
    expect((await collect(Buffer.from(MIXED))).map(summary)).toEqual(expected);
  });

  it('gives the same games whatever byte the chunks are cut at', async () => {
    const bytes = Buffer.from(MIXED);
    for (let cut = 0; cut <= bytes.length; cut++) {
      const games = await collect([bytes.subarray(0, cut), bytes.subarray(cut)]);
      const got = games.map(summary);
      if (JSON.stringify(got) !== JSON.stringify(expected)) expect({ cut, got }).toEqual({ cut, got: expected });
    }
  }, 60_000);

  it('reads one-byte chunks, strings, a Readable and a file path with progress', async () => {
    const bytes = Buffer.from(MIXED);
    const ones = Array.from(bytes, (b) => Uint8Array.of(b));
    expect((await collect(ones)).map(summary)).toEqual(expected);
    expect((await collect(Readable.from([MIXED.slice(0, 100), MIXED.slice(100)]))).map(summary)).toEqual(expected);
    const file = path.join(TMP, 'mixed.pgn');
    writeFileSync(file, bytes);
    const progress: { bytes: number; totalBytes: number | undefined; games: number }[] = [];
    const games = await collect(file, { chunkBytes: 64, onProgress: (p) => progress.push(p) });
    expect(games.map(summary)).toEqual(expected);
    expect(progress.at(-1)).toEqual({ bytes: bytes.length, totalBytes: bytes.length, games: 7 });
    expect(progress.every((p, i) => i === 0 || p.bytes >= progress[i - 1]!.bytes)).toBe(true);
  });

  it('reads in mainline and headers modes', async () => {
    const main = await collect(Buffer.from(MIXED), { mode: 'mainline' });
    expect(main.map((g) => g.moves().map((m) => m.uci))).toEqual(parsePgn(MIXED).map((g) => g.moves().map((m) => m.uci)));
    const heads = await collect(Buffer.from(MIXED), { mode: 'headers' });
    expect(heads.map((g) => g.headers)).toEqual(expected.map((g) => g.headers));
  });

  it('stops with AbortError, cause the reason', async () => {
    const controller = new AbortController();
    const reason = new Error('enough');
    const text = generatePgn({ seed: 9, games: 20 });
    const games: Game[] = [];
    await expect(
      (async () => {
        for await (const g of readPgn(Buffer.from(text), { chunkBytes: 256, signal: controller.signal })) {
          games.push(g);
          controller.abort(reason);
        }
      })(),
    ).rejects.toSatisfy((e) => e instanceof AbortError && e.cause === reason);
    expect(games.length).toBeGreaterThan(0);
    expect(games.length).toBeLessThan(20);
  });

  it('rejects with AbortError, cause the reason, for a signal aborted before the read', async () => {
    const reason = new Error('stop');
    const read = readPgn(Buffer.from('1. e4 *'), { signal: AbortSignal.abort(reason) });
    await expect(read.next()).rejects.toSatisfy((e) => e instanceof AbortError && e.cause === reason);
  });

  it('lets the caller stop early while the next read is running', async () => {
    const bytes = Buffer.from(generatePgn({ seed: 9, games: 20 }));
    for (const threads of [1, 2]) {
      let seen = 0;
      for await (const g of readPgn(bytes, { chunkBytes: 256, threads })) {
        expect(g.errors).toEqual([]);
        if (++seen === 2) break;
      }
      expect(seen).toBe(2);
    }
    // The reader is usable again at once, and reads everything.
    expect(await collect(bytes, { chunkBytes: 256 })).toHaveLength(20);
  });

  it('reads a file whose games are longer than its chunks, and closes the file', async () => {
    // A 100 KB comment: the unread tail outgrows the room kept before each chunk read.
    const text = `[Event "long"]\n1. e4 {${'y'.repeat(100_000)}} e5 *\n\n${MIXED}`;
    const file = path.join(TMP, 'long.pgn');
    writeFileSync(file, text);
    const want = parsePgn(text).map(summary);
    expect(want[0]!.root.children[0]!.comments[0]).toHaveLength(100_000);
    const files = countFiles();
    for (const chunkBytes of [4096, 1 << 20]) {
      expect({ chunkBytes, got: (await collect(file, { chunkBytes })).map(summary) }).toEqual({ chunkBytes, got: want });
    }
    files.restore();
    expect(files.count).toEqual({ opened: 2, closed: 2 });
  });

  it('reads a Blob, a web ReadableStream and a fetch Response, with their sizes as totalBytes', async () => {
    const bytes = Buffer.from(MIXED);
    /** A web stream of `bytes` in chunks of `size`, counting how much was pulled and whether it was cancelled. */
    const webStream = (size: number) => {
      const seen = { pulled: 0, cancelled: false };
      let at = 0;
      const stream = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (at >= bytes.length) return controller.close();
          controller.enqueue(bytes.subarray(at, at + size));
          seen.pulled++;
          at += size;
        },
        cancel() {
          seen.cancelled = true;
        },
      });
      return { stream, seen };
    };
    const progress: (number | undefined)[] = [];
    const onProgress = (p: { totalBytes: number | undefined }) => progress.push(p.totalBytes);
    expect((await collect(new Blob([bytes.subarray(0, 50), bytes.subarray(50)]), { onProgress })).map(summary)).toEqual(expected);
    expect(progress.at(-1)).toBe(bytes.length);
    const { stream, seen } = webStream(7);
    expect((await collect(stream)).map(summary)).toEqual(expected);
    expect(seen.pulled).toBe(Math.ceil(bytes.length / 7));
    const response = new Response(webStream(100).stream, { headers: { 'content-length': String(bytes.length) } });
    progress.length = 0;
    expect((await collect(response, { onProgress })).map(summary)).toEqual(expected);
    expect(progress.at(-1)).toBe(bytes.length);
    expect(await collect(new Response(null))).toEqual([]);
    const used = new Response(MIXED);
    await used.text();
    await expect(collect(used)).rejects.toThrow(/already been read/);
    // Stopping early cancels the stream.
    const early = webStream(64);
    for await (const g of readPgn(early.stream)) if (g) break;
    expect(early.seen.cancelled).toBe(true);
  });

  it('closes its source when the caller stops early', async () => {
    const file = path.join(TMP, 'mixed-early-stop.pgn');
    writeFileSync(file, MIXED);
    const files = countFiles();
    for await (const g of readPgn(file, { chunkBytes: 64 })) if (g) break;
    files.restore();
    expect(files.count).toEqual({ opened: 1, closed: 1 });
    const stream = Readable.from([MIXED.slice(0, 100), MIXED.slice(100)]);
    for await (const g of readPgn(stream)) if (g) break;
    expect(stream.destroyed).toBe(true);
  });

  it('bounds memory for a game that never ends', async () => {
    const chunks = (function* () {
      yield '[Event "endless"]\n1. e4 {';
      for (let i = 0; i < 64; i++) yield 'x'.repeat(1 << 14);
      yield '}\n[Event "after"]\n1. d4 *\n';
    })();
    const games = await collect(chunks, { maxGameBytes: 1 << 16 });
    // The comment is closed past the limit: the game says it was cut there, not that the comment is unterminated.
    expect(games[0]!.errors.map((e) => e.message)).toEqual(['game cut at the size limit']);
    expect(games.at(-1)!.headers).toEqual({ Event: 'after' });
    expect(
      games
        .at(-1)!
        .moves()
        .map((m) => m.uci),
    ).toEqual(['d2d4']);
  });

  it('rejects bad sources and options', async () => {
    await expect(collect(42 as unknown as string)).rejects.toThrow(TypeError);
    await expect(collect(Buffer.from(''), { chunkBytes: 0 })).rejects.toThrow(RangeError);
    expect(await collect(Buffer.from(''))).toEqual([]);
  });
});
