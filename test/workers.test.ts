// The addon is context-aware: it loads in several worker_threads at once,
// again after they exit, and through both entry points, with exact results.
import { Worker } from 'node:worker_threads';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { api, readEpd, ROOT } from './helpers';

const { Position } = api;

interface Reply {
  results: { fen: string; count: string; moves: string[] }[];
  info: ReturnType<typeof api.engineInfo>;
}

const CJS_WORKER = path.join(ROOT, 'test', 'fixtures', 'perft-worker.cjs');
const ESM_WORKER = path.join(ROOT, 'test', 'fixtures', 'perft-worker.mjs');
const CJS_ENTRY = path.join(ROOT, 'dist', 'index.js');
const ESM_ENTRY = pathToFileURL(path.join(ROOT, 'dist', 'index.mjs')).href;

// Jobs: (FEN, depth, expected count), from the perft suite with its published counts.
const jobs: [string, number, bigint][] = readEpd('perftsuite.epd').flatMap((line) => {
  const entry = [...line.counts].find(([d, n]) => d >= 2 && n <= 50_000n);
  return entry ? [[line.fen, entry[0], entry[1]] as [string, number, bigint]] : [];
});

function run(file: string, entry: string, slice: [string, number, bigint][]): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(file, { workerData: { entry, jobs: slice.map(([fen, d]) => [fen, d]) } });
    let reply: Reply | undefined;
    worker.once('message', (m: Reply) => (reply = m));
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (code !== 0) reject(new Error(`worker exited with code ${code}`));
      else if (!reply) reject(new Error('worker exited without a reply'));
      else resolve(reply);
    });
  });
}

function check(reply: Reply, slice: [string, number, bigint][]) {
  expect(reply.results).toHaveLength(slice.length);
  slice.forEach(([fen, depth, count], i) => {
    const r = reply.results[i]!;
    expect(r.count, `${fen} D${depth}`).toBe(count.toString());
    expect(r.fen).toBe(new Position(fen).fen());
    expect(r.moves).toEqual(new Position(fen).legalMoves());
  });
  // The addon builds its tables once a process; each wasm instance (one a thread) builds its own.
  const { initMs, ...info } = api.engineInfo();
  expect(reply.info).toEqual(info.backend === 'wasm' ? { ...info, initMs: expect.any(Number) } : { ...info, initMs });
}

describe('worker_threads', { timeout: 60_000 }, () => {
  it('has jobs from the suite', () => {
    expect(jobs.length).toBeGreaterThan(50);
  });

  it('runs in four workers at once (CommonJS), each exact', async () => {
    const slices = [0, 1, 2, 3].map((k) => jobs.filter((_, i) => i % 4 === k));
    const replies = await Promise.all(slices.map((s) => run(CJS_WORKER, CJS_ENTRY, s)));
    replies.forEach((r, k) => check(r, slices[k]!));
  });

  it('loads again in new workers after earlier ones exited, through both entry points', async () => {
    for (let wave = 0; wave < 3; wave++) {
      const a = jobs.slice(wave * 10, wave * 10 + 10);
      const b = jobs.slice(wave * 10 + 30, wave * 10 + 40);
      const [ra, rb] = await Promise.all([run(CJS_WORKER, CJS_ENTRY, a), run(ESM_WORKER, ESM_ENTRY, b)]);
      check(ra, a);
      check(rb, b);
    }
    // The main thread's instance is unaffected by workers coming and going.
    expect(new Position().perft(3)).toBe(8902);
  });
});
