// The browser entry under load in headless Chromium: a long PGN streamed in
// chunks keeps the module's memory flat, and hostile PGN text gives the same
// answers as the addon in Node with the page alive. Skipped without
// /usr/bin/chromium unless CHESS_NATIVE_REQUIRE_BROWSER=1 makes that a
// failure. CHESS_NATIVE_BROWSER_PGN_MB sets the stream's size (default 96).
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUNDLE_FILES, CHROMIUM, hasChromium, openPage, type OpenPage } from './browser/harness.mjs';
import { api, ROOT } from './helpers';

const PAGE = '/test/browser/bounds-page.mjs';
const REQUIRED = process.env.CHESS_NATIVE_REQUIRE_BROWSER === '1';
const AVAILABLE = hasChromium();
const MEGABYTES = Number(process.env.CHESS_NATIVE_BROWSER_PGN_MB ?? 96);

if (!AVAILABLE && !REQUIRED) console.warn(`test/browser-bounds.test.ts skipped: no ${CHROMIUM} (apt-get install chromium)`);

/** The first game of the annotated fixture: comments, clocks, NAGs and variations. */
const GAME = readFileSync(path.join(ROOT, 'test', 'fixtures', 'pgn-annotated.pgn'), 'utf8').split(/\n\n(?=\[)/)[0]!;

/** Seeded bytes: random, and random edits of a real game. */
function hostileTexts(): string[] {
  let seed = 0x2545f491;
  const next = (n: number) => {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return (seed >>> 0) % n;
  };
  const texts = ['', '*', '[', '{', '(', ')', '1.', '[Event "', '{ never closed', '((((((((((', '%\n', '\u0000\uffff'];
  for (let i = 0; i < 150; i++) {
    const chars = [...GAME];
    for (let edits = 1 + next(8); edits > 0; edits--) chars.splice(next(chars.length), next(3), String.fromCharCode(next(128)));
    texts.push(chars.join(''));
  }
  for (let i = 0; i < 50; i++) texts.push(String.fromCharCode(...Array.from({ length: 1 + next(400) }, () => next(256))));
  return texts;
}

let opened: OpenPage;

describe.skipIf(!AVAILABLE && !REQUIRED)('the browser entry under load in headless Chromium', { timeout: 180_000 }, () => {
  beforeAll(async () => {
    if (!AVAILABLE) throw new Error(`${CHROMIUM} is missing: apt-get install chromium`);
    opened = await openPage({ files: [...BUNDLE_FILES, PAGE.slice(1)], callMs: 170_000 });
  }, 60_000);

  afterAll(async () => {
    await opened?.close();
  });

  it(`streams ${MEGABYTES} MB of PGN with the module's memory flat`, async () => {
    const plies = api.parsePgn(GAME)[0]!.moves().length;
    expect(plies).toBeGreaterThan(100);
    for (const mode of ['tree', 'headers']) {
      const result = await opened.call<{ games: number; expected: number; plies: number; errors: number; early: number; end: number }>(
        PAGE,
        'stream',
        GAME,
        mode === 'tree' ? MEGABYTES / 4 : MEGABYTES,
        mode,
      );
      expect(result.games).toBe(result.expected);
      expect(result.plies).toBe(mode === 'tree' ? plies * result.games : 0);
      expect(result.errors).toBe(0);
      expect(result.early).toBeGreaterThan(0);
      expect(result.end).toBe(result.early);
    }
    expect(opened.errors).toEqual([]);
  });

  it('answers hostile PGN text as the addon does, and the page lives on', async () => {
    const texts = hostileTexts();
    const expected = texts.map((text) => {
      try {
        const games = api.parsePgn(text);
        return { games: games.length, errors: games.reduce((n, g) => n + g.errors.length, 0) };
      } catch (e) {
        return { thrown: (e as Error).name };
      }
    });
    expect(await opened.call(PAGE, 'hostile', texts)).toEqual(expected);
    expect(opened.errors).toEqual([]);
  });
});
