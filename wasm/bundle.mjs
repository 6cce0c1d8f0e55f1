#!/usr/bin/env node
// Builds the package's `browser` entries, ES modules with no Node imports
// over the WebAssembly engine: dist/browser.mjs (the whole API of
// src/index.ts) and dist/chessjs/browser.mjs (chess.js's API of
// src/chessjs/index.ts).
//
// Each entry is a few lines: it starts fetching and compiling the engine
// (WebAssembly.compileStreaming, from `globalThis.CHESS_NATIVE_WASM_URL`
// when a page sets it, else from ../wasm/chess-native.wasm next to dist/,
// which bundlers that understand `new URL(..., import.meta.url)` copy), and
// meanwhile imports the API, one module for both entries bundled by
// esbuild, dist/browser-api.mjs, which holds each entry's exports as one
// namespace. So the engine and the API load at once rather than one after
// the other, and an app importing both entries loads each once. Once the
// module is compiled, the entry also starts its first instance and the
// engine's tables (src/core/wasm/start.ts) while the API is still arriving.
// It leaves that work in a global slot keyed by the package's version,
// which the API module's first statement awaits (top-level await); the
// API's first engine takes the started instance over.
//
// perftAsync's workers are Web Workers running
// src/core/wasm/web-perft-worker.ts, bundled first and carried as a string
// (a Blob URL at run time), sent the compiled module. Node's globals come
// from wasm/browser-shims.mjs, node:os from wasm/browser-os.mjs; other Node
// modules are stubs whose functions throw "... is Node-only", so what needs
// a file system fails with that error rather than at load.
//
//   node wasm/bundle.mjs
import { build } from 'esbuild';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DIST = path.join(ROOT, 'dist');

/** Where the entries leave the engine's compile for the API: one slot a version of the package. */
const { version } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const ENGINE_SLOT = `Symbol.for(${JSON.stringify(`chess-native@${version} engine`)})`;

// Runs before any module of the API (the bundle keeps module order): they
// see the module already provided.
const PRELUDE = `
import { provideModule } from './src/core/wasm/instance';
import { requestBackend } from './src/core/backend-choice';
import { useWebWorkers } from './src/core/wasm/web-workers';
import workerSource from 'chess-native:worker';
const starting = globalThis[${ENGINE_SLOT}];
if (!starting) throw new Error('chess-native: load the browser build through its entry (dist/browser.mjs or dist/chessjs/browser.mjs)');
const { module, instance } = await starting;
provideModule(module, instance);
useWebWorkers(workerSource);
requestBackend('wasm');
`;

/**
 * An entry: the engine's compile and start started (unless the other entry
 * did), the API module imported meanwhile, and the `names` of its namespace
 * `member` exported.
 */
function entrySource(api, member, names, wasmPath) {
  return `import { startEngine } from './src/core/wasm/start';
async function compileEngine(source) {
  try {
    return await WebAssembly.compileStreaming(fetch(source));
  } catch {
    // A server that does not send application/wasm: compile the bytes.
    return WebAssembly.compile(await (await fetch(source)).arrayBuffer());
  }
}
const slot = ${ENGINE_SLOT};
globalThis[slot] ??= compileEngine(globalThis.CHESS_NATIVE_WASM_URL ?? new URL(${JSON.stringify(wasmPath)}, import.meta.url)).then(startEngine);
// Awaited by the API's first module; a failure is thrown there, not reported twice.
globalThis[slot].catch(() => {});
const api = await import(${JSON.stringify(api)});
export const { ${names.join(', ')} } = api.${member};
`;
}

const ENTRY_BANNER = `// chess-native's browser entry (wasm/bundle.mjs writes it): the engine
// starts loading, then starting (startEngine), before the API it backs,
// which loads meanwhile.`;

