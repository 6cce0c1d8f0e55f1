// The browser demo (examples/browser), built by its own script as a user's
// app would be and opened in Debian's headless Chromium: the board and its
// legal moves, a move played by clicking, perft on a worker with progress
// and cancel, and a PGN file's games. With CHESS_NATIVE_DEMO_SCREENSHOT=path
// it also saves the screenshot the README shows. Skipped without
// /usr/bin/chromium unless CHESS_NATIVE_REQUIRE_BROWSER=1.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDemo } from '../examples/browser/build.mjs';
import { CHROMIUM, hasChromium, openPage, type OpenPage } from './browser/harness.mjs';

const REQUIRED = process.env.CHESS_NATIVE_REQUIRE_BROWSER === '1';
const AVAILABLE = hasChromium();
if (!AVAILABLE && !REQUIRED) console.warn(`test/demo.test.ts skipped: no ${CHROMIUM} (apt-get install chromium)`);

/** The part of playwright's Page used here. */
interface Page {
  goto(url: string): Promise<unknown>;
  waitForSelector(selector: string, options?: { timeout?: number }): Promise<unknown>;
  waitForFunction(fn: string, arg?: unknown, options?: { timeout?: number }): Promise<unknown>;
  click(selector: string): Promise<void>;
  textContent(selector: string): Promise<string | null>;
  inputValue(selector: string): Promise<string>;
  fill(selector: string, value: string): Promise<void>;
  setInputFiles(selector: string, files: { name: string; mimeType: string; buffer: Buffer }): Promise<void>;
  screenshot(options: { path: string; fullPage?: boolean }): Promise<unknown>;
  $$eval<T>(selector: string, fn: (elements: { textContent: string | null; value?: number; max?: number }[]) => T): Promise<T>;
}

/** Every file of `dir` as a body served at its path. */
function bodiesOf(dir: string): Record<string, string> {
  const bodies: Record<string, string> = {};
  for (const file of readdirSync(dir, { recursive: true }).map(String)) {
    if (file.includes('.')) bodies[`/${file.split(path.sep).join('/')}`] = readFileSync(path.join(dir, file)) as unknown as string;
  }
  return bodies;
}

let opened: OpenPage;
let page: Page;
let out: string;

describe.skipIf(!AVAILABLE && !REQUIRED)('the browser demo', { timeout: 60_000 }, () => {
  beforeAll(async () => {
    if (!AVAILABLE) throw new Error(`${CHROMIUM} is missing: apt-get install chromium`);
    out = await buildDemo(mkdtempSync(path.join(tmpdir(), 'chess-native-demo-')));
    opened = await openPage({ bodies: bodiesOf(out) });
    page = opened.page as unknown as Page;
    await page.goto(`${opened.origin}/index.html`);
    await page.waitForSelector('body[data-ready="true"]');
  }, 60_000);

  afterAll(async () => {
    await opened?.close();
    if (out) rmSync(out, { recursive: true, force: true });
  });

  it('shows the start position and its 20 moves, and plays one by clicking', async () => {
    expect(await page.textContent('#count')).toBe('20');
    expect(await page.$$eval('#board text', (pieces) => pieces.length)).toBe(32);
    await page.click('#moves button[title="e2e4"]');
    expect(await page.inputValue('#fen')).toBe('rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1');
    expect(await page.textContent('#status')).toBe('Black to move.');
    // A piece, then a target square on the board.
    await page.click('#board text[data-square="g8"]');
    await page.click('#board circle[data-square="f6"]');
    expect(await page.inputValue('#fen')).toMatch(/^rnbqkb1r\/pppppppp\/5n2\/8\/4P3/);
    await page.click('#undo');
    await page.click('#undo');
    expect(await page.textContent('#count')).toBe('20');
  });

  it('names a bad FEN field and keeps the page', async () => {
    await page.fill('#fen', 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1');
    await page.click('#load');
    expect(await page.textContent('#fen-error')).toMatch(/\(field: turn\)$/);
    await page.click('#reset');
    expect(await page.textContent('#fen-error')).toBe('');
  });

  it('counts perft on a worker with progress, and cancels', async () => {
    await page.fill('#depth', '4');
    await page.click('#perft');
    await page.waitForFunction("/^(perft\\(4\\)|Error)/.test(document.getElementById('perft-result').textContent)");
    expect(await page.textContent('#perft-result')).toMatch(/^perft\(4\) = 197,281 in \d+ ms$/);
    expect(await page.$$eval('#progress', ([p]) => [p!.value, p!.max])).toEqual([20, 20]);
    await page.fill('#depth', '8');
    await page.click('#perft');
    await page.click('#cancel');
    expect(await page.textContent('#perft-result')).toBe('Cancelled.');
    expect(opened.errors).toEqual([]);
  });

  it('opens a PGN file and lists its games and errors', async () => {
    const text = '[White "A"]\n[Black "B"]\n\n1. e4 e5 2. Nf3 1-0\n\n[White "C"]\n\n1. d4 Ke7 *\n';
    await page.setInputFiles('#pgn', { name: 'games.pgn', mimeType: 'text/plain', buffer: Buffer.from(text) });
    await page.waitForFunction("document.getElementById('pgn-summary').textContent !== ''");
    expect(await page.textContent('#pgn-summary')).toMatch(/^2 games, 1 errors/);
    const errors = await page.$$eval('#games .error', (rows) => rows.map((r) => r.textContent));
    expect(errors).toEqual([expect.stringMatching(/^ {2}line 8:\d+ /)]);
    await page.fill('#fen', 'r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3');
    await page.click('#load');
    const screenshot = process.env.CHESS_NATIVE_DEMO_SCREENSHOT;
    if (screenshot) await page.screenshot({ path: path.resolve(screenshot), fullPage: true });
    expect(opened.errors).toEqual([]);
  });
});
