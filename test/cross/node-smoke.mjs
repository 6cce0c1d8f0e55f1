// The Node API on a cross-built addon, run by a foreign-CPU Node under
// qemu-user, where the whole vitest suite would take too long. Everything is
// checked against test/data's published counts or against chess.js:
//   - engineInfo().impl is the code path the caller expects;
//   - perft of every suite line at every depth whose count is <= MAX_NODES;
//   - legal moves: D1-sized, sorted, unique, each isLegal;
//   - SAN of every legal move parses back to its move; on the standard suites
//     it equals chess.js's SAN;
//   - perftAsync on 2 native threads (with a table and divide), standard and
//     Chess960.
// Usage: node node-smoke.mjs EXPECTED_IMPL [PACKAGE_ROOT [MAX_NODES]]
// PACKAGE_ROOT (default: this repository) holds dist/ and prebuilds/; run
// with PREBUILDS_ONLY=1 so that only prebuilds/<platform>-<arch> counts.
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Chess } from 'chess.js';

const repository = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const [expectedImpl, packageRoot = repository, maxNodesArg = '200000'] = process.argv.slice(2);
if (!expectedImpl) {
  console.error('usage: node node-smoke.mjs EXPECTED_IMPL [PACKAGE_ROOT [MAX_NODES]]');
  process.exit(2);
}
const maxNodes = Number(maxNodesArg);
const dataDir = join(repository, 'test', 'data');
const { Position, engineInfo, perftAsync } = await import(pathToFileURL(join(resolve(packageRoot), 'dist', 'index.mjs')).href);

let passed = 0;
let failed = 0;
function check(ok, message) {
  if (ok) passed++;
  else {
    failed++;
    console.log(`FAIL ${message}`);
  }
}

/** Lines of an EPD perft suite: { fen, counts: Map(depth -> count) }. */
function readSuite(file) {
  return readFileSync(join(dataDir, file), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const [fen, ...fields] = line.split(';');
      const counts = new Map();
      for (const field of fields) {
        const m = /^\s*D(\d+)\s+(\d+)\s*$/.exec(field);
        if (m) counts.set(Number(m[1]), BigInt(m[2]));
      }
      return { fen: fen.trim(), counts };
    });
}

const info = engineInfo();
console.log(`node-smoke: ${process.version} ${process.arch}, engine ${JSON.stringify(info)}`);
check(info.impl === expectedImpl, `engineInfo().impl is ${info.impl}, expected ${expectedImpl}`);
check(info.sliders === (info.impl === 'pext' ? 'pext' : 'magic'), `sliders ${info.sliders} with impl ${info.impl}`);

const suites = [
  { file: 'perftsuite.epd', chess960: false },
  { file: 'cpw.epd', chess960: false },
  { file: 'tricky.epd', chess960: false },
  { file: 'unreachable.epd', chess960: false },
  { file: 'fischer.epd', chess960: true },
  { file: 'tricky960.epd', chess960: true },
];
const start = Date.now();
let perftCounts = 0;
let sanPositions = 0;
let chessJsPositions = 0;
for (const { file, chess960 } of suites) {
  for (const [index, { fen, counts }] of readSuite(file).entries()) {
    const where = `${file}:${index + 1}`;
    const pos = new Position(fen, { chess960 });
    for (const [depth, expected] of counts) {
      if (expected > BigInt(maxNodes)) continue;
      const got = pos.perft(depth);
      check(BigInt(got) === expected, `${where} perft(${depth}) = ${got}, expected ${expected}`);
      perftCounts++;
    }

    const moves = pos.legalMoves();
    if (counts.has(1)) check(BigInt(moves.length) === counts.get(1), `${where}: ${moves.length} legal moves, D1 ${counts.get(1)}`);
    check(
      moves.every((uci, i) => i === 0 || moves[i - 1] < uci),
      `${where}: legal moves not sorted and unique: ${moves.join(' ')}`,
    );
    check(
      moves.every((uci) => pos.isLegal(uci)),
      `${where}: a listed move is not isLegal`,
    );

    const sans = pos.legalMovesSan();
    check(sans.length === moves.length && new Set(sans).size === sans.length, `${where}: SAN list ${sans.join(' ')}`);
    check(
      sans.every((san, i) => pos.parseSan(san) === moves[i] && pos.san(moves[i]) === san),
      `${where}: SAN does not round-trip: ${sans.join(' ')}`,
    );
    sanPositions++;

    if (!chess960 && file !== 'unreachable.epd') {
      // chess.js is an independent SAN writer for standard chess.
      const reference = new Map(new Chess(fen).moves({ verbose: true }).map((m) => [m.from + m.to + (m.promotion ?? ''), m.san]));
      check(
        reference.size === moves.length && moves.every((uci, i) => reference.get(uci) === sans[i]),
        `${where}: SAN differs from chess.js: ${sans.join(' ')} vs ${[...reference.values()].join(' ')}`,
      );
      chessJsPositions++;
    }
  }
}
console.log(
  `node-smoke: ${perftCounts} perft counts (<= ${maxNodes} nodes), legal moves and SAN of ${sanPositions} positions ` +
    `(${chessJsPositions} against chess.js), ${((Date.now() - start) / 1000).toFixed(1)} s`,
);

// perftAsync: 2 threads, the cpw.epd position 2 (kiwipete) and the first
// fischer.epd line, at the deepest count <= 5M nodes.
const ASYNC_MAX_NODES = 5000000n;
for (const { file, line, chess960 } of [
  { file: 'cpw.epd', line: 1, chess960: false },
  { file: 'fischer.epd', line: 0, chess960: true },
]) {
  const { fen, counts } = readSuite(file)[line];
  const [depth, expected] = [...counts].filter(([, count]) => count <= ASYNC_MAX_NODES).pop();
  const t0 = Date.now();
  const result = await perftAsync(fen, depth, { threads: 2, hashMb: 4, divide: true, chess960 });
  const rootMoves = new Position(fen, { chess960 }).legalMoves();
  const divideSum = Object.values(result.divide).reduce((a, b) => a + b, 0n);
  check(result.nodes === expected, `perftAsync ${file}:${line + 1} D${depth}: ${result.nodes}, expected ${expected}`);
  check(
    divideSum === expected && Object.keys(result.divide).sort().join() === [...rootMoves].sort().join(),
    `perftAsync ${file}:${line + 1} divide: sum ${divideSum}, moves ${Object.keys(result.divide).join(' ')}`,
  );
  console.log(`node-smoke: perftAsync ${file}:${line + 1} D${depth} = ${result.nodes} on 2 threads, ${Date.now() - t0} ms`);
}

console.log(`node-smoke: ${passed} passed, ${failed} failed`);
process.exitCode = failed === 0 ? 0 : 1;