/** An entry's source bundled with what it imports but the API module, which stays a module of its own. */
async function bundleEntry(source, api) {
  const result = await build({
    ...COMMON,
    stdin: { contents: source, resolveDir: ROOT, loader: 'js', sourcefile: 'entry.mjs' },
    banner: { js: ENTRY_BANNER },
    format: 'esm',
    write: false,
    plugins: [{ name: 'api-module', setup: (b) => b.onResolve({ filter: /browser-api\.mjs$/ }, () => ({ path: api, external: true })) }],
  });
  return checkWarnings(result, 'an entry').outputFiles[0].text;
}

/** The entries, by output path under dist/ (no extension). */
const ENTRIES = { browser: './src/index', 'chessjs/browser': './src/chessjs/index' };

/**
 * The names src/ takes from `specifier`: `import { a, b as c } from`, and
 * the members read through `import * as ns from` (ns.member).
 */
function importedNames(specifier) {
  const names = new Set();
  const quoted = `'${specifier.replace(/[/]/g, '\\/')}'`;
  const named = new RegExp(`import\\s*\\{([^}]*)\\}\\s*from\\s*${quoted}`, 'g');
  const namespace = new RegExp(`import\\s*\\*\\s*as\\s+(\\w+)\\s+from\\s*${quoted}`, 'g');
  for (const file of readdirSync(path.join(ROOT, 'src'), { recursive: true })) {
    if (!String(file).endsWith('.ts')) continue;
    const text = readFileSync(path.join(ROOT, 'src', String(file)), 'utf8');
    for (const m of text.matchAll(named)) for (const part of m[1].split(',')) if (part.trim()) names.add(part.trim().split(/\s+/)[0]);
    for (const [, ns] of text.matchAll(namespace))
      for (const [, member] of text.matchAll(new RegExp(`\\b${ns}\\.(\\w+)`, 'g'))) names.add(member);
  }
  return [...names];
}

/** Node modules the bundle implements for browsers, for the names these modules export. */
const BROWSER_MODULES = { 'node:os': path.join(ROOT, 'wasm', 'browser-os.mjs') };

/** Modules whose members src/ only feature-tests (`buffer.isAscii?.()`): their members are undefined, so the fallback runs. */
const FEATURE_TESTED = new Set(['node:buffer']);

/**
 * Node modules as stubs: each name src/ imports from one is a function that
 * throws "<module>.<name> is Node-only", so the bundle loads and only the
 * Node-only calls fail; the names BROWSER_MODULES implement come from there.
 * Also the modules of the bundle itself: chess-native:prelude, the worker's
 * source as chess-native:worker, the API module as chess-native:api (the
 * prelude, then each entry's exports as a namespace), and each entry's
 * exports alone as chess-native:<entry> (for their names).
 */
function nodeStubs(workerSource) {
  return {
    name: 'node-stubs',
    setup(b) {
      b.onResolve({ filter: /^(node:|node-gyp-build$)/ }, (args) => ({ path: args.path, namespace: 'node-stub' }));
      b.onLoad({ filter: /.*/, namespace: 'node-stub' }, async (args) => {
        const fail = (name) =>
          `() => { throw new Error(${JSON.stringify(`${args.path}${name ? `.${name}` : ''} is Node-only: not in the browser build of chess-native`)}); }`;
        const stub = FEATURE_TESTED.has(args.path) ? () => 'undefined' : fail;
        const real = BROWSER_MODULES[args.path];
        const provides = real ? Object.keys(await import(pathToFileURL(real).href)) : [];
        const named = importedNames(args.path).map((name) =>
          provides.includes(name) ? `export { ${name} } from ${JSON.stringify(real)};` : `export const ${name} = ${stub(name)};`,
        );
        return { contents: [...named, `export default ${fail('')};`].join('\n'), loader: 'js', resolveDir: ROOT };
      });
      b.onResolve({ filter: /^chess-native:/ }, (args) => ({ path: args.path.slice('chess-native:'.length), namespace: 'chess-native' }));
      b.onLoad({ filter: /.*/, namespace: 'chess-native' }, (args) => {
        if (args.path === 'prelude') return { contents: PRELUDE, resolveDir: ROOT, loader: 'ts' };
        if (args.path === 'worker') return { contents: `export default ${JSON.stringify(workerSource)};`, loader: 'js' };
        if (args.path === 'api') {
          const contents = Object.entries(ENTRIES).map(([name, entry]) => `export * as ${exportName(name)} from '${entry}';`);
          return { contents: [`import 'chess-native:prelude';`, ...contents].join('\n'), resolveDir: ROOT, loader: 'ts' };
        }
        const entry = ENTRIES[args.path];
        return { contents: `export * from '${entry}';\n`, resolveDir: ROOT, loader: 'ts' };
      });
    },
  };
}

