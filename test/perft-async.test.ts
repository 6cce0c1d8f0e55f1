// perftAsync: exact counts with native threads and a shared hash table (one
// small enough that almost every probe meets another position's entry),
// abort, progress, the event loop kept free, input errors, worker shutdown.
import { Worker } from 'node:worker_threads';
import * as path from 'node:path';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { api, readEpd, ROOT, STANDARD_SUITES } from './helpers';

const require = createRequire(import.meta.url);
const { Position, perftAsync, AbortError, FenError, START_FEN, engineInfo } = api;

const KIWIPETE = 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1';
const POSITION_4 = 'r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1';

/** Counts up to this many leaves are checked in every configuration. */
const LIMIT = 1_000_000n;

/** 2 KiB: 64 buckets, overwritten constantly; 4 MiB: a normal table for these sizes. */
const CONFIGS = [
  { threads: 1, hashMb: 0 },
  { threads: 2, hashMb: 0 },
  { threads: 3, hashMb: 2 / 1024 },
  { threads: 2, hashMb: 4 },
] as const;

function sum(values: Iterable<bigint>): bigint {
  let total = 0n;
  for (const v of values) total += v;
  return total;
}

describe('perftAsync on the perft suites', { timeout: 120_000 }, () => {
  const suites = [
    ...STANDARD_SUITES.map((file) => ({ file, chess960: false, step: 1 })),
    { file: 'tricky960.epd', chess960: true, step: 1 },
    { file: 'fischer.epd', chess960: true, step: 40 },
  ];
  for (const { file, chess960, step } of suites) {
    it(`${file}: every count <= ${LIMIT} with threads 1-3 and 0 / 2 KiB / 4 MiB tables`, async () => {
      const lines = readEpd(file).filter((_, i) => i % step === 0);
      let compared = 0;
      for (const line of lines) {
        for (const [depth, expected] of line.counts) {
          if (expected > LIMIT) continue;
          for (const config of CONFIGS) {
            const result = await perftAsync(line.fen, depth, { ...config, chess960, divide: depth >= 1 });
            const where = `${file}:${line.line} D${depth} ${JSON.stringify(config)}`;
            expect(result.nodes, where).toBe(expected);
            if (depth >= 1) expect(sum(Object.values(result.divide ?? {})), where).toBe(expected);
            compared++;
          }
        }
      }
      expect(compared).toBeGreaterThan(0);
    });
  }
});

