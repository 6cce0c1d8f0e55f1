#!/usr/bin/env node
// Builds dist/browser.mjs, the package's `browser` entry: the whole API of
// src/index.ts bundled by esbuild as one ES module with no Node imports,
// over the WebAssembly engine. Its first statement fetches and compiles the
// module (top-level await), from `globalThis.CHESS_NATIVE_WASM_URL` when a
// page sets it, else from ../wasm/chess-native.wasm next to the bundle (the
// package's own file; bundlers that understand `new URL(..., import.meta.url)`
// copy it). Node's globals come from wasm/browser-shims.mjs; Node modules
// are stubs whose functions throw "... is Node-only", so what needs a file
// system or native threads fails with that error rather than at load.
//
//   node wasm/bundle.mjs
import { build } from 'esbuild';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const BROWSER_BUNDLE = path.join(ROOT, 'dist', 'browser.mjs');

// Compiles the engine before any module of the API runs: the bundle keeps
// module order, so the API's modules see the module already provided.
const PRELUDE = `
import { provideModule } from './src/core/wasm/instance';
import { requestBackend } from './src/core/backend-choice';
const source = globalThis.CHESS_NATIVE_WASM_URL ?? new URL('../wasm/chess-native.wasm', import.meta.url);
const response = fetch(source);
let module;
try {
  module = await WebAssembly.compileStreaming(response);
} catch {
  // A server that does not send application/wasm: compile the bytes.
  module = await WebAssembly.compile(await (await fetch(source)).arrayBuffer());
}
provideModule(module);
requestBackend('wasm');
`;

const ENTRY = `import 'chess-native:prelude';\nexport * from './src/index';\n`;

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

/** Modules whose members src/ only feature-tests (`buffer.isAscii?.()`): their members are undefined, so the fallback runs. */
const FEATURE_TESTED = new Set(['node:buffer']);

/**
 * Node modules as stubs: each name src/ imports from one is a function that
 * throws "<module>.<name> is Node-only", so the bundle loads and only the
 * Node-only calls fail.
 */
const nodeStubs = {
  name: 'node-stubs',
  setup(b) {
    b.onResolve({ filter: /^(node:|node-gyp-build$)/ }, (args) => ({ path: args.path, namespace: 'node-stub' }));
    b.onLoad({ filter: /.*/, namespace: 'node-stub' }, (args) => {
      const fail = (name) =>
        `() => { throw new Error(${JSON.stringify(`${args.path}${name ? `.${name}` : ''} is Node-only: not in the browser build of chess-native`)}); }`;
      const stub = FEATURE_TESTED.has(args.path) ? () => 'undefined' : fail;
      const named = importedNames(args.path).map((name) => `export const ${name} = ${stub(name)};`);
      return { contents: [...named, `export default ${fail('')};`].join('\n'), loader: 'js' };
    });
    b.onResolve({ filter: /^chess-native:prelude$/ }, () => ({ path: 'prelude', namespace: 'chess-native' }));
    b.onLoad({ filter: /.*/, namespace: 'chess-native' }, () => ({ contents: PRELUDE, resolveDir: ROOT, loader: 'ts' }));
  },
};

/** Bundles src/index.ts for browsers into `outfile`. */
export async function bundleBrowser(outfile = BROWSER_BUNDLE) {
  await build({
    stdin: { contents: ENTRY, resolveDir: ROOT, loader: 'ts', sourcefile: 'browser-entry.ts' },
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    inject: [path.join(ROOT, 'wasm', 'browser-shims.mjs')],
    define: { 'process.env': '{}', __dirname: '"/"' },
    plugins: [nodeStubs],
    legalComments: 'none',
    // A warning (an import the stubs lack) fails the build.
    logLevel: 'warning',
  }).then((result) => {
    if (result.warnings.length) throw new Error(`bundle: ${result.warnings.length} warnings`);
  });
  return outfile;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const out = await bundleBrowser();
  console.error(`bundle: ${path.relative(ROOT, out)}`);
}
