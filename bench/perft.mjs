#!/usr/bin/env node
// Perft speed of chess-native through the Node API against Stockfish, in the
// same run, on the six CPW positions.
//
//   node bench/perft.mjs [--runs 5] [--sliders all|auto|pext|magic] [--no-full]
//                        [--full-runs N] [--stockfish PATH] [--depth-delta -1]
//
// chess-native: `new Position(fen).perft(depth)`, single-threaded, bulk
// counting at the last ply, timed around the call only.
// Stockfish: one process, `uci` / `isready`, then per position
// `position fen ...` + `isready`, and the clock runs from writing
// `go perft N` to reading `Nodes searched` (no process start-up). Stockfish's
// perft also counts the last ply in bulk and uses no hash table.
// "Full" perft (every leaf move played, no bulk counting) is not on the JS API;
// it runs through the C tool test/c/build/perft_tool (`perft_tool full D FEN`,
// its own timer), which is a separate build of the same engine sources.
//
// Every count is checked against the published CPW value. Figures are medians
// over --runs runs; the ratio columns are medians of the per-run ratios (each
// run pairs both engines under the same machine load), with min-max. The
// "cpu ratio" column does the same with on-CPU time (Node: process.cpuUsage;
// Stockfish: /proc/<pid>/task/*/schedstat), which leaves out time spent
// waiting for a CPU on a busy machine.
// --sliders all (default) runs the engine's automatic choice in this process
// and re-runs the whole benchmark in a child with CHESS_NATIVE_SLIDERS set to
// the other slider path, so pext and magic are both reported.
import { spawnSync, execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
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
  runs: 5,
  sliders: 'all',
  noFull: false,
  fullRuns: 0, // 0: same as --runs
  stockfish: process.env.STOCKFISH ?? '',
  depthDelta: 0,
  child: false,
});
if (!['all', 'auto', 'pext', 'magic'].includes(opts.sliders)) throw new Error('--sliders must be all, auto, pext or magic');
if (!(opts.runs >= 1)) throw new Error('--runs must be >= 1');
const fullRuns = opts.fullRuns || opts.runs;

// A forced slider path is an environment variable read once at engine init:
// re-spawn this script with it set.
function respawn(sliders) {
  const args = process.argv.slice(2).filter((a, i, all) => a !== '--sliders' && all[i - 1] !== '--sliders');
  const r = spawnSync(process.execPath, [process.argv[1], ...args, '--sliders', sliders, '--child'], {
    stdio: 'inherit',
    env: { ...process.env, CHESS_NATIVE_SLIDERS: sliders },
  });
  return r.status ?? 1;
}

pinAddon(); // the same binary for this run and the re-spawned slider runs

if ((opts.sliders === 'pext' || opts.sliders === 'magic') && process.env.CHESS_NATIVE_SLIDERS !== opts.sliders) {
  process.exit(respawn(opts.sliders));
}

const positions = CPW.map((p) => ({ ...p, depth: p.depth + opts.depthDelta }));
const expected = (p) => (opts.depthDelta === 0 ? p.nodes : undefined);

// --- Stockfish --------------------------------------------------------------

// --- chess-native: Node API and C tool -----------------------------------------

function perftNode(api, fen, depth) {
  const pos = new api.Position(fen);
  const c0 = process.cpuUsage();
  const t0 = now();
  const nodes = pos.perft(depth);
  const seconds = now() - t0;
  const c = process.cpuUsage(c0);
  return { nodes, seconds, cpu: (c.user + c.system) / 1e6 };
}

const TOOL = path.join(ROOT, 'test', 'c', 'build', 'perft_tool');

function buildTool() {
  // make is a no-op when the tool is current; it rebuilds after engine edits.
  const r = spawnSync('make', ['-s', '-C', path.join(ROOT, 'test', 'c'), 'build/perft_tool'], { encoding: 'utf8' });
  if (r.status !== 0 || !existsSync(TOOL)) {
    console.log(`(C tool build failed, full perft skipped: ${(r.stderr || r.error || '').toString().trim().split('\n')[0]})`);
    return false;
  }
  return true;
}

