#!/usr/bin/env node
// Single-thread bulk-counting perft: chess-native's `Position.perft` against
// Gigantua (built here from its public source) and Stockfish's `go perft`,
// interleaved in one run, on the six CPW positions at the depths Gigantua's
// author publishes (startpos d7, kiwipete d6, pos3 d8, pos4..pos6 d6).
//
//   node bench/gigantua.mjs --gigantua DIR [--runs 5] [--stockfish-runs N]
//                           [--stockfish PATH] [--depth-delta 0] [--cxx clang++]
//                           [--addon prebuild|build]
//   GIGANTUA_SRC=DIR node bench/gigantua.mjs
//
// DIR is a checkout of the Gigantua repository (https://github.com/Gigantua/Gigantua,
// e.g. `git clone --depth 1` it yourself; this script never downloads
// anything): the folder holding Gigantua/Gigantua.cpp, or that Gigantua/
// folder itself. The repository does not carry its Movemap.hpp (the lookup
// tables); bench/gigantua/Movemap.hpp is this project's own replacement
// (pext tables, leaper tables and ray masks, filled at start-up). The sources
// are copied to a build folder under the OS temp directory with that header
// and compiled as its README says for clang: `clang++ -std=c++20 -O3
// -march=native -flto`; the binary is reused while sources, header, compiler
// and flags are unchanged.
//
// Timing: chess-native around the `perft(depth)` call only; Gigantua by its
// own clock around its perft call (`Gigantua FEN DEPTH` prints nodes and
// MNodes/s for each depth up to DEPTH; the last line is used); Stockfish from
// writing `go perft N` to reading `Nodes searched`. The rounds interleave the
// engines position by position, rotating which goes first. Figures are
// medians over the rounds; ratios are medians of per-round ratios (each pairs
// the engines under the same load) with min-max. Every count is checked
// against test/data/cpw.epd where it is published there; pos5 d6 is not, so
// for it the three engines must agree.
//
// --addon prebuild (default) pins the shipped prebuilds/<platform>-<arch>
// binary (run-time CPU dispatch, no -march), --addon build the node-gyp build.
// --stockfish-runs N (default: --runs) runs Stockfish, about 5x slower than
// the other two, in the first N rounds only.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, copyFileSync, readdirSync, renameSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  CPW,
  ROOT,
  parseArgs,
  median,
  spread,
  fmt,
  now,
  table,
  loadEngine,
  machine,
  loadNote,
  gitState,
  pinAddon,
  Stockfish,
  findStockfish,
} from './common.mjs';

const opts = parseArgs(process.argv.slice(2), {
  gigantua: process.env.GIGANTUA_SRC ?? '',
  runs: 5,
  stockfishRuns: -1,
  stockfish: process.env.STOCKFISH ?? '',
  depthDelta: 0,
  cxx: process.env.CXX ?? 'clang++',
  addon: 'prebuild',
});
if (!opts.gigantua) {
  console.error('usage: node bench/gigantua.mjs --gigantua DIR (a Gigantua checkout; or set GIGANTUA_SRC)');
  process.exit(2);
}
if (!(opts.runs >= 1)) throw new Error('--runs must be >= 1');
if (!['prebuild', 'build'].includes(opts.addon)) throw new Error('--addon must be prebuild or build');
const stockfishRuns = opts.stockfishRuns < 0 ? opts.runs : opts.stockfishRuns;

const DEPTHS = { startpos: 7, kiwipete: 6, pos3: 8, pos4: 6, pos5: 6, pos6: 6 };
const positions = CPW.map((p) => ({ name: p.name, fen: p.fen, depth: DEPTHS[p.name] + opts.depthDelta }));

/** Published counts by FEN and depth, from test/data/cpw.epd. */
function publishedCounts() {
  const counts = new Map();
  for (const line of readFileSync(path.join(ROOT, 'test', 'data', 'cpw.epd'), 'utf8').split('\n')) {
    const [fen, ...fields] = line.split(';').map((s) => s.trim());
    for (const f of fields) {
      const m = /^D(\d+) (\d+)$/.exec(f);
      if (m) counts.set(`${fen}|${m[1]}`, Number(m[2]));
    }
  }
  return counts;
}
const published = publishedCounts();
for (const p of positions) p.expected = published.get(`${p.fen}|${p.depth}`);

// --- Gigantua: copy, add our Movemap.hpp, build --------------------------------