describe('perftAsync', { timeout: 60_000 }, () => {
  it('returns bigints, seconds and nps; divide matches the sync divide', async () => {
    const result = await perftAsync(KIWIPETE, 4, { threads: 2, hashMb: 1, divide: true });
    expect(result.nodes).toBe(4085603n);
    expect(typeof result.seconds).toBe('number');
    expect(result.seconds).toBeGreaterThan(0);
    expect(result.nps).toBeCloseTo(Number(result.nodes) / result.seconds, 0);
    expect(result.divide).toEqual(new Position(KIWIPETE).divideBig(4));
    const noDivide = await perftAsync(KIWIPETE, 2);
    expect(noDivide.divide).toBeUndefined();
  });

  it('depth 0 and 1, a mated root, Chess960', async () => {
    expect(await perftAsync(START_FEN, 0, { divide: true })).toMatchObject({ nodes: 1n, divide: {} });
    const one = await perftAsync(START_FEN, 1, { divide: true, threads: 4 });
    expect(one.nodes).toBe(20n);
    expect(Object.values(one.divide ?? {})).toEqual(Array(20).fill(1n));
    const mated = 'rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3';
    for (const depth of [1, 4]) expect((await perftAsync(mated, depth, { divide: true })).nodes).toBe(0n);
    // Chess960 castling is reported king-takes-rook in the divide.
    const c960 = await perftAsync('1r2k2r/8/8/8/8/8/8/R3K1R1 w GAhb - 0 1', 1, { chess960: true, divide: true });
    expect(Object.keys(c960.divide ?? {})).toContain('e1g1');
    expect(Object.keys(c960.divide ?? {})).toContain('e1a1');
  });

  it('counts past 2^32 exactly (kiwipete D6 with a table)', async () => {
    const result = await perftAsync(KIWIPETE, 6, { threads: 2, hashMb: 64 });
    expect(result.nodes).toBe(8031647685n);
  });

  it('runs concurrent jobs independently', async () => {
    const [a, b, c] = await Promise.all([
      perftAsync(START_FEN, 5, { threads: 2, hashMb: 1 }),
      perftAsync(KIWIPETE, 4, { threads: 2, hashMb: 0 }),
      perftAsync(POSITION_4, 4, { threads: 1, hashMb: 2 / 1024 }),
    ]);
    expect([a.nodes, b.nodes, c.nodes]).toEqual([4865609n, 4085603n, 422333n]);
  });

  it('keeps the event loop running: a 5 ms timer fires throughout a run', async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 5);
    const started = performance.now();
    const result = await perftAsync(POSITION_4, 6, { threads: 2, hashMb: 0 });
    const elapsed = performance.now() - started;
    clearInterval(timer);
    expect(result.nodes).toBe(706045033n);
    // A run that blocked the JS thread would let the timer fire at most once.
    if (elapsed > 200) expect(ticks).toBeGreaterThan(10);
  });

  it('reports progress that only grows and ends at the total, ~10 times a second', async () => {
    const seen: { nodes: bigint; rootMovesDone: number; rootMovesTotal: number; elapsedMs: number }[] = [];
    const started = performance.now();
    const result = await perftAsync(POSITION_4, 6, { threads: 2, hashMb: 0, onProgress: (p) => seen.push(p) });
    const elapsed = performance.now() - started;
    expect(seen.length).toBeGreaterThan(0);
    // Not per node: about one call per 100 ms, plus the final one.
    expect(seen.length).toBeLessThanOrEqual(Math.ceil(elapsed / 50) + 2);
    for (let i = 1; i < seen.length; i++) {
      expect(seen[i]!.nodes).toBeGreaterThanOrEqual(seen[i - 1]!.nodes);
      expect(seen[i]!.rootMovesDone).toBeGreaterThanOrEqual(seen[i - 1]!.rootMovesDone);
    }
    for (const p of seen) {
      expect(p.rootMovesTotal).toBe(6);
      expect(p.rootMovesDone).toBeLessThanOrEqual(6);
      expect(p.nodes).toBeLessThanOrEqual(result.nodes);
    }
    expect(seen.at(-1)).toMatchObject({ nodes: result.nodes, rootMovesDone: 6 });
  });

  it('rejects with the error a throwing onProgress raised, and stops the run', async () => {
    const boom = new Error('boom');
    const started = performance.now();
    await expect(
      perftAsync(START_FEN, 12, {
        hashMb: 0,
        onProgress: () => {
          throw boom;
        },
      }),
    ).rejects.toBe(boom);
    expect(performance.now() - started).toBeLessThan(10_000);
  });
});

describe('perftAsync abort', { timeout: 60_000 }, () => {
  for (const hashMb of [0, 64]) {
    it(`rejects with an AbortError soon after the signal aborts (hash ${hashMb} MiB)`, async () => {
      const controller = new AbortController();
      const progress: bigint[] = [];
      const run = perftAsync(START_FEN, 12, {
        hashMb,
        signal: controller.signal,
        onProgress: (p) => progress.push(p.nodes),
      });
      await new Promise((r) => setTimeout(r, 300));
      const reason = new Error('stop');
      const abortedAt = performance.now();
      controller.abort(reason);
      const error = await run.then(
        () => null,
        (e: unknown) => e,
      );
      const latency = performance.now() - abortedAt;
      expect(error).toBeInstanceOf(AbortError);
      expect((error as Error).name).toBe('AbortError');
      expect((error as Error).cause).toBe(reason);
      expect(latency).toBeLessThan(1000); // generous: a few ms is typical
      expect(progress.length).toBeGreaterThan(0);
    });
  }

  it('rejects at once for a signal that is already aborted', async () => {
    const onProgress = (): void => {
      throw new Error('must not run');
    };
    await expect(perftAsync(START_FEN, 12, { signal: AbortSignal.abort(), onProgress })).rejects.toMatchObject({
      name: 'AbortError',
    });
  });

  it('returns the table memory on abort', async () => {
    const rss = (): number => process.memoryUsage().rss;
    const mib = 1024 * 1024;
    const hashMb = 256;
    const before = rss();
    const controller = new AbortController();
    let peak = 0;
    const run = perftAsync(START_FEN, 11, { hashMb, signal: controller.signal, onProgress: () => (peak = Math.max(peak, rss())) });
    // Random stores touch every page of the table within a second or two.
    // Waiting for three quarters leaves a margin over the half asserted below:
    // RSS also moves by a few pages for reasons of its own.
    for (let i = 0; i < 100 && rss() - before < ((hashMb * 3) / 4) * mib; i++) await new Promise((r) => setTimeout(r, 100));
    const during = rss();
    controller.abort();
    await expect(run).rejects.toBeInstanceOf(AbortError);
    const after = rss();
    expect(during - before).toBeGreaterThan((hashMb / 2) * mib);
    expect(during - after).toBeGreaterThan((hashMb / 2) * mib);
  });

  it("frees each run's table: 150 runs with 8 MiB tables leave RSS where it was", async () => {
    const mib = 1024 * 1024;
    await perftAsync(KIWIPETE, 3, { hashMb: 8 }); // warm up: code pages, first allocations
    const before = process.memoryUsage().rss;
    for (let i = 0; i < 150; i++) expect((await perftAsync(KIWIPETE, 3, { hashMb: 8, threads: 2 })).nodes).toBe(97862n);
    // Every run touches at least one page of its table; 150 kept tables would hold far more than this.
    expect(process.memoryUsage().rss - before).toBeLessThan(64 * mib);
  });

  it('a worker thread that exits mid-run stops its job; the process carries on', async () => {
    const entry = path.join(ROOT, 'dist', 'index.js');
    const source = `
      const { parentPort } = require('node:worker_threads');
      const { perftAsync, START_FEN } = require(${JSON.stringify(entry)});
      perftAsync(START_FEN, 12, { hashMb: 32, threads: 2 }).catch(() => {});
      setTimeout(() => parentPort.postMessage('running'), 100);
    `;
    for (let i = 0; i < 3; i++) {
      const worker = new Worker(source, { eval: true });
      await new Promise((resolve, reject) => {
        worker.once('message', resolve);
        worker.once('error', reject);
      });
      await worker.terminate();
    }
    expect((await perftAsync(START_FEN, 4)).nodes).toBe(197281n);
  });
});

