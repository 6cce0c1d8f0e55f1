// Builds wasm/chess-native.wasm: the engine of csrc/engine compiled to
// WebAssembly, one thread, as a reactor module (no main) that exports the
// public C API of csrc/engine/include plus malloc and free.
//
//   node wasm/build.mjs            writes wasm/chess-native.wasm
//   node wasm/build.mjs --check    rebuilds into a temporary file and fails
//                                  when the committed .wasm differs
//   node wasm/build.mjs --out F    writes F instead (benchmarks of other flags:
//                                  --opt -Os, --simd, --wasm-opt -O3)
//
// Toolchain: Debian's clang, lld and wasi-libc (apt-get install clang lld
// wasi-libc libclang-rt-14-dev-wasm32). The output depends only on the
// sources and the toolchain's version: no paths, times or debug info go in.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ENGINE = path.join(ROOT, 'csrc', 'engine');
const OUTPUT = path.join(ROOT, 'wasm', 'chess-native.wasm');
const SYSROOT_INCLUDE = '/usr/include/wasm32-wasi';
const SYSROOT_LIB = '/usr/lib/wasm32-wasi';
/* The engine's deepest recursion is a hashed perft job at its largest depth
 * (about 24 KiB a ply): the 1 MiB its native threads get. */
const STACK_BYTES = 1 << 20;

/** Every .c of the engine and its variants, as binding.gyp compiles them. */
function sources() {
  return ['.', 'variants'].flatMap((dir) =>
    readdirSync(path.join(ENGINE, dir))
      .filter((f) => f.endsWith('.c'))
      .sort()
      .map((f) => path.posix.join('csrc/engine', dir === '.' ? '' : dir, f)),
  );
}

/** The functions the public headers declare (not the static inline helpers). */
export function publicFunctions() {
  const names = new Set();
  for (const file of readdirSync(path.join(ENGINE, 'include')).sort()) {
    for (const line of readFileSync(path.join(ENGINE, 'include', file), 'utf8').split('\n')) {
      if (!/^[a-z]/.test(line) || /^(static|typedef|extern|enum)\b/.test(line)) continue;
      const match = /\b(cn_[a-z0-9_]+)\(/.exec(line);
      if (match) names.add(match[1]);
    }
  }
  return [...names].sort();
}

function parseArgs(argv) {
  const options = { check: false, out: OUTPUT, opt: '-O3', simd: false, wasmOpt: null };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--check') options.check = true;
    else if (arg === '--simd') options.simd = true;
    else if (arg === '--out') options.out = path.resolve(argv[++i]);
    else if (arg === '--opt') options.opt = argv[++i];
    else if (arg === '--wasm-opt') options.wasmOpt = argv[++i];
    else throw new Error(`build.mjs: unknown argument ${arg}`);
  }
  return options;
}

/**
 * Sources compiled for size (-Oz) whatever --opt says: only the chess.js
 * facade calls them (relaxed positions, chess.js's PGN grammar), per call
 * rather than per node, and -Oz takes 1.8 KB off the gzipped module.
 */
const SIZE_FIRST = new Set(['relaxed.c', 'pgn_chessjs.c']);

/**
 * The PGN reader's sources use bulk memory: their memcpy and memset, which
 * copy tokens, strings and reader states all along a text, become the
 * runtime's memory.copy / memory.fill rather than calls into wasi-libc's C
 * versions, a tree read about 12% faster. The engine's other sources keep
 * the calls: their small struct copies made perft about 3% slower as
 * memory.copy. Every runtime the browser bundle's ES2022 needs has bulk
 * memory.
 */
const BULK_MEMORY = (file) => path.basename(file).startsWith('pgn_');

/** Compiler flags; -O goes to the compile step only (see build). */
function compileArgs(options, file) {
  return [
    '--target=wasm32-wasi',
    // Only wasi-libc's headers: the host's /usr/include must not leak in.
    '-nostdlibinc',
    '-isystem',
    SYSROOT_INCLUDE,
    '-std=c11',
    SIZE_FIRST.has(path.basename(file)) ? '-Oz' : options.opt,
    '-Wall',
    '-Wextra',
    ...(process.env.CN_WERROR ? ['-Werror'] : []),
    ...(options.simd ? ['-msimd128'] : []),
    ...(BULK_MEMORY(file) ? ['-mbulk-memory'] : []),
    '-c',
  ];
}

