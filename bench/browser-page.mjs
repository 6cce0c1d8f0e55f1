// Runs in the browser page of bench/browser.mjs, bundled with chessops by
// esbuild; the package's browser entry (dist/browser.mjs) is imported at run
// time, as an app imports it, and timed through its public API only. Each
// export times one thing with performance.now(), always over a batch of many
// calls (a page that is not cross-origin isolated reads the clock in 100 us
// steps), chess-native and chessops back to back, and returns JSON;
// bench/browser.mjs repeats, checks and summarises.
import { perft as chessopsPerft } from 'chessops/debug';
import { chessopsFromFen, chessopsUci } from './chessops-moves.mjs';
import { apiTreeNodes, chessopsTreeNodes } from './pgn-tree.mjs';

const BUNDLE = '/dist/browser.mjs';

/** The bundle's exports, once startup() has imported it. */
let api;
let pgnText = '';

/** When the response for the URL ending in `suffix` finished, in ms after `start`. */
function fetched(suffix, start) {
  const entry = performance.getEntriesByType('resource').find((e) => new URL(e.name).pathname.endsWith(suffix));
  return entry ? entry.responseEnd - start : NaN;
}

/**
 * After `settleMs` (the browser's own start-up work done), the import of
 * the bundle, the page's first (in a fresh browser, so nothing is cached:
 * the server also forbids it), to its exports ready: the
 * bundle's fetch, parse and run, the engine's fetch and compile,
 * instantiation and tables, and the API's own set-up.
 */
export async function startup(settleMs = 0) {
  await new Promise((resolve) => setTimeout(resolve, settleMs));
  const start = performance.now();
  api = await import(BUNDLE);
  const ms = performance.now() - start;
  return { ms, bundleMs: fetched(BUNDLE, start), wasmMs: fetched('.wasm', start), tablesMs: api.engineInfo().initMs };
}

/** Milliseconds of `reps` passes of `count` over `items`, and the counts of the last pass. */
function passes(items, reps, count) {
  const counts = new Array(items.length);
  const start = performance.now();
  for (let rep = 0; rep < reps; rep++) for (let i = 0; i < items.length; i++) counts[i] = count(items[i]);
  return { ms: performance.now() - start, counts };
}

/**
 * Legal moves as UCI strings over `fens`, `reps` passes each: from a new
 * position (FEN parsed, moves listed), and of positions made beforehand.
 */
export function moves(fens, reps) {
  const { Position } = api;
  const held = fens.map((fen) => new Position(fen));
  const heldChessops = fens.map(chessopsFromFen);
  return {
    fresh: passes(fens, reps, (fen) => new Position(fen).legalMoves().length),
    freshChessops: passes(fens, reps, (fen) => chessopsUci(chessopsFromFen(fen)).length),
    held: passes(held, reps, (pos) => pos.legalMoves().length),
    heldChessops: passes(heldChessops, reps, (pos) => chessopsUci(pos).length),
  };
}

/** One-thread perft of one position: chess-native at `depth`, then chessops at `chessopsDepth`. */
export function perft(fen, depth, chessopsDepth) {
  const pos = new api.Position(fen);
  let start = performance.now();
  const nodes = pos.perft(depth);
  const ms = performance.now() - start;
  const setup = chessopsFromFen(fen);
  start = performance.now();
  const chessopsNodes = chessopsPerft(setup, chessopsDepth);
  const chessopsMs = performance.now() - start;
  return { nodes, ms, chessopsNodes, chessopsMs };
}

/** Keeps the PGN text in the page (sent once, not with every timing call). */
export function setPgn(text) {
  pgnText = text;
  return text.length;
}

/** The whole tree of every game of the text: chess-native, then chessops; the nodes each saw. */
export function pgn() {
  let start = performance.now();
  const nodes = apiTreeNodes(api.parsePgn, pgnText);
  const ms = performance.now() - start;
  start = performance.now();
  const chessopsNodes = chessopsTreeNodes(pgnText);
  const chessopsMs = performance.now() - start;
  return { nodes, ms, chessopsNodes, chessopsMs };
}