/** What both builds share. */
const COMMON = {
  bundle: true,
  platform: 'browser',
  target: 'es2022',
  define: { 'process.env': '{}', __dirname: '"/"' },
  legalComments: 'none',
  // A warning (an import the stubs lack) fails the build.
  logLevel: 'warning',
};

function checkWarnings(result, what) {
  if (result.warnings.length) throw new Error(`bundle: ${result.warnings.length} warnings in ${what}`);
  return result;
}

/** The perft worker's script: one classic script, so that any browser starts it from a Blob URL. */
async function bundleWorker() {
  const result = await build({
    ...COMMON,
    entryPoints: [path.join(ROOT, 'src', 'core', 'wasm', 'web-perft-worker.ts')],
    format: 'iife',
    minify: true,
    write: false,
    plugins: [nodeStubs('')],
  });
  return checkWarnings(result, 'the worker').outputFiles[0].text;
}

/** `to` as an import specifier from a module in `fromDir`. */
function specifier(fromDir, to) {
  const relative = path.relative(fromDir, to).split(path.sep).join('/');
  return relative.startsWith('.') ? relative : `./${relative}`;
}

/** The name an entry's exports have in the API module. */
function exportName(entry) {
  return entry.replace(/\W/g, '_');
}

/** The names each entry exports, by entry (a build that writes nothing, for its metafile). */
async function entryExports(plugins) {
  const result = await build({
    ...COMMON,
    absWorkingDir: ROOT,
    entryPoints: Object.keys(ENTRIES).map((name) => ({ in: `chess-native:${name}`, out: name })),
    outdir: DIST,
    splitting: true,
    format: 'esm',
    write: false,
    metafile: true,
    plugins,
  });
  const outputs = Object.values(result.metafile.outputs);
  return Object.fromEntries(
    Object.keys(ENTRIES).map((name) => [name, outputs.find((o) => o.entryPoint === `chess-native:${name}`).exports]),
  );
}

/** Bundles the browser entries into `outdir` (dist/); returns the entries' paths. */
export async function bundleBrowser(outdir = DIST) {
  const worker = await bundleWorker();
  const plugins = [nodeStubs(worker)];
  const api = path.join(outdir, 'browser-api.mjs');
  const result = await build({
    ...COMMON,
    absWorkingDir: ROOT,
    entryPoints: [{ in: 'chess-native:api', out: 'browser-api' }],
    outdir,
    outExtension: { '.js': '.mjs' },
    format: 'esm',
    inject: [path.join(ROOT, 'wasm', 'browser-shims.mjs')],
    plugins,
  });
  checkWarnings(result, 'the API');
  const names = await entryExports(plugins);
  const wasm = path.join(outdir, '..', 'wasm', 'chess-native.wasm');
  const entries = [];
  for (const name of Object.keys(ENTRIES)) {
    const entry = path.join(outdir, `${name}.mjs`);
    const dir = path.dirname(entry);
    const apiSpecifier = specifier(dir, api);
    writeFileSync(entry, await bundleEntry(entrySource(apiSpecifier, exportName(name), names[name], specifier(dir, wasm)), apiSpecifier));
    entries.push(entry);
  }
  return entries;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const out = await bundleBrowser();
  console.error(`bundle: ${out.map((file) => path.relative(ROOT, file)).join(', ')}`);
}
