#!/usr/bin/env node
// Builds the demo with esbuild as an app that depends on chess-native would:
// `chess-native` is the package's browser entry (what its exports' `browser`
// condition names: this checkout's dist/browser.mjs), and the engine's .wasm is copied to wasm/ beside the bundle's
// folder, where the browser entry looks for it (../wasm/chess-native.wasm
// from the bundle; at the site's root, that is /wasm/chess-native.wasm). With --serve, serves the result on
// 127.0.0.1 (port 8080, or --port N) until interrupted.
//
//   node examples/browser/build.mjs [--out DIR] [--serve] [--port N]
import { build } from 'esbuild';
import { copyFile, mkdir, readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '..', '..');
const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm', '.map': 'application/json' };

/** Bundles the page into `out`; returns the folder. */
export async function buildDemo(out = path.join(HERE, 'dist')) {
  await mkdir(out, { recursive: true });
  await build({
    entryPoints: [path.join(HERE, 'main.js')],
    outdir: out,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    // The demo lives inside the package: `chess-native` is this checkout's browser entry.
    alias: { 'chess-native': path.join(ROOT, 'dist', 'browser.mjs') },
    logLevel: 'warning',
  });
  await copyFile(path.join(HERE, 'index.html'), path.join(out, 'index.html'));
  await mkdir(path.join(out, 'wasm'), { recursive: true });
  await copyFile(path.join(ROOT, 'wasm', 'chess-native.wasm'), path.join(out, 'wasm', 'chess-native.wasm'));
  return out;
}

/** Serves the files of `dir` on 127.0.0.1:`port`; resolves with the server once it listens. */
export function serveDir(dir, port) {
  const server = createServer((request, response) => {
    const name = new URL(request.url ?? '/', 'http://127.0.0.1').pathname.replace(/^\/$/, '/index.html');
    const file = path.join(dir, path.normalize(name));
    if (!file.startsWith(dir + path.sep)) return void response.writeHead(404).end();
    readFile(file).then(
      (body) => response.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' }).end(body),
      () => response.writeHead(404).end(),
    );
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: { out: { type: 'string' }, serve: { type: 'boolean' }, port: { type: 'string', default: '8080' } },
  });
  const out = await buildDemo(values.out && path.resolve(values.out));
  console.log(`demo built in ${path.relative(process.cwd(), out) || '.'}`);
  if (values.serve) {
    const server = await serveDir(out, Number(values.port));
    const { port } = server.address();
    console.log(`serving on http://127.0.0.1:${port}/ (Ctrl-C to stop)`);
  }
}
