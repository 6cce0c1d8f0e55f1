// The published shape: `npm pack`, install the tarball into a temporary project
// with no compiler on PATH, and load it with PREBUILDS_ONLY=1 through require
// and import, and type-check a consumer against the shipped .d.ts.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from './helpers';

const TUPLE = `${process.platform}-${process.arch}`;
const PREBUILD_DIR = path.join(ROOT, 'prebuilds', TUPLE);
const NPM_CLI = process.env.npm_execpath && /npm-cli\.js$/.test(process.env.npm_execpath)
  ? process.env.npm_execpath
  : path.join(path.dirname(process.execPath), '..', 'lib', 'node_modules', 'npm', 'bin', 'npm-cli.js');

let work: string;
let tarball: string;
let project: string;
let env: NodeJS.ProcessEnv;
let installLog = '';

function npm(args: string[], cwd: string, extraEnv: NodeJS.ProcessEnv = process.env): string {
  return execFileSync(process.execPath, [NPM_CLI, ...args], { cwd, env: extraEnv, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** A PATH with node, npm and sh only: no cc, gcc, g++, make or python. */
function bareBin(dir: string): string {
  mkdirSync(dir);
  symlinkSync(process.execPath, path.join(dir, 'node'));
  symlinkSync('/bin/sh', path.join(dir, 'sh'));
  writeFileSync(path.join(dir, 'npm'), `#!/bin/sh\nexec "${process.execPath}" "${NPM_CLI}" "$@"\n`, { mode: 0o755 });
  return dir;
}

// Windows: skipped (the bare-PATH install below uses symlinks and /bin/sh); the
// prebuild workflow still loads the Windows prebuild there with PREBUILDS_ONLY=1.
describe.skipIf(process.platform === 'win32')('packed tarball', { timeout: 60_000 }, () => {
  beforeAll(() => {
    if (!existsSync(PREBUILD_DIR) || !readdirSync(PREBUILD_DIR).some((f) => f.endsWith('.node'))) {
      throw new Error(`no prebuild in prebuilds/${TUPLE}: run \`npm run prebuild\` before the tests`);
    }
    work = mkdtempSync(path.join(os.tmpdir(), 'chess-native-pack-'));
    const out = JSON.parse(npm(['pack', '--json', '--pack-destination', work], ROOT)) as { filename: string }[];
    tarball = path.join(work, out[0]!.filename);
    project = path.join(work, 'consumer');
    mkdirSync(project);
    writeFileSync(path.join(project, 'package.json'), JSON.stringify({
      name: 'consumer', version: '1.0.0', private: true,
      // npm >= 11.x blocks dependency install scripts unless allowed; npm 10 ignores this field.
      allowScripts: { 'chess-native': true },
    }));
    const bin = bareBin(path.join(work, 'bin'));
    env = { HOME: process.env.HOME ?? os.homedir(), PATH: bin, PREBUILDS_ONLY: '1' };
    if (process.env.npm_config_cache) env.npm_config_cache = process.env.npm_config_cache;
    // The install script (node-gyp-build) is allowed to run: with a matching
    // prebuild it must not try to compile, and there is no compiler to compile with.
    installLog = npm(['install', '--no-audit', '--no-fund', '--prefer-offline', '--foreground-scripts', tarball], project, env);
  }, 180_000);

  afterAll(() => {
    if (work) rmSync(work, { recursive: true, force: true });
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
    for (const f of ['package.json', 'README.md', 'binding.gyp', 'csrc/binding/binding.cc', 'csrc/binding/args.h', 'csrc/chess_native.h',
      'dist/index.js', 'dist/index.mjs', 'dist/index.d.ts']) {
      expect(files, f).toContain(f);
    }
    expect(files.some((f) => f.startsWith(`prebuilds/${TUPLE}/`) && f.endsWith('.node'))).toBe(true);
    const allowed = /^(package\.json|README\.md|LICENSE|binding\.gyp|csrc\/[\w.-]+\.(c|h)|csrc\/binding\/[\w.-]+\.(cc|h)|dist\/[\w.-]+\.(js|mjs|d\.ts)|prebuilds\/[\w.-]+\/[\w.@+-]+\.node)$/;
    expect(files.filter((f) => !allowed.test(f))).toEqual([]);
    // Compressed size: the binaries dominate; a few MB at most.
    expect(listing[0]!.size).toBeLessThan(5 * 1024 * 1024);
  });

  it('installs without compiling: the install script runs, finds the prebuild, and that is what loads', () => {
    expect(installLog).toMatch(/chess-native@[^\n]* install\n> node-gyp-build/);
    expect(installLog).not.toMatch(/gyp info|node-gyp rebuild/);
    const pkg = path.join(project, 'node_modules', 'chess-native');
    expect(existsSync(path.join(pkg, 'build'))).toBe(false);
    const resolved = execFileSync('node', ['-e', "process.stdout.write(require('node-gyp-build').path(require('path').dirname(require.resolve('chess-native/package.json'))))"], { cwd: project, env, encoding: 'utf8' });
    expect(resolved).toBe(path.join(pkg, 'prebuilds', TUPLE, path.basename(resolved)));
  });

  it('loads with require (CommonJS)', () => {
    const out = execFileSync('node', ['-e', `
      const { Position, FenError, engineInfo } = require('chess-native');
      const pos = new Position();
      let fenError = false;
      try { new Position('bad'); } catch (e) { fenError = e instanceof FenError && e.field === 'fields'; }
      console.log(JSON.stringify({ perft: pos.perft(3), moves: pos.legalMoves().length, fenError, napi: engineInfo().napi }));
    `], { cwd: project, env, encoding: 'utf8' });
    expect(JSON.parse(out)).toEqual({ perft: 8902, moves: 20, fenError: true, napi: 8 });
  });

  it('loads with import (ESM), sharing the CommonJS instance', () => {
    const out = execFileSync('node', ['--input-type=module', '-e', `
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
    `], { cwd: project, env, encoding: 'utf8' });
    expect(JSON.parse(out)).toEqual({ perft: 2039, same: true, illegal: 'e2e5' });
  });

  it('installs the chess-native command, and perftAsync works from the package', () => {
    const cli = path.join(project, 'node_modules', '.bin', 'chess-native');
    const out = JSON.parse(execFileSync(cli, ['perft', '3', '--json', '--divide'], { cwd: project, env, encoding: 'utf8' })) as {
      nodes: number;
      divide: Record<string, number>;
    };
    expect(out.nodes).toBe(8902);
    expect(Object.keys(out.divide)).toHaveLength(20);
    const viaApi = execFileSync('node', ['-e', `
      require('chess-native').perftAsync('r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1', 3, { threads: 2, hashMb: 1 })
        .then((r) => console.log(String(r.nodes)));
    `], { cwd: project, env, encoding: 'utf8' });
    expect(viaApi.trim()).toBe('97862');
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
      export { moves, n, big, d, turn, undone, sliders, field, move, run, abortName };
    `;
    writeFileSync(path.join(project, 'cjs.cts'), source);
    writeFileSync(path.join(project, 'esm.mts'), source);
    const r = spawnSync('node', [tsc, '--noEmit', '--strict', '--module', 'node16', '--moduleResolution', 'node16',
      '--target', 'es2022', 'cjs.cts', 'esm.mts'], { cwd: project, env, encoding: 'utf8' });
    expect(r.stdout + r.stderr).toBe('');
    expect(r.status).toBe(0);
  });
});