const HEADER = path.join(ROOT, 'bench', 'gigantua', 'Movemap.hpp');
const SOURCES = ['Gigantua.cpp', 'Chess_Base.hpp', 'Chess_Test.hpp', 'Movegen.hpp', 'Movelist.hpp'];
const CXXFLAGS = ['-std=c++20', '-O3', '-march=native', '-flto'];

function gigantuaSourceDir(dir) {
  for (const d of [dir, path.join(dir, 'Gigantua')]) if (existsSync(path.join(d, 'Gigantua.cpp'))) return d;
  throw new Error(`${dir}: no Gigantua.cpp there or in its Gigantua/ folder`);
}

function buildGigantua() {
  const src = gigantuaSourceDir(path.resolve(opts.gigantua));
  const version = spawnSync(opts.cxx, ['--version'], { encoding: 'utf8' });
  if (version.status !== 0) throw new Error(`${opts.cxx} not found (install clang, or pass --cxx)`);
  const hash = createHash('sha256');
  for (const f of SOURCES) hash.update(readFileSync(path.join(src, f)));
  hash.update(readFileSync(HEADER));
  hash.update(version.stdout + CXXFLAGS.join(' '));
  const dir = path.join(tmpdir(), `chess-native-gigantua-${hash.digest('hex').slice(0, 16)}`);
  const exe = path.join(dir, 'gigantua');
  // Built under another name and renamed when complete, so that an
  // interrupted build never leaves a binary that looks cached.
  const command = [opts.cxx, ...CXXFLAGS, 'Gigantua.cpp', '-o', 'gigantua.partial'];
  if (!existsSync(exe)) {
    mkdirSync(dir, { recursive: true });
    for (const f of SOURCES) copyFileSync(path.join(src, f), path.join(dir, f));
    copyFileSync(HEADER, path.join(dir, 'Movemap.hpp'));
    console.log(`building Gigantua in ${dir} (takes minutes: its templates are large): ${command.join(' ')}`);
    const r = spawnSync(command[0], command.slice(1), { cwd: dir, stdio: 'inherit' });
    if (r.status !== 0) throw new Error('Gigantua build failed');
    renameSync(path.join(dir, 'gigantua.partial'), exe);
  }
  return { exe, command: command.join(' '), compiler: version.stdout.split('\n')[0], dir };
}

