// The package's browser entries (dist/browser.mjs and
// dist/chessjs/browser.mjs, built by wasm/bundle.mjs) in Debian's headless
// Chromium: the API on the WebAssembly engine answers as the native addon
// does in Node (moves, SAN, FEN errors, perft, PGN read and written, a Blob
// streamed), and so does chess-native/chessjs, over the same engine. Skipped without /usr/bin/chromium unless
// CHESS_NATIVE_REQUIRE_BROWSER=1 (set by .ci/run) makes that a failure.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { positionsOf } from './browser/api-page.mjs';
import { facadeSummary } from './browser/chessjs-page.mjs';
import { BUNDLE_FILES, CHROMIUM, hasChromium, openPage, type OpenPage } from './browser/harness.mjs';
import { BAD_FENS } from './bad-fens';
import { api, readEpd, ROOT } from './helpers';

const { parsePgn, writePgn } = api;
const PAGE = '/test/browser/api-page.mjs';
const CHESSJS_PAGE = '/test/browser/chessjs-page.mjs';
const facade = createRequire(import.meta.url)(path.join(ROOT, 'dist', 'chessjs', 'index.js')) as typeof import('../src/chessjs/index');
const REQUIRED = process.env.CHESS_NATIVE_REQUIRE_BROWSER === '1';
const AVAILABLE = hasChromium();

if (!AVAILABLE && !REQUIRED) console.warn(`test/browser-api.test.ts skipped: no ${CHROMIUM} (apt-get install chromium)`);

const PGN_TEXT = `[Event "A"]
[White "Café"]
[Black "B"]
[Result "1-0"]

{ start } 1. e4 { [%clk 0:03:00] } e5 (1... c5 2. Nf3 $1) 2. Nf3 Nc6 3. Bb5 a6 4. Qxf7 1-0

[Event "bad"]

1. e4 e5 2. Ke3 Nf6 *

[FEN "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"]
[SetUp "1"]

1. d4 ( 1. c4 e5 ) 1... d5 2. c4 dxc4 1/2-1/2
`;

let opened: OpenPage;

describe.skipIf(!AVAILABLE && !REQUIRED)('the browser entry in headless Chromium', { timeout: 60_000 }, () => {
  beforeAll(async () => {
    if (!AVAILABLE) throw new Error(`${CHROMIUM} is missing: apt-get install chromium`);
    if (!existsSync(path.join(ROOT, 'dist', 'browser.mjs'))) throw new Error('dist/browser.mjs is missing: npm run build:ts');
    opened = await openPage({
      files: [...BUNDLE_FILES, PAGE.slice(1), CHESSJS_PAGE.slice(1)],
    });
  }, 60_000);

  afterAll(async () => {
    await opened?.close();
  });

  it('runs on the wasm backend', async () => {
    const info = await opened.call<{ backend: string; napi: number }>(PAGE, 'info');
    expect(info).toMatchObject({ backend: 'wasm', napi: 0 });
  });

  it('answers moves, SAN, state, hashes and FEN errors as the addon does', async () => {
    const fens = [...readEpd('perftsuite.epd').map((l) => l.fen), ...BAD_FENS.map(([, fen]) => fen)];
    expect(await opened.call(PAGE, 'positions', fens)).toEqual(positionsOf(api, fens));
    expect(opened.errors).toEqual([]);
  });

  it('counts perft exactly', async () => {
    const kiwipete = 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1';
    expect(await opened.call(PAGE, 'perft', kiwipete, 4)).toBe('4085603');
  });

  it('reads and writes PGN as the addon does, from a string and from a Blob', async () => {
    const expected = parsePgn(PGN_TEXT).map((g) => ({
      headers: g.headers,
      moves: g.moves().map((m) => m.uci),
      errors: g.errors,
      written: writePgn(g),
    }));
    expect(expected.length).toBe(3);
    expect(await opened.call(PAGE, 'pgn', PGN_TEXT)).toEqual({ parsed: expected, streamed: expected });
  });

  it('answers chess-native/chessjs calls (moves, move, pgn, loadPgn) as the facade does in Node', async () => {
    const game = PGN_TEXT.slice(PGN_TEXT.indexOf('[FEN')); // loadPgn takes one game, and throws on an illegal move
    expect(await opened.call(CHESSJS_PAGE, 'summary', game)).toEqual(facadeSummary(facade, game));
    expect(opened.errors).toEqual([]);
  });

  it('starts fetching the engine before the API it backs has arrived', async () => {
    const { engineFetchStart, apiArrived } = await opened.call<{ engineFetchStart: number; apiArrived: number }>(PAGE, 'loadTimes');
    expect(engineFetchStart).toBeLessThan(apiArrived);
  });

  it('takes over the engine the entry started while the API loaded', async () => {
    const { started, startedInitMs, initMs } = await opened.call<{ started: boolean; startedInitMs: number; initMs: number }>(
      PAGE,
      'startedEngine',
    );
    expect(started).toBe(true);
    expect(initMs).toBe(startedInitMs);
  });

  it('fetches the engine once for both entries', async () => {
    expect(await opened.call(CHESSJS_PAGE, 'engineFetches')).toBe(1);
  });

  it('says what is Node-only', async () => {
    expect(await opened.call(PAGE, 'nodeOnly')).toMatch(/is Node-only/);
  });
});
