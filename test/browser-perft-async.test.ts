// perftAsync of the package's browser entry (dist/browser.mjs) in Debian's
// headless Chromium: counted on Web Workers, each with its own instance of
// the wasm module, over a page served from 127.0.0.1 without COOP/COEP
// headers (test/browser/harness.mjs). Exact counts and divides, progress,
// abort. Skipped without /usr/bin/chromium unless
// CHESS_NATIVE_REQUIRE_BROWSER=1 (set by .ci/run) makes that a failure.
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUNDLE_FILES, CHROMIUM, hasChromium, openPage, withPage, type OpenPage } from './browser/harness.mjs';
import { api, readEpd, ROOT } from './helpers';

const { Position, START_FEN } = api;
const PAGE = '/test/browser/perft-page.mjs';
const REQUIRED = process.env.CHESS_NATIVE_REQUIRE_BROWSER === '1';
const AVAILABLE = hasChromium();
/** Each CPW position is counted at its deepest published depth with at most this many leaves. */
const LIMIT = 5_000_000n;

if (!AVAILABLE && !REQUIRED) console.warn(`test/browser-perft-async.test.ts skipped: no ${CHROMIUM} (apt-get install chromium)`);

interface Progress {
  nodes: string;
  rootMovesDone: number;
  rootMovesTotal: number;
  elapsedMs: number;
}
interface Run {
  nodes: string;
  divide: Record<string, string>;
  positionDivide: Record<string, string>;
  progress: Progress[];
  workers: { started: number; terminated: number };
}
interface Aborted {
  resolved?: true;
  error: { name: string; code: string; message: string; causeIsReason: boolean };
  ms: number;
}

let opened: OpenPage;

