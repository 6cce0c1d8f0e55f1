// Smoke test of an installed chess-native package: perft, legal moves, SAN,
// perftAsync and the chess.js API (chess-native/chessjs) with exact expected
// results, plus proof that the binary that loaded is a shipped prebuild (not
// a build/ compiled at install time).
//
//   cd <project that installed the package> && node <repo>/test/smoke.mjs [package-name]
//
// The package is resolved from the current directory, as the project's own
// code would resolve it, never from this repository. Exits 1 on any mismatch.
// `npm run test:tarball` (test/tarball.mjs) packs, installs and runs this.
//
// Expected counts are the published numbers in test/data (provenance in
// test/data/SOURCES.md), copied here because an installed package has no
// test/data next to it; each names its file and line.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';

const name = process.argv[2] ?? 'chess-native';
const project = process.cwd();
const projectRequire = createRequire(path.join(project, 'package.json'));

let failures = 0;
function check(what, actual, expected) {
  const a = JSON.stringify(actual, (_, v) => (typeof v === 'bigint' ? `${v}n` : v));
  const e = JSON.stringify(expected, (_, v) => (typeof v === 'bigint' ? `${v}n` : v));
  if (a === e) {
    console.log(`ok   ${what}`);
  } else {
    failures++;
    console.log(`FAIL ${what}\n       expected ${e}\n       actual   ${a}`);
  }
}

// --- what loaded ----------------------------------------------------------
const pkgDir = path.dirname(projectRequire.resolve(`${name}/package.json`));
const pkgJson = JSON.parse(readFileSync(path.join(pkgDir, 'package.json'), 'utf8'));
check('package resolves from the project, not from this repository', path.relative(project, pkgDir).split(path.sep).slice(0, 2), [
  'node_modules',
  ...name.split('/').slice(0, 1),
]);

const lib = projectRequire(name);
const esm = await import(pathToFileURL(path.join(pkgDir, pkgJson.exports['.'].import)).href);
check('import and require share one module instance', esm.Position === lib.Position && esm.default === lib, true);

// node-gyp-build is the package's own loader; ask it which file it picks.
const binary = createRequire(path.join(pkgDir, 'package.json'))('node-gyp-build').path(pkgDir);
const tuple = `${process.platform}-${process.arch}`;
console.log(`info ${name}@${pkgJson.version} on ${tuple}, node ${process.version}, binary ${path.relative(pkgDir, binary)}`);
console.log(`info engineInfo ${JSON.stringify(lib.engineInfo())}`);
check('the binary is a shipped prebuild for this platform', path.relative(pkgDir, path.dirname(binary)).split(path.sep), [
  'prebuilds',
  tuple,
]);
check('nothing was compiled at install (no build/ in the package)', existsSync(path.join(pkgDir, 'build')), false);
if (process.platform === 'linux') {
  // glibcVersionRuntime is absent under musl. node-gyp-build decides musl by
  // /etc/alpine-release; this checks the tag it chose against the libc that runs.
  const glibc = process.report.getReport().header.glibcVersionRuntime;
  const libc = glibc ? 'glibc' : 'musl';
  console.log(`info libc ${libc}${glibc ? ` ${glibc}` : ''}`);
  const tag = path
    .basename(binary)
    .split('.')
    .find((t) => t === 'glibc' || t === 'musl');
  check('the prebuild is tagged for the running libc (or untagged)', tag === undefined || tag === libc, true);
}
check('Node-API version of the binary', lib.engineInfo().napi, 8);

const { Position, perftAsync, AbortError } = lib;

