// The WebAssembly engine in a real browser: Debian's Chromium, headless, on a
// page served from 127.0.0.1 (test/browser/harness.mjs) running
// test/browser/engine-page.mjs. Perft counts exact, bad and hostile FENs
// rejected as the native addon rejects them with the page alive, and traps
// survived on a new instance. Without /usr/bin/chromium it is skipped, unless
// CHESS_NATIVE_REQUIRE_BROWSER=1 (.ci/run sets it where it installs the
// browser) makes that a failure.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, hasChromium, openPage, type OpenPage } from './browser/harness.mjs';
import { BAD_FENS } from './bad-fens';
import { api, readEpd } from './helpers';

const { Position, FenError, START_FEN } = api;

/** Counts up to this many leaves are checked in the page (the Node suites go deeper). */
const LIMIT = 1_000_000n;
const PAGE = '/test/browser/engine-page.mjs';
const REQUIRED = process.env.CHESS_NATIVE_REQUIRE_BROWSER === '1';
const AVAILABLE = hasChromium();

if (!AVAILABLE && !REQUIRED) console.warn(`test/browser.test.ts skipped: no ${CHROMIUM} (apt-get install chromium)`);

interface Parsed {
  status: string;
  field?: string;
  message?: string;
}
type Input = string | { before: string; repeat: string; times: number; after: string };

let opened: OpenPage;

describe.skipIf(!AVAILABLE && !REQUIRED)('wasm engine in headless Chromium', { timeout: 30_000 }, () => {
  beforeAll(async () => {
    if (!AVAILABLE) throw new Error(`${CHROMIUM} is missing: apt-get install chromium`);
    opened = await openPage({ files: ['wasm/loader.mjs', 'wasm/chess-native.wasm', PAGE.slice(1)] });
    const { ms, impl } = await opened.call<{ ms: number; impl: string }>(PAGE, 'load', '/wasm/chess-native.wasm');
    console.log(`chess-native.wasm in Chromium: fetch to ready ${ms.toFixed(1)} ms, code path ${impl}`);
  }, 60_000);

  afterAll(async () => {
    await opened?.close();
  });

  /** Compares the page's counts with the published ones, each count at most LIMIT. */
  async function checkCounts(file: string, every: number): Promise<number> {
    const cases = readEpd(file)
      .filter((_, i) => i % every === 0)
      .flatMap(({ line, fen, counts }) =>
        [...counts].filter(([, n]) => n <= LIMIT).map(([depth, expected]) => ({ line, fen, depth, expected })),
      );
    const got = await opened.call<string[]>(PAGE, 'perft', cases);
    cases.forEach(({ line, depth, expected }, i) => expect(got[i], `${file}:${line} depth ${depth}`).toBe(expected.toString()));
    return cases.length;
  }

  it('counts every CPW position exactly', async () => {
    expect(await checkCounts('cpw.epd', 1)).toBeGreaterThan(20);
  });

  it('counts a sample of the perftsuite exactly', async () => {
    expect(await checkCounts('perftsuite.epd', 8)).toBeGreaterThan(50);
  });

  it('rejects every bad FEN with the field and message of the native addon', async () => {
    const got = await opened.call<Parsed[]>(
      PAGE,
      'parse',
      BAD_FENS.map(([, fen]) => fen),
    );
    BAD_FENS.forEach(([field, fen], i) => {
      let native: unknown;
      try {
        new Position(fen);
      } catch (error) {
        native = error;
      }
      expect(native, JSON.stringify(fen)).toBeInstanceOf(FenError);
      const { message } = native as InstanceType<typeof FenError>;
      expect(got[i], JSON.stringify(fen)).toEqual({ status: 'CN_ERR_FEN', field, message });
    });
  });

  it('rejects hostile strings (megabytes, NUL bytes, lone surrogates) and the page survives', async () => {
    const hostile: Input[] = [
      { before: '', repeat: 'x', times: 8 << 20, after: '' },
      { before: `${START_FEN} `, repeat: ' ', times: 1 << 20, after: 'x' },
      { before: '', repeat: 'a ', times: 1 << 19, after: '' },
      { before: '', repeat: '/', times: 1 << 20, after: '' },
      '\0'.repeat(100),
      `${START_FEN}\0`,
      `${START_FEN}\0${START_FEN}`,
      `\0${START_FEN}`,
      `\uD800${START_FEN}`,
      `${START_FEN}\uDFFF`,
    ];
    const got = await opened.call<Parsed[]>(PAGE, 'parse', hostile);
    got.forEach((result, i) => expect(result.status, JSON.stringify(hostile[i]).slice(0, 80)).toBe('CN_ERR_FEN'));
    const memory = await opened.call<number>(PAGE, 'memoryBytes');
    expect(memory).toBeLessThan(64 << 20);
    expect(await opened.page.title()).toBe('chess-native');
    expect(await opened.call(PAGE, 'perft', [{ fen: START_FEN, depth: 4 }])).toEqual(['197281']);
    expect(opened.errors).toEqual([]);
  });

  it.each(['bounds', 'stack'])('survives a trap (%s) on a new instance that counts exactly', async (kind) => {
    const { name, before, after } = await opened.call<{ name: string; before: number; after: number }>(PAGE, 'trap', kind);
    expect(name).toBe('WasmTrapError');
    expect(after).toBe(before + 1);
    expect(await opened.call(PAGE, 'perft', [{ fen: '8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1', depth: 5 }])).toEqual(['674624']);
    expect(opened.errors).toEqual([]);
  });
});
