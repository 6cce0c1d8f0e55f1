// PGN reading of two builds of the package, compared in short alternating
// runs: each run is a fresh Node process on one build (A, B, A, B, ...) that
// reads the same text once to warm up, then --reps times per mode, and
// reports its median; the table gives, per mode and build, the median of the
// runs' medians and their range, with the load average before and after.
//
//   node bench/pgn-ab.mjs --a DIR --b DIR [--runs 9] [--reps 5] [--mb 20] [--tree-mb 2] [--modes moves,headers,counted,tree]
//
// DIR is a checkout built with `npm run build:all` (its dist/ is loaded).
// Modes, one native thread each, as in bench/pgn.mjs:
//   moves    readPgn(file, { mode: 'mainline' }) and each game's moves()
//   headers  the same read, each game's headers and errors
//   counted  the same read, each game's errors
//   tree     parsePgn(text) of --tree-mb MB of games with one comment a
//            move and variations, every node of root and moves() visited
// The corpora are bench/pgn-corpus.mjs's (seed 1), cached in the system temp folder.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { apiTreeNodes, treeText } from './pgn-tree.mjs';

const SELF = fileURLToPath(import.meta.url);

function arg(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
}
const MB = Number(arg('mb', 20));
const TREE_MB = Number(arg('tree-mb', 2));
const REPS = Number(arg('reps', 5));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function corpusFiles() {
  const { writeCorpus, generatePgn } = await import('./pgn-corpus.mjs');
  const file = path.join(tmpdir(), `chess-native-pgn-1-${MB}mb.pgn`);
  if (!existsSync(file)) writeCorpus(file, { mb: MB, seed: 1 });
  const treeFile = path.join(tmpdir(), `chess-native-pgn-tree-${TREE_MB}mb.pgn`);
  if (!existsSync(treeFile)) {
    // The text bench/pgn.mjs's tree row reads.
    writeFileSync(treeFile, treeText(generatePgn, TREE_MB));
  }
  return { file, treeFile };
}

// One child process: a build's reads of one mode, timed.
async function child(root, mode, file) {
  const require = createRequire(path.join(root, 'package.json'));
  const { parsePgn, readPgn } = require(path.join(root, 'dist', 'index.js'));
  const text = mode === 'tree' ? readFileSync(file, 'utf8') : '';
  const mainline = async (take) => {
    let n = 0;
    for await (const g of readPgn(file, { mode: 'mainline', threads: 1 })) n += take(g);
    return n;
  };
  const reads = {
    moves: () => mainline((g) => g.moves().length + g.errors.length),
    headers: () => mainline((g) => Object.keys(g.headers).length + g.errors.length),
    counted: () => mainline((g) => 1 + g.errors.length),
    tree: () => apiTreeNodes(parsePgn, text),
  };
  const once = async () => {
    const t = performance.now();
    const cpu = process.cpuUsage();
    const n = await reads[mode]();
    const used = process.cpuUsage(cpu);
    return { nodes: n, ms: performance.now() - t, cpuMs: (used.user + used.system) / 1e3 };
  };
  const first = await once();
  const ms = [];
  const cpuMs = [];
  for (let r = 0; r < REPS; r++) {
    const run = await once();
    if (run.nodes !== first.nodes) throw new Error(`${mode}: counts differ between reps`);
    ms.push(run.ms);
    cpuMs.push(run.cpuMs);
  }
  process.stdout.write(JSON.stringify({ count: first.nodes, ms: median(ms), cpuMs: median(cpuMs) }));
}

async function main() {
  if (process.argv.includes('--child')) return child(arg('root'), arg('mode'), arg('file'));
  const builds = { A: path.resolve(arg('a')), B: path.resolve(arg('b')) };
  const runs = Number(arg('runs', 9));
  const modes = arg('modes', 'moves,headers,counted,tree').split(',');
  const { file, treeFile } = await corpusFiles();
  const load = [loadavg()[0]];
  const results = {};
  const cpu = {};
  for (const mode of modes) {
    const text = mode === 'tree' ? treeFile : file;
    const bytes = statSync(text).size;
    const counts = {};
    results[mode] = { A: [], B: [] };
    cpu[mode] = { A: [], B: [] };
    for (let r = 0; r < runs; r++)
      for (const name of r % 2 ? ['B', 'A'] : ['A', 'B']) {
        const out = execFileSync(
          process.execPath,
          [SELF, '--child', '--root', builds[name], '--mode', mode, '--file', text, '--reps', String(REPS)],
          { encoding: 'utf8' },
        );
        const { count, ms, cpuMs } = JSON.parse(out);
        if (counts[name] !== undefined && counts[name] !== count) throw new Error(`${mode}: build ${name} read differently`);
        counts[name] = count;
        results[mode][name].push(bytes / 1e3 / ms);
        cpu[mode][name].push(bytes / 1e3 / cpuMs);
      }
    load.push(loadavg()[0]);
  }
  const fmt = (xs) => `${median(xs).toFixed(1)} (${Math.min(...xs).toFixed(1)}-${Math.max(...xs).toFixed(1)})`;
  console.log(`A ${builds.A}\nB ${builds.B}\n${runs} runs a build and mode, alternating; median of ${REPS} reads a run`);
  console.log(`load average (1 min) before and after each mode: ${load.map((l) => l.toFixed(2)).join(', ')}`);
  console.log('| mode | A, MB/s | B, MB/s | B/A | A, MB per CPU s | B, MB per CPU s | B/A |');
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const mode of Object.keys(results)) {
    const { A, B } = results[mode];
    const { A: cA, B: cB } = cpu[mode];
    console.log(
      `| ${mode} | ${fmt(A)} | ${fmt(B)} | ${(median(B) / median(A)).toFixed(3)} | ` +
        `${fmt(cA)} | ${fmt(cB)} | ${(median(cB) / median(cA)).toFixed(3)} |`,
    );
  }
  if (process.argv.includes('--json')) console.log(JSON.stringify({ wall: results, cpu }));
}

await main();
