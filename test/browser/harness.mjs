// Runs scripts in a page of Debian's Chromium, headless, driven by
// playwright-core (which downloads no browser): the page and its files are
// served from 127.0.0.1 by this process. The tests and bench/browser.mjs use
// it; whatever happens, the server, the browser and its profile are closed.
import { createServer } from 'node:http';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Debian's package (apt-get install chromium); never a downloaded browser. */
export const CHROMIUM = '/usr/bin/chromium';

/** The package's browser entries and what they load (wasm/bundle.mjs builds them), as served to a page. */
export const BUNDLE_FILES = ['dist/browser.mjs', 'dist/chessjs/browser.mjs', 'dist/browser-api.mjs', 'wasm/chess-native.wasm'];

/** Headless, no sandbox (root in a container), and no traffic of its own. */
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** How long launching, loading the page or one call in it may take. */
const TIMEOUT_MS = 30_000;

const TYPES = { '.html': 'text/html', '.mjs': 'text/javascript', '.js': 'text/javascript', '.wasm': 'application/wasm' };

/** Whether Chromium can be launched here. */
export function hasChromium() {
  return existsSync(CHROMIUM);
}

/**
 * Serves exactly the given files: repository-relative paths at `/<path>`
 * (so relative imports between them resolve as on disk), plus bodies built in
 * memory ({ '/x.mjs': string }). Anything else is a 404. The blank page is `/`.
 */
async function serve(files, bodies) {
  const routes = new Map(files.map((file) => [`/${file}`, () => readFile(path.join(ROOT, file))]));
  for (const [url, body] of Object.entries(bodies)) routes.set(url, async () => body);
  routes.set('/', async () => '<!doctype html><meta charset="utf-8"><title>chess-native</title>');
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1').pathname;
    const route = routes.get(url);
    if (!route) return void response.writeHead(404).end();
    route().then(
      (body) => {
        const type = TYPES[path.extname(url)] ?? (url === '/' ? TYPES['.html'] : 'text/plain');
        response.writeHead(200, { 'content-type': type, 'cache-control': 'no-store' }).end(body);
      },
      () => void response.writeHead(500).end(),
    );
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address();
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

/**
 * Runs in the page (playwright sends its source text): made from text so that
 * no transform of this file (vitest rewrites import()) reaches it.
 */
const IMPORT_AND_CALL = new Function('[url, name, args]', 'return import(url).then((module) => module[name](...args));');

/** `promise`, or a rejection after `ms`. */
function deadline(promise, ms, what) {
  let timer;
  const expired = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer from the page in ${ms} ms`)), ms);
  });
  return Promise.race([promise, expired]).finally(() => clearTimeout(timer));
}

/**
 * Opens the blank page served with `files` and `bodies` (see serve) in a
 * fresh profile. Returns { page, origin, errors, call, close }: `call(url,
 * name, ...args)` imports the module served at `url` in the page and awaits
 * its export `name` on JSON arguments (at most `callMs`); `errors` collects
 * uncaught page errors and a crash. `close` must be called (once is enough;
 * it never throws).
 */
export async function openPage({ files = [], bodies = {}, callMs = TIMEOUT_MS } = {}) {
  const closers = [];
  const close = async () => {
    for (const closer of closers.splice(0).reverse()) await closer().catch(() => {});
  };
  try {
    const server = await serve(files, bodies);
    closers.push(server.close);
    const profile = await mkdtemp(path.join(tmpdir(), 'chess-native-chromium-'));
    closers.push(() => rm(profile, { recursive: true, force: true }));
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_FLAGS,
      timeout: TIMEOUT_MS,
    });
    closers.push(() => context.close());
    const page = context.pages()[0] ?? (await context.newPage());
    page.setDefaultTimeout(TIMEOUT_MS);
    const errors = [];
    page.on('pageerror', (error) => errors.push(`page error: ${error.message}`));
    page.on('crash', () => errors.push('the page crashed'));
    await page.goto(`${server.origin}/`);
    const call = (url, name, ...args) => deadline(page.evaluate(IMPORT_AND_CALL, [url, name, args]), callMs, `${url} ${name}`);
    return { page, origin: server.origin, errors, call, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** Runs `body(opened)` on a page from openPage and always closes it. */
export async function withPage(options, body) {
  const opened = await openPage(options);
  try {
    return await body(opened);
  } finally {
    await opened.close();
  }
}