// --- perft: test/data counts ----------------------------------------------
const perftCases = [
  // [source, fen, depth, count, options]
  ['cpw.epd:1 initial position', 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', 4, 197281],
  ['cpw.epd:2 Kiwipete', 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1', 3, 97862],
  ['cpw.epd:3 position 3', '8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1', 5, 674624],
  ['cpw.epd:4 position 4', 'r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1', 4, 422333],
  ['cpw.epd:6 position 5', 'rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8', 4, 2103487],
  ['tricky.epd:1 illegal en passant', '3k4/3p4/8/K1P4r/8/8/8/8 b - - 0 1', 6, 1134888],
  [
    'fischer.epd:1 Chess960 (Shredder-FEN)',
    'bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9',
    4,
    326672,
    { chess960: true },
  ],
];
for (const [source, fen, depth, count, options] of perftCases) {
  check(`perft ${source} D${depth}`, new Position(fen, options).perft(depth), count);
}

// --- legal moves ----------------------------------------------------------
check('legal moves of the initial position (cpw.epd:1 D1 20)', new Position().legalMoves(), [
  'a2a3',
  'a2a4',
  'b1a3',
  'b1c3',
  'b2b3',
  'b2b4',
  'c2c3',
  'c2c4',
  'd2d3',
  'd2d4',
  'e2e3',
  'e2e4',
  'f2f3',
  'f2f4',
  'g1f3',
  'g1h3',
  'g2g3',
  'g2g4',
  'h2h3',
  'h2h4',
]);
check(
  'legal move count, 218-move position (tricky.epd:40 D1 218)',
  new Position('R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1').legalMoves().length,
  218,
);
check(
  'no legal move in a mate and a stalemate (tricky.epd:42 and :47 D1 0)',
  [new Position('8/5r2/4K1q1/4p3/3k4/8/8/8 w - - 0 7').legalMoves(), new Position('1R6/8/8/8/8/8/7R/k6K b - - 0 1').legalMoves()],
  [[], []],
);

// --- SAN ------------------------------------------------------------------
check("SAN of the initial position's moves", [...new Position().legalMovesSan()].sort(), [
  'Na3',
  'Nc3',
  'Nf3',
  'Nh3',
  'a3',
  'a4',
  'b3',
  'b4',
  'c3',
  'c4',
  'd3',
  'd4',
  'e3',
  'e4',
  'f3',
  'f4',
  'g3',
  'g4',
  'h3',
  'h4',
]);
const mate = new Position().playSanLine(['f3', 'e5', 'g4', 'Qh4#']);
check(
  "fool's mate by SAN: history, mate, FEN",
  [mate.history(), mate.isCheckmate(), mate.fen()],
  [['f2f3', 'e7e5', 'g2g4', 'd8h4'], true, 'rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3'],
);
check('SAN of a UCI line', new Position().sanLine(['f2f3', 'e7e5', 'g2g4', 'd8h4']), ['f3', 'e5', 'g4', 'Qh4#']);
const kiwipete = new Position('r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1');
check(
  'SAN castling and captures (Kiwipete)',
  [kiwipete.san('e1g1'), kiwipete.san('e1c1'), kiwipete.parseSan('O-O-O'), kiwipete.san('e5f7'), kiwipete.san('d5e6')],
  ['O-O', 'O-O-O', 'e1c1', 'Nxf7', 'dxe6'],
);
check('SAN promotion with check', new Position('8/P7/8/8/8/8/8/k6K w - - 0 1').san('a7a8q'), 'a8=Q+');

// --- perftAsync (native threads) ------------------------------------------
let progressCalls = 0;
const run = await perftAsync('r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1', 4, {
  threads: 2,
  hashMb: 1,
  divide: true,
  onProgress: () => void progressCalls++,
});
check('perftAsync Kiwipete D4 (cpw.epd:2 D4 4085603), 2 threads, 1 MiB table', run.nodes, 4085603n);
check(
  'perftAsync divide: 48 root moves (cpw.epd:2 D1) summing to the total',
  [Object.keys(run.divide).length, Object.values(run.divide).reduce((a, b) => a + b, 0n)],
  [48, 4085603n],
);
check('perftAsync reports progress at least once', progressCalls > 0, true);
const aborting = new AbortController();
const long = perftAsync(undefined, 9, { threads: 2, hashMb: 0, signal: aborting.signal });
setTimeout(() => aborting.abort(), 50);
check(
  'perftAsync stops on abort',
  await long.then(
    () => 'finished',
    (e) => (e instanceof AbortError ? 'aborted' : String(e)),
  ),
  'aborted',
);

// --- the chess.js API (name/chessjs) ---------------------------------------
const chessjs = projectRequire(`${name}/chessjs`);
const chessjsEsm = await import(pathToFileURL(path.join(pkgDir, pkgJson.exports['./chessjs'].import)).href);
check('chessjs: import and require share one module instance', chessjsEsm.Chess === chessjs.Chess, true);
{
  const chess = new chessjs.Chess();
  for (const san of ['e4', 'e5', 'Qh5', 'Nc6', 'Bc4', 'Nf6', 'Qxf7#']) chess.move(san);
  check('chessjs: a game played in SAN', [chess.isCheckmate(), chess.history().length, chess.moves().length], [true, 7, 0]);
  check('chessjs: moves() in chess.js order', new chessjs.Chess().moves().slice(0, 4), ['a3', 'a4', 'b3', 'b4']);
  chess.clear();
  chess.put({ type: 'q', color: 'w' }, 'd1');
  check('chessjs: a kingless position after clear() and put()', chess.moves().length, 21);
}

console.log(failures === 0 ? `smoke: ${name} ok on ${tuple}` : `smoke: ${failures} check(s) FAILED on ${tuple}`);
process.exit(failures === 0 ? 0 : 1);