describe('perftAsync verify and memory', { timeout: 60_000 }, () => {
  it('verify: true counts again with the other key set; both agree, divide included', async () => {
    const result = await perftAsync(KIWIPETE, 4, { threads: 2, hashMb: 2 / 1024, verify: true, divide: true });
    expect(result.nodes).toBe(4085603n);
    expect(result.verified).toBe(true);
    expect(result.divide).toEqual(new Position(KIWIPETE).divideBig(4));
    const once = await perftAsync(KIWIPETE, 4, { threads: 2, hashMb: 1 });
    expect(once.verified).toBeUndefined();
    expect(once.hash).toEqual({ mb: 1 });
  });

  it('verify: true rejects with ERR_PERFT_VERIFY, naming both key sets, when the second count differs', async () => {
    // A wrong count cannot be produced on purpose through the engine (96 checked bits), so the
    // second run's result is changed at the native boundary: one leaf more under the first root
    // move whenever the job was started with the verifying key set.
    const nativeModule = require('../dist/core/boundary.js') as { backend: typeof import('../src/core/boundary').backend };
    const native = nativeModule.backend;
    const verifyingJobs = new WeakSet<object>();
    // dist/perft/perft.js reads `native` from this module object at each call; the addon's own
    // properties are read-only, so an object inheriting from it stands in, with two of its own.
    const perftStart: typeof native.perftStart = (...args) => {
      const job = native.perftStart(...args);
      if (args[5] === native.perftVerifyKeySeed) verifyingJobs.add(job);
      return job;
    };
    const perftResult: typeof native.perftResult = (job, moves, counts, out) => {
      const nodes = native.perftResult(job, moves, counts, out);
      if (nodes === -1 || !verifyingJobs.has(job)) return nodes;
      counts[0] = (counts[0] as bigint) + 1n;
      return nodes + 1n;
    };
    nativeModule.backend = Object.create(native, {
      perftStart: { value: perftStart },
      perftResult: { value: perftResult },
    }) as typeof native;
    try {
      for (const divide of [false, true]) {
        const error = await perftAsync(KIWIPETE, 3, { threads: 2, hashMb: 1, verify: true, divide }).catch((e: unknown) => e);
        // Its own class: EngineError's code is an engine status, and the engine did not fail.
        expect(error).toBeInstanceOf(api.PerftVerifyError);
        expect(error).not.toBeInstanceOf(api.EngineError);
        const verifyError = error as InstanceType<typeof api.PerftVerifyError>;
        expect(verifyError.name).toBe('PerftVerifyError');
        expect(verifyError.code).toBe('ERR_PERFT_VERIFY');
        expect(verifyError.nodes).toEqual([97862n, 97863n]);
        expect((error as Error).message).toBe(
          `perft verification failed: 97862 with key set ${native.perftKeySet}, ` +
            `97863 with key set ${native.perftVerifyKeySet}${divide ? ' (the divides differ)' : ''}`,
        );
      }
    } finally {
      nativeModule.backend = native;
    }
    expect((await perftAsync(KIWIPETE, 3, { threads: 2, hashMb: 1, verify: true })).verified).toBe(true);
  });

  it('a table larger than the memory available rejects at once with a RangeError naming both', async () => {
    const started = Date.now();
    const error = await perftAsync(START_FEN, 10, { hashMb: 1024 * 1024 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RangeError);
    // A wasm32 engine's tables stop at 1 GiB, below any memory check; the addon's at 1 TiB.
    expect((error as Error).message).toMatch(
      engineInfo().backend === 'wasm'
        ? /^options\.hashMb must be from 0 to 1024 or 'auto', got 1048576$/
        : /^options\.hashMb 1048576 MiB is more than the \d+ MiB of memory available \(.+\)/,
    );
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it("hashMb: 'auto' picks a power of two of MiB and says why", async () => {
    // Depth 1 allocates no table: the pick is reported all the same.
    const result = await perftAsync(START_FEN, 1, { hashMb: 'auto' });
    expect(result.nodes).toBe(20n);
    const { mb, reason } = result.hash;
    expect(mb).toBeGreaterThan(0);
    expect(Math.log2(mb) % 1).toBe(0);
    expect(reason).toMatch(new RegExp(`^${mb} MiB: 3/4 of the \\d+ MiB available \\(.+\\), rounded down to a power of two$`));
  });
});

describe('perftAsync input errors, before any work', () => {
  const onProgress = (): void => {
    throw new Error('no work should have started');
  };
  it.each([
    ['threads: 0', { threads: 0 }, RangeError],
    ['threads: 1.5', { threads: 1.5 }, RangeError],
    ['threads: 257', { threads: 257 }, RangeError],
    ['threads: "2"', { threads: '2' }, TypeError],
    ['hashMb: -1', { hashMb: -1 }, RangeError],
    ['hashMb: NaN', { hashMb: Number.NaN }, RangeError],
    ['hashMb: Infinity', { hashMb: Number.POSITIVE_INFINITY }, RangeError],
    ['hashMb: "16"', { hashMb: '16' }, TypeError],
    ['hashMb: 2^41 bytes', { hashMb: 2 * 1024 * 1024 }, RangeError],
    ['verify: 1', { verify: 1 }, TypeError],
    ['signal: {}', { signal: {} }, TypeError],
    ['signal: AbortController', { signal: new AbortController() }, TypeError],
    ['divide: 1', { divide: 1 }, TypeError],
    ['chess960: "yes"', { chess960: 'yes' }, TypeError],
    ['onProgress: 1', { onProgress: 1 }, TypeError],
  ])('%s', async (_name, options, type) => {
    await expect(perftAsync(START_FEN, 10, { onProgress, ...(options as object) })).rejects.toBeInstanceOf(type);
  });

  it('options that are not an object', async () => {
    await expect(perftAsync(START_FEN, 3, 'fast' as never)).rejects.toBeInstanceOf(TypeError);
    await expect(perftAsync(START_FEN, 3, null as never)).rejects.toBeInstanceOf(TypeError);
  });

  it('bad depth and FEN: the sync API error classes', async () => {
    for (const depth of [-1, 21, 2.5, Number.NaN]) {
      await expect(perftAsync(START_FEN, depth, { onProgress })).rejects.toBeInstanceOf(RangeError);
      expect(() => new Position().perft(depth)).toThrow(RangeError);
    }
    await expect(perftAsync(START_FEN, '3' as never)).rejects.toBeInstanceOf(RangeError);
    await expect(perftAsync(42 as never, 3)).rejects.toBeInstanceOf(TypeError);
    // Each bad FEN fails as the constructor fails: FenError, same field and message.
    const badFens = [
      '',
      '8/8/8/8 w - - 0 1',
      START_FEN.replace(' w ', ' x '),
      START_FEN.replace('KQkq', 'KQkqX'),
      START_FEN.replace(' - 0', ' e9 0'),
      '4k3/8/8/8/8/8/8/4K3 w - - x 1',
      'k7/8/8/8/8/8/8/K7 w - - 0 0',
      '4k3/8/8/8/8/8/8/8 w - - 0 1',
    ];
    for (const fen of badFens) {
      const sync = (() => {
        try {
          new Position(fen);
          return null;
        } catch (e) {
          return e as InstanceType<typeof FenError>;
        }
      })();
      expect(sync, fen).toBeInstanceOf(FenError);
      const error = await perftAsync(fen, 3, { onProgress }).catch((e: unknown) => e);
      expect(error, fen).toBeInstanceOf(FenError);
      expect((error as InstanceType<typeof FenError>).field, fen).toBe(sync?.field);
      expect((error as Error).message, fen).toBe(sync?.message);
    }
  });
});