function perftTool(mode, fen, depth) {
  const out = execFileSync(TOOL, [mode, String(depth), fen], { encoding: 'utf8' });
  const m = /nodes (\d+) time ([\d.]+) s [\d.]+ Mnps \(([^)]+)\)/.exec(out);
  if (!m) throw new Error(`unexpected perft_tool output: ${out}`);
  return { nodes: Number(m[1]), seconds: Number(m[2]), impl: m[3] };
}

// --- run ---------------------------------------------------------------------

function check(what, p, nodes) {
  const want = expected(p);
  if (want !== undefined && nodes !== want) throw new Error(`${what} ${p.name} d${p.depth}: ${nodes} nodes, expected ${want}`);
}

async function main() {
  const { api, addon, stale } = loadEngine();
  const info = api.engineInfo();
  const sfPath = findStockfish(opts.stockfish);
  const sf = new Stockfish(sfPath);
  await sf.start();

  console.log(`\n## perft: chess-native (Node API) vs ${sf.name}`);
  console.log(
    `engine ${info.version}: sliders=${info.sliders} impl=${info.impl} (addon ${addon}); ` +
      `CHESS_NATIVE_SLIDERS=${process.env.CHESS_NATIVE_SLIDERS ?? '(unset)'}`,
  );
  console.log(gitState());
  console.log(`${machine()}; ${opts.runs} runs; stockfish ${sfPath}`);
  if (stale.length) console.log(`  WARNING: csrc/ files modified after the addon was built (${stale.join(', ')})`);
  const busy = loadNote();
  if (busy) console.log(busy);

  // Warm-up: page in both engines' tables and code.
  for (const p of positions) {
    perftNode(api, p.fen, Math.min(p.depth - 2, 4));
    await sf.perft(p.fen, Math.min(p.depth - 2, 4));
  }

  const runs = []; // runs[r][i] = { cn, sf }
  for (let r = 0; r < opts.runs; r++) {
    const row = [];
    for (const p of positions) {
      let cn, sfr;
      // Alternate which engine goes first so slow drifts in load hit both alike.
      if ((r + row.length) % 2 === 0) {
        cn = perftNode(api, p.fen, p.depth);
        sfr = await sf.perft(p.fen, p.depth);
      } else {
        sfr = await sf.perft(p.fen, p.depth);
        cn = perftNode(api, p.fen, p.depth);
      }
      check('chess-native', p, cn.nodes);
      check('stockfish', p, sfr.nodes);
      if (cn.nodes !== sfr.nodes) throw new Error(`${p.name}: chess-native ${cn.nodes} != stockfish ${sfr.nodes}`);
      row.push({ cn, sf: sfr });
    }
    runs.push(row);
    const cnT = row.reduce((s, x) => s + x.cn.seconds, 0);
    const sfT = row.reduce((s, x) => s + x.sf.seconds, 0);
    console.log(`  run ${r + 1}/${opts.runs}: chess-native ${fmt(cnT, 3)} s, stockfish ${fmt(sfT, 3)} s, ratio ${fmt(sfT / cnT)}x`);
  }
  sf.quit();
  console.log(`  after the runs: ${machine()}`);

  const rows = positions.map((p, i) => {
    const cnT = median(runs.map((run) => run[i].cn.seconds));
    const sfT = median(runs.map((run) => run[i].sf.seconds));
    const ratios = runs.map((run) => run[i].sf.seconds / run[i].cn.seconds);
    const cpuRatios = runs.map((run) => run[i].sf.cpu / run[i].cn.cpu);
    return [
      `${p.name} d${p.depth}`,
      runs[0][i].cn.nodes,
      fmt(cnT, 3),
      fmt(runs[0][i].cn.nodes / cnT / 1e6, 1),
      fmt(sfT, 3),
      fmt(runs[0][i].sf.nodes / sfT / 1e6, 1),
      spread(ratios),
      spread(cpuRatios),
    ];
  });
  const totalNodes = runs[0].reduce((s, x) => s + x.cn.nodes, 0);
  const sum = (run, engine, field) => run.reduce((s, x) => s + x[engine][field], 0);
  const cnTotals = runs.map((run) => sum(run, 'cn', 'seconds'));
  const sfTotals = runs.map((run) => sum(run, 'sf', 'seconds'));
  const aggRatios = cnTotals.map((t, r) => sfTotals[r] / t);
  const aggCpuRatios = runs.map((run) => sum(run, 'sf', 'cpu') / sum(run, 'cn', 'cpu'));
  rows.push([
    'aggregate',
    totalNodes,
    fmt(median(cnTotals), 3),
    fmt(totalNodes / median(cnTotals) / 1e6, 1),
    fmt(median(sfTotals), 3),
    fmt(totalNodes / median(sfTotals) / 1e6, 1),
    spread(aggRatios),
    spread(aggCpuRatios),
  ]);

  console.log(`\nbulk-counting perft, sliders=${info.sliders} (${info.impl}); medians of ${opts.runs} runs (s = wall seconds)`);
  console.log(
    'ratio = stockfish time / chess-native time, median (min-max) of the per-run ratios; "cpu ratio" uses on-CPU time (/proc schedstat) instead of wall time',
  );
  console.log(table(['position', 'nodes', 'cn s', 'cn Mnps', 'sf s', 'sf Mnps', 'ratio', 'cpu ratio'], rows));
  const agg = median(aggRatios);
  console.log(
    `aggregate ${fmt(agg, 3)}x Stockfish (wall; cpu ${fmt(median(aggCpuRatios), 3)}x): required >= 5x ${agg >= 5 ? 'MET' : 'NOT MET'}; goal >= 7x ${agg >= 7 ? 'MET' : 'not met'}`,
  );

  if (!opts.noFull && buildTool()) {
    console.log(
      `\nfull perft (every leaf move played, no bulk counting) through the C TOOL test/c/build/perft_tool, not the Node API; ${fullRuns} runs`,
    );
    const full = [];
    let impl = '';
    for (let r = 0; r < fullRuns; r++) {
      full.push(
        positions.map((p) => {
          const f = perftTool('full', p.fen, p.depth);
          check('perft_tool full', p, f.nodes);
          impl = f.impl;
          return f;
        }),
      );
    }
    const sfMedian = positions.map((_, i) => median(runs.map((run) => run[i].sf.seconds)));
    const bulkMedian = positions.map((_, i) => median(runs.map((run) => run[i].cn.seconds)));
    const frows = positions.map((p, i) => {
      const t = median(full.map((run) => run[i].seconds));
      return [
        `${p.name} d${p.depth}`,
        full[0][i].nodes,
        fmt(t, 3),
        fmt(full[0][i].nodes / t / 1e6, 1),
        fmt(t / bulkMedian[i], 2),
        fmt(sfMedian[i] / t, 2),
      ];
    });
    const fTotals = full.map((run) => run.reduce((s, x) => s + x.seconds, 0));
    const fT = median(fTotals);
    const sfT = median(sfTotals);
    frows.push(['aggregate', totalNodes, fmt(fT, 3), fmt(totalNodes / fT / 1e6, 1), fmt(fT / median(cnTotals), 2), fmt(sfT / fT, 2)]);
    console.log(
      `C tool impl=${impl}; "full/bulk" = full time / Node API bulk time; "sf bulk / full" = Stockfish's (bulk-counting) time / full time`,
    );
    console.log(table(['position', 'nodes', 'full s', 'full Mnps', 'full/bulk', 'sf bulk / full'], frows));
  }
}

async function all() {
  await main();
  if (opts.sliders === 'all' && !opts.child) {
    const auto = loadEngine().api.engineInfo().sliders;
    const other = auto === 'pext' ? 'magic' : 'pext';
    if (other === 'pext') {
      // Only worth trying when the CPU has BMI2; the child reports the error otherwise.
      console.log('\n(the automatic choice was magic; trying CHESS_NATIVE_SLIDERS=pext)');
    }
    const status = respawn(other);
    if (status !== 0) console.log(`(CHESS_NATIVE_SLIDERS=${other} run failed, status ${status})`);
  }
}

all().catch((e) => {
  console.error(e);
  process.exit(1);
});