function linkArgs(objects, out) {
  return [
    '--target=wasm32-wasi',
    `-L${SYSROOT_LIB}`,
    '-mexec-model=reactor',
    '-fuse-ld=lld',
    // The stack below the data: an overflow traps instead of overwriting it.
    '-Wl,--stack-first',
    `-Wl,-z,stack-size=${STACK_BYTES}`,
    '-Wl,--strip-all',
    ...[...publicFunctions(), 'malloc', 'free'].map((name) => `-Wl,--export=${name}`),
    '-o',
    out,
    ...objects,
    // wasi-libc's printf without floating point (5.6 KB smaller, 2.2 KB
    // gzip): the engine formats none (checkNoFloatFormats checks).
    '-lc-printscan-no-floating-point',
  ];
}

/** The lines of the engine's sources with a floating-point conversion in a string: the printf linked in would trap on one. */
function floatFormats() {
  return sources().flatMap((file) =>
    readFileSync(path.join(ROOT, file), 'utf8')
      .split('\n')
      .flatMap((line, i) => (/"[^"]*%[-+ #0-9.*]*(?:l|L|ll)?[aAeEfFgG][^"]*"/.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
  );
}

function checkNoFloatFormats() {
  const found = floatFormats();
  if (found.length) throw new Error(`build.mjs: the wasm build links a printf without floating point, but:\n${found.join('\n')}`);
}

function run(command, args) {
  try {
    execFileSync(command, args, { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
  } catch (error) {
    if (error.code === 'ENOENT') {
      throw new Error(`${command} not found: apt-get install clang lld wasi-libc libclang-rt-14-dev-wasm32 (binaryen for wasm-opt)`, {
        cause: error,
      });
    }
    throw error;
  }
}

/* Compiles and links in two steps: given -O when linking, clang 14 runs
 * wasm-opt on the output whenever binaryen is installed, so the bytes would
 * depend on the machine. wasm-opt runs only when asked (--wasm-opt). */
function build(options, out) {
  checkNoFloatFormats();
  const dir = mkdtempSync(path.join(tmpdir(), 'chess-native-wasm-objects-'));
  try {
    const files = sources();
    const objects = files.map((file) => path.join(dir, `${path.basename(file, '.c')}.o`));
    if (new Set(objects).size !== objects.length) throw new Error('build.mjs: two engine sources share a file name');
    files.forEach((file, i) => run('clang', [...compileArgs(options, file), file, '-o', objects[i]]));
    run('clang', linkArgs(objects, out));
    if (options.wasmOpt) run('wasm-opt', [options.wasmOpt, out, '-o', out]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function clangVersion() {
  return execFileSync('clang', ['--version'], { encoding: 'utf8' }).split('\n')[0];
}

function main() {
  const options = parseArgs(process.argv.slice(2));
  if (!options.check) {
    build(options, options.out);
    console.log(`build-wasm: ${path.relative(ROOT, options.out)}, ${readFileSync(options.out).length} bytes (${clangVersion()})`);
    return;
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'chess-native-wasm-'));
  try {
    const fresh = path.join(dir, 'chess-native.wasm');
    build(options, fresh);
    const built = readFileSync(fresh);
    let committed;
    try {
      committed = readFileSync(OUTPUT);
    } catch {
      committed = Buffer.alloc(0);
    }
    if (!built.equals(committed)) {
      console.error(
        `check-wasm: wasm/chess-native.wasm is stale (${committed.length} bytes; the sources build ${built.length} with ${clangVersion()}): run \`npm run build:wasm\` and commit it`,
      );
      process.exitCode = 1;
      return;
    }
    console.log(`check-wasm: wasm/chess-native.wasm matches its sources (${built.length} bytes)`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
