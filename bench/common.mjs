// Shared helpers for the benchmarks in bench/: positions, argument parsing,
// statistics, machine facts and loading the built package.
import { createRequire } from 'node:module';
import { readFileSync, statSync, readdirSync, existsSync, mkdtempSync, mkdirSync, copyFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const require = createRequire(path.join(ROOT, 'package.json'));

/** The six Chess Programming Wiki perft positions, with the depth each benchmark uses. */
export const CPW = [
  { name: 'startpos', fen: 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', depth: 6, nodes: 119060324 },
  { name: 'kiwipete', fen: 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1', depth: 5, nodes: 193690690 },
  { name: 'pos3', fen: '8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1', depth: 7, nodes: 178633661 },
  { name: 'pos4', fen: 'r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1', depth: 6, nodes: 706045033 },
  { name: 'pos5', fen: 'rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8', depth: 5, nodes: 89941194 },
  { name: 'pos6', fen: 'r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10', depth: 5, nodes: 164075551 },
];

/**
 * A few more positions from test/data/perftsuite.epd (line numbers, 1-based):
 * castling with rooks attacked, a knights-only ending, bishops, and both
 * sides' promotion races.
 */
export const SUITE_LINES = [18, 30, 42, 48, 120, 126];

export function suitePositions(which = SUITE_LINES) {
  const file = path.join(ROOT, 'test', 'data', 'perftsuite.epd');
  const lines = readFileSync(file, 'utf8').split('\n');
  const numbers = which === 'all' ? lines.map((_, i) => i + 1) : which;
  return numbers
    .filter((n) => lines[n - 1]?.trim())
    .map((n) => {
      const [fen, ...counts] = lines[n - 1].split(';').map((s) => s.trim());
      const d1 = counts.find((c) => c.startsWith('D1 '));
      return { name: `suite:${n}`, fen, d1: d1 ? Number(d1.slice(3)) : undefined };
    });
}

/** Parses `--key value` and `--flag` arguments against defaults (numbers stay numbers). */
export function parseArgs(argv, defaults) {
  const out = { ...defaults };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith('--')) throw new Error(`unexpected argument ${arg}`);
    const key = arg.slice(2).replace(/-([a-z])/g, (_, c) => c.toUpperCase());
    if (!(key in defaults)) throw new Error(`unknown option ${arg}; options: ${Object.keys(defaults).join(', ')}`);
    if (typeof defaults[key] === 'boolean') {
      out[key] = true;
    } else {
      const value = argv[++i];
      if (value === undefined) throw new Error(`${arg} needs a value`);
      out[key] = typeof defaults[key] === 'number' ? Number(value) : value;
      if (typeof defaults[key] === 'number' && !Number.isFinite(out[key])) throw new Error(`${arg} needs a number`);
    }
  }
  return out;
}

export function median(values) {
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** "median (min-max)" summary of a list of numbers. */
export function spread(values, digits = 2) {
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  return `${fmt(median(values), digits)} (${fmt(lo, digits)}-${fmt(hi, digits)})`;
}

export function fmt(x, digits = 2) {
  return Number.isFinite(x) ? x.toFixed(digits) : '-';
}

export function now() {
  return Number(process.hrtime.bigint()) / 1e9; // seconds
}

/** Prints a Markdown table (aligned for the terminal too). */
export function table(headers, rows) {
  const cells = [headers, ...rows].map((r) => r.map(String));
  const widths = headers.map((_, i) => Math.max(3, ...cells.map((r) => r[i].length)));
  const line = (r) => '| ' + r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(' | ') + ' |';
  const sep = '| ' + widths.map((w, i) => (i === 0 ? '-'.repeat(w) : '-'.repeat(w - 1) + ':')).join(' | ') + ' |';
  return [line(cells[0]), sep, ...cells.slice(1).map(line)].join('\n');
}

/**
 * Pins the addon for this process and its children: copies the .node file
 * node-gyp-build would pick now into a temporary directory and points
 * CHESS_NATIVE_PREBUILD (node-gyp-build's override) at it, so a rebuild of
 * build/ in the shared tree during a long run cannot switch binaries between
 * the runs. Call before loadEngine(); children inherit the pin. `file`, if
 * given, is the .node file to pin instead (e.g. the shipped prebuild).
 */
export function pinAddon(file) {
  if (process.env.CHESS_NATIVE_PREBUILD) return;
  const source = file ?? require('node-gyp-build').resolve(ROOT);
  const dir = mkdtempSync(path.join(tmpdir(), 'chess-native-bench-'));
  mkdirSync(path.join(dir, 'build', 'Release'), { recursive: true });
  copyFileSync(source, path.join(dir, 'build', 'Release', 'chess_native.node'));
  process.env.CHESS_NATIVE_PREBUILD = dir;
  process.env.CHESS_NATIVE_BENCH_ADDON = path.relative(ROOT, source);
  process.env.CHESS_NATIVE_BENCH_ADDON_MTIME = String(statSync(source).mtimeMs);
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
}

/** Loads the built package (dist/ plus whichever .node node-gyp-build picks, or the pinned copy). */
export function loadEngine() {
  const dist = path.join(ROOT, 'dist', 'index.js');
  if (!existsSync(dist)) throw new Error('dist/ is missing: run `npm run build:all` first');
  const api = require(dist);
  let addon = '?';
  try {
    addon = path.relative(ROOT, require('node-gyp-build').resolve(ROOT));
  } catch {
    // resolve() is a convenience; the package itself loaded fine.
  }
  const pinned = process.env.CHESS_NATIVE_BENCH_ADDON;
  if (pinned) {
    const built = new Date(Number(process.env.CHESS_NATIVE_BENCH_ADDON_MTIME)).toISOString().slice(0, 19);
    return { api, addon: `${pinned} built ${built}Z, pinned copy`, stale: staleSince(Number(process.env.CHESS_NATIVE_BENCH_ADDON_MTIME)) };
  }
  return { api, addon, stale: staleAddon(path.join(ROOT, addon)) };
}

/** Names the files under csrc/ modified after `built` (a time in ms). */
function staleSince(built) {
  try {
    const dir = path.join(ROOT, 'csrc');
    return readdirSync(dir, { recursive: true }).filter((f) => {
      const stat = statSync(path.join(dir, f));
      return stat.isFile() && stat.mtimeMs > built;
    });
  } catch {
    return [];
  }
}

/** Names csrc/ files newer than the loaded addon (the figures would be for older code). */
function staleAddon(addonPath) {
  try {
    return staleSince(statSync(addonPath).mtimeMs);
  } catch {
    return [];
  }
}

/** One line describing the machine and the load right now. */
export function machine() {
  const cpu = cpus()[0]?.model ?? '?';
  const [l1, l5] = loadavg();
  return `node ${process.version}, ${cpus().length} CPUs (${cpu.trim()}), load ${l1.toFixed(2)} / ${l5.toFixed(2)} (1 / 5 min)`;
}

export function loadNote() {
  const l1 = loadavg()[0];
  return l1 > 1.5 ? `  NOTE: 1-minute load ${l1.toFixed(2)} > 1.5: the machine is busy, figures are noisy.` : '';
}

/** Version of an installed package (read from node_modules, whatever its exports allow). */
export function pkgVersion(name) {
  try {
    return JSON.parse(readFileSync(path.join(ROOT, 'node_modules', name, 'package.json'), 'utf8')).version;
  } catch {
    return '?';
  }
}

/** Commit, and engine sources with uncommitted edits (the build may include them). */
export function gitState() {
  try {
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--', 'csrc', 'src'], { cwd: ROOT, encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .map((l) => l.slice(3));
    return `commit ${head}${dirty.length ? `; uncommitted in the tree: ${dirty.join(', ')}` : ''}`;
  } catch {
    return 'commit ?';
  }
}

/**
 * Seconds a process has been on a CPU (Linux /proc schedstat, nanosecond
 * counters), summed over its threads; only the main thread when mainOnly.
 * Unlike wall time, this leaves out the time the process waited for a CPU
 * while other work ran. Returns NaN where /proc is not available.
 */
export function cpuSeconds(pid, mainOnly = false) {
  try {
    const dir = `/proc/${pid}/task`;
    const tids = mainOnly ? [String(pid)] : readdirSync(dir);
    let ns = 0;
    for (const tid of tids) ns += Number(readFileSync(`${dir}/${tid}/schedstat`, 'utf8').split(' ')[0]);
    return ns / 1e9;
  } catch {
    return NaN;
  }
}

export function quantile(values, q) {
  const s = [...values].sort((a, b) => a - b);
  const pos = (s.length - 1) * q;
  const lo = Math.floor(pos);
  return s[lo] + (s[Math.min(lo + 1, s.length - 1)] - s[lo]) * (pos - lo);
}

/** "median [p25-p75]" summary: the spread without the odd stalled sample. */
export function iqr(values, digits = 2) {
  return `${fmt(median(values), digits)} [${fmt(quantile(values, 0.25), digits)}-${fmt(quantile(values, 0.75), digits)}]`;
}

// --- Stockfish, the reference engine of the perft benchmarks -------------------

/** Stockfish's binary: `explicit` if given, else Debian's place or PATH. */
export function findStockfish(explicit) {
  for (const c of [explicit, '/usr/games/stockfish', '/usr/bin/stockfish']) if (c && existsSync(c)) return c;
  const which = spawnSync('sh', ['-c', 'command -v stockfish'], { encoding: 'utf8' });
  if (which.status === 0 && which.stdout.trim()) return which.stdout.trim();
  throw new Error('Stockfish not found: apt-get install -y stockfish (Debian puts it in /usr/games), or pass --stockfish PATH');
}

/** One Stockfish process driven over UCI, for `go perft`. */
export class Stockfish {
  constructor(file) {
    this.proc = spawn(file, [], { stdio: ['pipe', 'pipe', 'inherit'] });
    this.waiters = [];
    this.lines = []; // { line, at } read but not yet consumed by until()
    createInterface({ input: this.proc.stdout }).on('line', (line) => {
      const item = { line, at: now() };
      const w = this.waiters[0];
      if (w && w.match(line)) {
        this.waiters.shift();
        w.resolve(item);
      } else if (!w) {
        this.lines.push(item);
      }
    });
    this.proc.on('exit', (code) => {
      for (const w of this.waiters) w.reject(new Error(`stockfish exited (${code})`));
    });
  }
  send(cmd) {
    this.proc.stdin.write(cmd + '\n');
  }
  /** Resolves with the first line (read already or later) that matches; earlier lines are dropped. */
  until(match) {
    while (this.lines.length) {
      const item = this.lines.shift();
      if (match(item.line)) return Promise.resolve(item);
    }
    return new Promise((resolve, reject) => this.waiters.push({ match, resolve, reject }));
  }
  async start() {
    const id = this.until((l) => l.startsWith('id name '));
    this.send('uci');
    this.name = (await id).line.slice(8);
    await this.until((l) => l === 'uciok');
    await this.ready();
  }
  async ready() {
    const r = this.until((l) => l === 'readyok');
    this.send('isready');
    await r;
  }
  /** Returns { nodes, seconds, cpu }, timed from `go perft` written to `Nodes searched` read. */
  async perft(fen, depth) {
    this.send(`position fen ${fen}`);
    await this.ready();
    const done = this.until((l) => l.startsWith('Nodes searched:'));
    const c0 = cpuSeconds(this.proc.pid);
    const t0 = now();
    this.send(`go perft ${depth}`);
    const { line, at } = await done;
    const cpu = cpuSeconds(this.proc.pid) - c0;
    return { nodes: Number(line.split(':')[1]), seconds: at - t0, cpu };
  }
  quit() {
    this.send('quit');
  }
}