/** Gigantua's perft of one position: its own timer around the last depth. */
function perftGigantua(exe, fen, depth) {
  const r = spawnSync(exe, [fen, String(depth)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  const m = new RegExp(`^Perft ${depth}: (\\d+) \\d+ms ([\\d.e+]+) MNodes/s$`, 'm').exec(r.stdout ?? '');
  if (!m) throw new Error(`unexpected Gigantua output (status ${r.status}): ${r.stdout}`);
  const nodes = Number(m[1]);
  return { nodes, seconds: nodes / (Number(m[2]) * 1e6) };
}

function perftNode(api, fen, depth) {
  const pos = new api.Position(fen);
  const t0 = now();
  const nodes = pos.perft(depth);
  return { nodes, seconds: now() - t0 };
}

function check(engine, p, nodes) {
  if (p.expected !== undefined && nodes !== p.expected)
    throw new Error(`${engine} ${p.name} d${p.depth}: ${nodes} nodes, published ${p.expected}`);
}

function shippedPrebuild() {
  const dir = path.join(ROOT, 'prebuilds', `${process.platform}-${process.arch}`);
  const file = existsSync(dir) && readdirSync(dir).find((f) => f.endsWith('.node'));
  if (!file) throw new Error(`no prebuild in ${dir}: run \`npm run prebuild\`, or pass --addon build`);
  return path.join(dir, file);
}

async function main() {
  if (opts.addon === 'prebuild') pinAddon(shippedPrebuild());
  else pinAddon();
  const { api, addon, stale } = loadEngine();
  const info = api.engineInfo();
  const giga = buildGigantua();
  const sfPath = findStockfish(opts.stockfish);
  const sf = new Stockfish(sfPath);
  await sf.start();

  console.log(`\n## perft: chess-native Position.perft vs Gigantua vs ${sf.name}, one thread`);
  console.log(`chess-native ${info.version}: impl=${info.impl} sliders=${info.sliders} (${opts.addon}: ${addon})`);
  console.log(`Gigantua: ${giga.command} (${giga.compiler}) in ${giga.dir}`);
  console.log(`${gitState()}; ${machine()}; ${opts.runs} rounds, Stockfish in ${stockfishRuns}`);
  if (stale.length) console.log(`  WARNING: csrc/ files modified after the addon was built (${stale.join(', ')})`);
  const busy = loadNote();
  if (busy) console.log(busy);

  for (const p of positions) {
    // Warm-up: page in each engine's tables and code.
    perftNode(api, p.fen, 4);
    perftGigantua(giga.exe, p.fen, 4);
    await sf.perft(p.fen, 4);
  }

  const engines = ['cn', 'giga', 'sf'];
  const runs = []; // runs[r][i] = { cn, giga, sf? }
  for (let r = 0; r < opts.runs; r++) {
    const row = [];
    for (const [i, p] of positions.entries()) {
      const result = {};
      for (let k = 0; k < engines.length; k++) {
        const engine = engines[(r + i + k) % engines.length];
        if (engine === 'cn') result.cn = perftNode(api, p.fen, p.depth);
        else if (engine === 'giga') result.giga = perftGigantua(giga.exe, p.fen, p.depth);
        else if (r < stockfishRuns) result.sf = await sf.perft(p.fen, p.depth);
      }
      for (const e of engines) if (result[e]) check(e, p, result[e].nodes);
      if (result.cn.nodes !== result.giga.nodes || (result.sf && result.sf.nodes !== result.cn.nodes))
        throw new Error(`${p.name} d${p.depth}: counts differ: ${engines.map((e) => `${e} ${result[e]?.nodes}`).join(', ')}`);
      row.push(result);
    }
    runs.push(row);
    const total = (e) => row.reduce((s, x) => s + (x[e]?.seconds ?? 0), 0);
    console.log(
      `  round ${r + 1}/${opts.runs}: chess-native ${fmt(total('cn'), 2)} s, Gigantua ${fmt(total('giga'), 2)} s` +
        (r < stockfishRuns ? `, Stockfish ${fmt(total('sf'), 2)} s` : ''),
    );
  }
  sf.quit();
  console.log(`  after the rounds: ${machine()}`);

  const nodes = positions.map((_, i) => runs[0][i].cn.nodes);
  const totalNodes = nodes.reduce((a, b) => a + b, 0);
  const roundsOf = (e) => runs.filter((run) => run[0][e]);
  const mnpsRow = (label, e) => {
    const rs = roundsOf(e);
    const cells = positions.map((_, i) => fmt(nodes[i] / median(rs.map((run) => run[i][e].seconds)) / 1e6, 0));
    const totals = rs.map((run) => run.reduce((s, x) => s + x[e].seconds, 0));
    return [label, ...cells, fmt(totalNodes / median(totals) / 1e6, 0)];
  };
  const ratioRow = (label, e) => {
    const rs = roundsOf(e);
    const cells = positions.map((_, i) => spread(rs.map((run) => run[i][e].seconds / run[i].cn.seconds)));
    const agg = rs.map((run) => run.reduce((s, x) => s + x[e].seconds, 0) / run.reduce((s, x) => s + x.cn.seconds, 0));
    return [label, ...cells, spread(agg)];
  };
  const headers = ['Mnps', ...positions.map((p) => `${p.name} d${p.depth}`), 'aggregate'];
  console.log(`\nMnps = nodes / median seconds (aggregate: all nodes / median round total)`);
  console.log(
    table(headers, [
      mnpsRow(`Gigantua, ${giga.compiler.replace(/ version/, '').replace(/\s*\(.*$/, '')} \`${CXXFLAGS.slice(1).join(' ')}\``, 'giga'),
      mnpsRow(`chess-native \`Position.perft\` (${info.impl}, ${opts.addon})`, 'cn'),
      ...(stockfishRuns > 0 ? [mnpsRow(`${sf.name} \`go perft\``, 'sf')] : []),
    ]),
  );
  console.log('\nchess-native speed relative to the other engine: its time / chess-native time, median (min-max) of the rounds');
  console.log(
    table(
      ['ratio', ...headers.slice(1)],
      [ratioRow('vs Gigantua', 'giga'), ...(stockfishRuns > 0 ? [ratioRow('vs Stockfish', 'sf')] : [])],
    ),
  );
  const unpublished = positions.filter((p) => p.expected === undefined);
  console.log(
    `counts: all equal across engines and rounds; checked against test/data/cpw.epd` +
      (unpublished.length
        ? ` except ${unpublished.map((p) => `${p.name} d${p.depth}`).join(', ')} (not published there; engines agree)`
        : ''),
  );
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
