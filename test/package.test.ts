// The published shape: `npm pack`, install the tarball into a temporary project
// with no compiler on PATH, and load it with PREBUILDS_ONLY=1 through require
// and import, run the installed-package smoke test, and type-check a consumer
// against the shipped .d.ts.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from './helpers';
import { npm, NPM_CLI, packAndInstall, type Installed } from './tarball.mjs';

const TUPLE = `${process.platform}-${process.arch}`;

let installed: Installed | undefined;
let project: string;
let env: NodeJS.ProcessEnv;
let installLog = '';

// Windows: skipped (test/tarball.mjs cannot take the compiler off PATH there);
// the prebuild workflow runs `npm run test:tarball` on Windows instead.
describe.skipIf(process.platform === 'win32')('packed tarball', { timeout: 60_000 }, () => {
  beforeAll(() => {
    installed = packAndInstall();
    ({ project, env, installLog } = installed);
  }, 180_000);

  afterAll(() => {
    installed?.cleanup();
  });

  it('the install environment really has no compiler', () => {
    for (const tool of ['cc', 'gcc', 'g++', 'c++', 'clang', 'make', 'python3']) {
      const r = spawnSync('sh', ['-c', `command -v ${tool}`], { env, encoding: 'utf8' });
      expect(r.status, tool).not.toBe(0);
    }
  });

  it('ships the prebuilds, the sources to rebuild from, compiled JS and types, nothing else heavy', () => {
    const listing = JSON.parse(npm(['pack', '--dry-run', '--json', '--ignore-scripts'], ROOT)) as {
      files: { path: string; size: number }[];
      size: number;
    }[];
    const files = listing[0]!.files.map((f) => f.path);
    for (const f of [
      'package.json',
      'README.md',
      'binding.gyp',
      'csrc/binding/binding.cc',
      'csrc/binding/args.h',
      'csrc/engine/include/chess_native.h',
      'dist/index.js',
      'dist/index.mjs',
      'dist/index.d.ts',
      'dist/chessjs/index.js',
      'dist/chessjs/index.mjs',
      'dist/chessjs/index.d.ts',
      'dist/cli/main.js',
      'dist/wasm.js',
      'dist/wasm.mjs',
      'dist/wasm.d.ts',
      'dist/browser.mjs',
      'dist/browser-api.mjs',
      'dist/chessjs/browser.mjs',
      'dist/core/wasm/perft-worker.js',
      'wasm/chess-native.wasm',
      'wasm/loader.mjs',
    ]) {
      expect(files, f).toContain(f);
    }
    expect(files.some((f) => f.startsWith(`prebuilds/${TUPLE}/`) && f.endsWith('.node'))).toBe(true);
    const allowed =
      /^(package\.json|README\.md|LICENSE|binding\.gyp|csrc\/[\w./-]+\.(c|cc|h)|dist\/((core|core\/wasm|perft|pgn|cli|chessjs)\/)?[\w.-]+\.(js|mjs|d\.ts)|prebuilds\/[\w.-]+\/[\w.@+-]+\.node|wasm\/(chess-native\.wasm|loader\.mjs|loader\.d\.mts))$/;
    expect(files.filter((f) => !allowed.test(f))).toEqual([]);
    // Compressed size: the binaries dominate; a few MB at most.
    expect(listing[0]!.size).toBeLessThan(5 * 1024 * 1024);
  });

  it('installs without compiling: the install script runs and finds the prebuild', () => {
    expect(installLog).toMatch(/chess-native@[^\n]* install\n> node-gyp-build/);
    expect(installLog).not.toMatch(/gyp info|node-gyp rebuild/);
  });

  it('passes the installed-package smoke test (test/smoke.mjs: perft, moves, SAN, perftAsync, which binary loaded)', () => {
    const r = spawnSync(process.execPath, [path.join(ROOT, 'test', 'smoke.mjs')], { cwd: project, env, encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(new RegExp(`^smoke: chess-native ok on ${TUPLE}$`, 'm'));
    expect(r.status).toBe(0);
  });

  it('loads with require (CommonJS)', () => {
    const out = execFileSync(
      'node',
      [
        '-e',
        `
      const { Position, FenError, engineInfo } = require('chess-native');
      const pos = new Position();
      let fenError = false;
      try { new Position('bad'); } catch (e) { fenError = e instanceof FenError && e.field === 'fields'; }
      console.log(JSON.stringify({ perft: pos.perft(3), moves: pos.legalMoves().length, fenError, napi: engineInfo().napi }));
    `,
      ],
      { cwd: project, env, encoding: 'utf8' },
    );
    expect(JSON.parse(out)).toEqual({ perft: 8902, moves: 20, fenError: true, napi: 8 });
  });

  it('loads with import (ESM), sharing the CommonJS instance', () => {
    const out = execFileSync(
      'node',
      [
        '--input-type=module',
        '-e',
        `
      import { Position, IllegalMoveError } from 'chess-native';
      import lib from 'chess-native';
      import { createRequire } from 'node:module';
      const cjs = createRequire(import.meta.url)('chess-native');
      let illegal = '';
      try { new Position().play('e2e5'); } catch (e) { if (e instanceof cjs.IllegalMoveError) illegal = e.move; }
      console.log(JSON.stringify({
        perft: new Position('r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1').perft(2),
        same: Position === cjs.Position && lib.Position === Position && IllegalMoveError === cjs.IllegalMoveError,
        illegal,
      }));
    `,
      ],
      { cwd: project, env, encoding: 'utf8' },
    );
    expect(JSON.parse(out)).toEqual({ perft: 2039, same: true, illegal: 'e2e5' });
  });

  it('loads chess-native/wasm with import and require: the WebAssembly engine, perftAsync on its workers', () => {
    const out = execFileSync(
      'node',
      [
        '--input-type=module',
        '-e',
        `
      import { Position, engineInfo, perftAsync, START_FEN } from 'chess-native/wasm';
      import { createRequire } from 'node:module';
      const cjs = createRequire(import.meta.url)('chess-native/wasm');
      const { nodes } = await perftAsync(START_FEN, 4, { threads: 2 });
      console.log(JSON.stringify({
        backend: engineInfo().backend, perft: new Position().perft(3), nodes: String(nodes), same: cjs.Position === Position,
      }));
    `,
      ],
      { cwd: project, env, encoding: 'utf8' },
    );
    expect(JSON.parse(out)).toEqual({ backend: 'wasm', perft: 8902, nodes: '197281', same: true });
  });

  // Bundlers and Chromium, not the Node version: the gate runs this once, the Node-majors legs
  // (CHESS_NATIVE_NODE_MAJORS) leave it out; Vite 7 and playwright-core need Node 20 or later anyway.
  it.skipIf(process.env.CHESS_NATIVE_NODE_MAJORS === '1' || Number(process.versions.node.split('.')[0]) < 20)(
    'bundles for browsers with esbuild and Vite (the `browser` condition), and both bundles run in Chromium, perftAsync and the chess.js facade included',
    async () => {
      const { CHROMIUM, hasChromium, withPage } = await import('./browser/harness.mjs');
      const app = path.join(project, 'web');
      mkdirSync(app, { recursive: true });
      writeFileSync(
        path.join(app, 'app.js'),
        `import { Position, engineInfo, parsePgn, perftAsync, START_FEN } from 'chess-native';
      import { Chess } from 'chess-native/chessjs';
      const run = await perftAsync(START_FEN, 4, { threads: 2, divide: true });
      window.result = {
        backend: engineInfo().backend, perft: new Position().perft(3), plies: parsePgn('1. e4 e5 *')[0].moves().length,
        perftAsync: String(run.nodes), divide: Object.keys(run.divide).length, chessjs: new Chess().moves().length,
      };\n`,
      );
      const html = '<!doctype html><meta charset="utf-8"><script type="module" src="./app.js"></script>';
      writeFileSync(path.join(app, 'index.html'), html);
      const { build } = await import('esbuild');
      const esbuilt = await build({
        entryPoints: [path.join(app, 'app.js')],
        bundle: true,
        format: 'esm',
        platform: 'browser',
        target: 'es2022',
        write: false,
        logLevel: 'silent',
      });
      const esbuildJs = esbuilt.outputFiles[0]!.text;
      expect(esbuildJs).not.toMatch(/from\s*["']node:|require\(["']node:/);
      // Vite's default targets lack top-level await, which the browser entry needs to load the engine: es2022 or later.
      const vite = await import('vite');
      const viteOut = path.join(app, 'vite');
      await vite.build({ root: app, configFile: false, logLevel: 'silent', build: { outDir: viteOut, target: 'es2022' } });
      const viteFiles = readdirSync(viteOut, { recursive: true }).map(String);
      expect(viteFiles.some((f) => f.endsWith('.wasm'))).toBe(true); // Vite copied the engine as an asset
      if (!hasChromium()) {
        if (process.env.CHESS_NATIVE_REQUIRE_BROWSER === '1') throw new Error(`${CHROMIUM} is missing: apt-get install chromium`);
        return;
      }
      const wasm = readFileSync(path.join(project, 'node_modules', 'chess-native', 'wasm', 'chess-native.wasm'));
      const builds: Record<string, string>[] = [
        // esbuild leaves new URL('../wasm/chess-native.wasm', import.meta.url) as it is: the app serves the file there.
        { '/index.html': html, '/app.js': esbuildJs, '/wasm/chess-native.wasm': wasm as unknown as string },
        Object.fromEntries(
          viteFiles
            .filter((f) => f.includes('.'))
            .map((f) => [`/${f.split(path.sep).join('/')}`, readFileSync(path.join(viteOut, f)) as unknown as string]),
        ),
      ];
      for (const bodies of builds) {
        await withPage({ bodies }, async (opened) => {
          const page = opened.page as unknown as {
            goto(url: string): Promise<unknown>;
            waitForFunction(fn: string): Promise<{ jsonValue(): Promise<unknown> }>;
          };
          await page.goto(`${opened.origin}/index.html`);
          const result = await (await page.waitForFunction('window.result')).jsonValue();
          expect(result).toEqual({ backend: 'wasm', perft: 8902, plies: 2, perftAsync: '197281', divide: 20, chessjs: 20 });
          expect(opened.errors).toEqual([]);
        });
      }
    },
    120_000,
  );

  it('installs the chess-native command', () => {
    const cli = path.join(project, 'node_modules', '.bin', 'chess-native');
    const out = JSON.parse(execFileSync(cli, ['perft', '3', '--json', '--divide'], { cwd: project, env, encoding: 'utf8' })) as {
      nodes: number;
      divide: Record<string, number>;
    };
    expect(out.nodes).toBe(8902);
    expect(Object.keys(out.divide)).toHaveLength(20);
  });

  it('type-checks a consumer against the shipped types, as CommonJS and as ESM', () => {
    const tsc = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    const source = `
      import { Position, FenError, IllegalMoveError, engineInfo, type EngineInfo, type FenField } from 'chess-native';
      import { perftAsync, AbortError, START_FEN, type PerftAsyncResult, type PerftProgress } from 'chess-native';
      const pos: Position = new Position(undefined, { chess960: false });
      const moves: string[] = pos.legalMoves();
      const n: number = pos.perft(2);
      const big: bigint = pos.perftBig(2);
      const d: Record<string, number> = pos.divide(1);
      const turn: 'w' | 'b' = pos.turn();
      const undone: string | null = pos.undo();
      const info: EngineInfo = engineInfo();
      const sliders: 'pext' | 'magic' = info.sliders;
      const field: FenField | undefined = new FenError('board', 'x').field;
      const move: string = new IllegalMoveError('e2e5', 'x').move;
      const run: Promise<PerftAsyncResult> = perftAsync(START_FEN, 2, {
        threads: 1, hashMb: 0, divide: true, chess960: false, signal: new AbortController().signal,
        onProgress: (p: PerftProgress) => void p.nodes,
      });
      const abortName: string = new AbortError().name;
      import { engineInfo as wasmEngineInfo } from 'chess-native/wasm';
      const backend: 'native' | 'wasm' = wasmEngineInfo().backend;
      export { moves, n, big, d, turn, undone, sliders, field, move, run, abortName, backend };
    `;
    writeFileSync(path.join(project, 'cjs.cts'), source);
    writeFileSync(path.join(project, 'esm.mts'), source);
    const r = spawnSync(
      'node',
      [tsc, '--noEmit', '--strict', '--module', 'node16', '--moduleResolution', 'node16', '--target', 'es2022', 'cjs.cts', 'esm.mts'],
      { cwd: project, env, encoding: 'utf8' },
    );
    expect(r.stdout + r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  // Last: it takes the installed package's prebuilds away.
  it('never fails the install: with no prebuild and no compiler it says the wasm engine will be used, and that engine loads', () => {
    rmSync(path.join(project, 'node_modules', 'chess-native', 'prebuilds'), { recursive: true, force: true });
    const { PREBUILDS_ONLY: _p, ...compiling } = env;
    const r = spawnSync(process.execPath, [NPM_CLI!, 'rebuild', 'chess-native', '--foreground-scripts'], {
      cwd: project,
      env: compiling,
      encoding: 'utf8',
    });
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/> node-gyp-build \|\|/);
    expect(r.stderr).toMatch(
      /chess-native: no prebuilt binary fits this platform and building one failed; the WebAssembly engine will be used/,
    );
    const out = execFileSync(
      'node',
      ['-e', "const c = require('chess-native'); console.log(c.engineInfo().backend, new c.Position().perft(3))"],
      {
        cwd: project,
        env: compiling,
        encoding: 'utf8',
      },
    );
    expect(out.trim()).toBe('wasm 8902');
  }, 120_000);
});
