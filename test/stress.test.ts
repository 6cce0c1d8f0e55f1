// Stress and leak tests through the public API.
//
// `npm test` runs a scaled-down version; `npm run test:stress` sets
// CHESS_NATIVE_STRESS=full for the full sizes: a million Position
// create/drop cycles and 100k perftAsync start/abort cycles, each with
// resident memory checked after a forced GC, plus worker_threads hammering
// the addon at the same time.
import { Worker } from 'node:worker_threads';
import * as path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { api, ROOT } from './helpers';

const { Position, perftAsync, AbortError, START_FEN } = api;
const FULL = process.env.CHESS_NATIVE_STRESS === 'full';
const POSITION_CYCLES = FULL ? 1_000_000 : 20_000;
const PERFT_CYCLES = FULL ? 100_000 : 1_000;
const WORKER_CYCLES = FULL ? 100_000 : 5_000;
// Resident memory may grow this much over a run once warmed up (V8 heap
// sizing, malloc arenas); a leak of one table or position per cycle would
// be hundreds of MB at full size.
const RSS_SLACK_MB = 96;

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

function rssMb(): number {
  gc();
  gc();
  return process.memoryUsage().rss / (1 << 20);
}

const KIWIPETE = 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1';
const FENS = [START_FEN, KIWIPETE, '8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1'];

describe('stress', { timeout: FULL ? 1_800_000 : 120_000 }, () => {
  it(`${POSITION_CYCLES} Position create/play/drop cycles keep RSS bounded`, () => {
    const cycle = (i: number): void => {
      const pos = new Position(FENS[i % FENS.length]!);
      const moves = pos.legalMoves();
      pos.play(moves[i % moves.length]!);
      if (i % 16 === 0) pos.clone().undo();
      if (i % 64 === 0) {
        try {
          pos.play('e9e9');
        } catch {
          // expected: malformed
        }
      }
    };
    for (let i = 0; i < Math.min(20_000, POSITION_CYCLES); i++) cycle(i);
    const before = rssMb();
    for (let i = 0; i < POSITION_CYCLES; i++) cycle(i);
    const after = rssMb();
    console.log(`positions: ${POSITION_CYCLES} cycles, RSS ${before.toFixed(1)} -> ${after.toFixed(1)} MB`);
    expect(after - before).toBeLessThan(RSS_SLACK_MB);
  });

  it(`${PERFT_CYCLES} perftAsync start/abort cycles keep RSS bounded and always reject with AbortError`, async () => {
    const cycle = async (i: number): Promise<void> => {
      const controller = new AbortController();
      const promise = perftAsync(FENS[i % FENS.length]!, 9, {
        signal: controller.signal,
        threads: 1 + (i % 3),
        hashMb: i % 4 === 0 ? 4 : 0,
      });
      // Abort at once, after a microtask, or after a timer tick.
      if (i % 3 === 0) controller.abort();
      else if (i % 3 === 1) queueMicrotask(() => controller.abort());
      else setImmediate(() => controller.abort());
      // Failures are collected and asserted once at the end rather than with
      // an expect(...).rejects per cycle, so that the RSS bound measures the
      // addon and not 100k assertions' worth of test-runner state.
      try {
        await promise;
        unexpected.push(`cycle ${i} resolved`);
      } catch (e) {
        if (!(e instanceof AbortError)) unexpected.push(`cycle ${i}: ${String(e)}`);
      }
    };
    const unexpected: string[] = [];
    // Eight at a time, like a busy server.
    const batch = async (from: number, to: number): Promise<void> => {
      for (let i = from; i < to; i += 8) {
        await Promise.all(Array.from({ length: Math.min(8, to - i) }, (_, k) => cycle(i + k)));
      }
    };
    await batch(0, Math.min(800, PERFT_CYCLES));
    const before = rssMb();
    await batch(0, PERFT_CYCLES);
    const after = rssMb();
    console.log(`perftAsync: ${PERFT_CYCLES} start/abort cycles, RSS ${before.toFixed(1)} -> ${after.toFixed(1)} MB`);
    expect(unexpected.slice(0, 5)).toEqual([]);
    expect(after - before).toBeLessThan(RSS_SLACK_MB);
    // And the addon still counts right afterwards.
    expect((await perftAsync(KIWIPETE, 3, { threads: 2, hashMb: 1 })).nodes).toBe(97862n);
  });

  it('perftAsync counts the position it was given while the caller keeps playing moves on its Position', async () => {
    const pos = new Position(KIWIPETE);
    const running = perftAsync(pos.fen(), 4, { threads: 2 });
    for (let i = 0; i < 200; i++) {
      const moves = pos.legalMoves();
      if (moves.length === 0) break;
      pos.play(moves[i % moves.length]!);
    }
    expect((await running).nodes).toBe(4085603n);
  });

  it(`${4} worker_threads each run ${WORKER_CYCLES} mixed calls while the main thread does too`, async () => {
    const entry = path.join(ROOT, 'dist', 'index.js');
    const code = `
      const { workerData, parentPort } = require('node:worker_threads');
      const api = require(workerData.entry);
      (async () => {
        let checks = 0;
        for (let i = 0; i < workerData.cycles; i++) {
          const pos = new api.Position(workerData.fens[i % workerData.fens.length]);
          const moves = pos.legalMoves();
          pos.play(moves[(i * 7 + workerData.id) % moves.length]);
          pos.undo();
          if (i % 500 === 0) {
            if (pos.perft(3) !== workerData.perft3[i % workerData.fens.length]) throw new Error('perft mismatch at ' + i);
            const ac = new AbortController();
            const p = api.perftAsync(pos.fen(), 8, { signal: ac.signal, threads: 2, hashMb: 1 });
            ac.abort();
            await p.then(() => { throw new Error('not aborted'); }, (e) => { if (e.name !== 'AbortError') throw e; });
            checks++;
          }
        }
        parentPort.postMessage({ checks });
      })().catch((e) => { throw e; });
    `;
    const perft3 = FENS.map((fen) => new Position(fen).perft(3));
    const workers = Array.from(
      { length: 4 },
      (_, id) =>
        new Promise<number>((resolve, reject) => {
          const worker = new Worker(code, { eval: true, workerData: { entry, id, cycles: WORKER_CYCLES, fens: FENS, perft3 } });
          let checks = -1;
          worker.once('message', (m: { checks: number }) => (checks = m.checks));
          worker.once('error', reject);
          worker.once('exit', (exitCode) =>
            exitCode === 0 && checks >= 0 ? resolve(checks) : reject(new Error(`worker exit ${exitCode}`)),
          );
        }),
    );
    // The main thread keeps using the addon meanwhile.
    for (let i = 0; i < WORKER_CYCLES / 10; i++) expect(new Position(FENS[i % 3]!).perft(2)).toBe(new Position(FENS[i % 3]!).perft(2));
    const checks = await Promise.all(workers);
    expect(checks.every((c) => c === Math.ceil(WORKER_CYCLES / 500))).toBe(true);
  });
});