describe.skipIf(!AVAILABLE && !REQUIRED)('perftAsync on Web Workers in headless Chromium', { timeout: 60_000 }, () => {
  beforeAll(async () => {
    if (!AVAILABLE) throw new Error(`${CHROMIUM} is missing: apt-get install chromium`);
    if (!existsSync(path.join(ROOT, 'dist', 'browser.mjs'))) throw new Error('dist/browser.mjs is missing: npm run build:ts');
    opened = await openPage({
      files: [...BUNDLE_FILES, PAGE.slice(1)],
      callMs: 60_000,
    });
  }, 60_000);

  afterAll(async () => {
    await opened?.close();
  });

  it('counts the CPW positions exactly on 2 workers; the divide is Position.divide', async () => {
    const cases = readEpd('cpw.epd').map(({ fen, counts }) => {
      const [depth, expected] = [...counts].filter(([, n]) => n <= LIMIT).at(-1)!;
      return { fen, depth, expected };
    });
    expect(cases.length).toBeGreaterThanOrEqual(6);
    for (const { fen, depth, expected } of cases) {
      const run = await opened.call<Run>(PAGE, 'run', fen, depth, 2);
      expect(run.nodes, `${fen} depth ${depth}`).toBe(expected.toString());
      const native = Object.fromEntries(Object.entries(new Position(fen).divide(depth)).map(([m, n]) => [m, String(n)]));
      expect(run.divide, fen).toEqual(run.positionDivide);
      expect(run.divide, fen).toEqual(native);
    }
    const { workers } = await opened.call<Run>(PAGE, 'run', START_FEN, 1, 2);
    expect(workers.started).toBe(2); // both workers are reused from run to run
    expect(opened.errors).toEqual([]);
  });

  it('runs with no options: threads and table size have their defaults in a browser too', async () => {
    const run = await opened.call<{ nodes: string; hash: { mb: number } }>(PAGE, 'runDefaults', START_FEN, 5);
    expect(run).toMatchObject({ nodes: '4865609', hash: { mb: 4 } });
  });

  it('reports progress that only grows and ends at the total', async () => {
    const { nodes, progress } = await opened.call<Run>(PAGE, 'run', START_FEN, 6, 2);
    expect(nodes).toBe('119060324');
    expect(progress.length).toBeGreaterThanOrEqual(2);
    progress.slice(1).forEach((p, i) => {
      const q = progress[i]!;
      expect(BigInt(p.nodes)).toBeGreaterThanOrEqual(BigInt(q.nodes));
      expect(p.rootMovesDone).toBeGreaterThanOrEqual(q.rootMovesDone);
      expect(p.elapsedMs).toBeGreaterThanOrEqual(q.elapsedMs);
    });
    expect(progress.every((p) => p.rootMovesTotal === 20)).toBe(true);
    expect(progress.at(-1)).toMatchObject({ nodes, rootMovesDone: 20 });
  });

  it('rejects with an AbortError soon after an abort mid-run, terminates the busy workers, and counts again after', async () => {
    const aborted = await opened.call<Aborted & { before: Run['workers']; after: Run['workers'] }>(PAGE, 'abortMidRun', START_FEN, 9, 2);
    expect(aborted.resolved).toBeUndefined();
    expect(aborted.error).toMatchObject({ name: 'AbortError', code: 'ABORT_ERR', causeIsReason: true });
    expect(aborted.ms).toBeLessThan(1000);
    expect(aborted.after.terminated - aborted.before.terminated).toBe(2);
    const again = await opened.call<Run>(PAGE, 'run', START_FEN, 4, 2);
    expect(again.nodes).toBe('197281');
    expect(opened.errors).toEqual([]);
  });

  it('ends a run whose worker fails as cancelled, with a warning, and counts again after', async () => {
    const { outcome, warnings, again } = await opened.call<{ outcome: unknown; warnings: string[]; again: string }>(
      PAGE,
      'workerFails',
      START_FEN,
      5,
    );
    expect(outcome).toEqual({ name: 'AbortError', code: 'ABORT_ERR', message: 'perft was cancelled' });
    expect(warnings).toEqual([expect.stringMatching(/^chess-native: a wasm perft worker failed \(.+\); its job ends as cancelled$/)]);
    expect(again).toBe('4865609');
    expect(opened.errors).toEqual([]);
  });

  it('under a Content-Security-Policy that blocks blob: workers, ends the run as cancelled and says why', async () => {
    // 'unsafe-eval' for playwright's waitForFunction; no blob: for workers, which fall back to script-src.
    const csp = "default-src 'self'; script-src 'self' 'unsafe-eval' 'wasm-unsafe-eval'";
    const bodies = {
      '/csp.html': `<!doctype html><meta http-equiv="Content-Security-Policy" content="${csp}"><script type="module" src="/app.mjs"></script>`,
      '/app.mjs': `import { perftAsync, START_FEN } from '/dist/browser.mjs';
        const warnings = [];
        console.warn = (message) => warnings.push(message);
        perftAsync(START_FEN, 4, { threads: 2 }).then(
          (r) => { window.result = { nodes: String(r.nodes) }; },
          (e) => { window.result = { name: e.name, message: e.message, warnings }; },
        );`,
    };
    const result = await withPage({ files: BUNDLE_FILES, bodies }, async ({ page, origin }) => {
      const p = page as unknown as {
        goto(url: string): Promise<unknown>;
        waitForFunction(f: string): Promise<{ jsonValue(): Promise<unknown> }>;
      };
      await p.goto(`${origin}/csp.html`);
      return (await p.waitForFunction('window.result')).jsonValue();
    });
    expect(result).toMatchObject({ name: 'AbortError', message: 'perft was cancelled' });
    expect((result as { warnings: string[] }).warnings[0]).toMatch(/Content-Security-Policy allow worker-src blob:/);
  });

  it('rejects at once for a signal already aborted, starting no worker', async () => {
    const aborted = await opened.call<Aborted & { started: number }>(PAGE, 'alreadyAborted', START_FEN);
    expect(aborted.error).toMatchObject({ name: 'AbortError', code: 'ABORT_ERR', causeIsReason: true });
    expect(aborted.started).toBe(0);
    expect(aborted.ms).toBeLessThan(500);
  });
});
