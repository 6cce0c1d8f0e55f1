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

/** When the last response for a path `test` accepts finished, in ms after `start`. */
function fetched(test, start) {
  const ends = performance
    .getEntriesByType('resource')
    .filter((e) => test(new URL(e.name).pathname))
    .map((e) => e.responseEnd - start);
  return ends.length ? Math.max(...ends) : NaN;
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
  const bundleMs = fetched((path) => path.startsWith('/dist/') && path.endsWith('.mjs'), start);
  return { ms, bundleMs, wasmMs: fetched((path) => path.endsWith('.wasm'), start), tablesMs: api.engineInfo().initMs };
}

/** Passes of legal moves a block: each kind is timed a block at a time, the kinds taking turns. */
const BLOCK_PASSES = 10;

/**
 * Legal moves as UCI strings over `fens`, `reps` passes each (rounded up
 * to whole blocks): from a new position (FEN parsed, moves listed), and of
 * positions made beforehand, chess-native and chessops. The kinds take
 * turns a block of passes at a time, so a burst of other work on the
 * machine lands on all of them alike. Per kind: milliseconds in all, the
 * passes they took, and the move counts of the last pass.
 */
export function moves(fens, reps) {
  const { Position } = api;
  const held = fens.map((fen) => new Position(fen));
  const heldChessops = fens.map(chessopsFromFen);
  const kinds = {
    fresh: [fens, (fen) => new Position(fen).legalMoves().length],
    freshChessops: [fens, (fen) => chessopsUci(chessopsFromFen(fen)).length],
    held: [held, (pos) => pos.legalMoves().length],
    heldChessops: [heldChessops, (pos) => chessopsUci(pos).length],
  };
  const out = Object.fromEntries(Object.keys(kinds).map((kind) => [kind, { ms: 0, passes: 0, counts: new Array(fens.length) }]));
  for (let done = 0; done < reps; done += BLOCK_PASSES) {
    for (const [kind, [items, count]] of Object.entries(kinds)) {
      const { counts } = out[kind];
      const start = performance.now();
      for (let pass = 0; pass < BLOCK_PASSES; pass++) for (let i = 0; i < items.length; i++) counts[i] = count(items[i]);
      out[kind].ms += performance.now() - start;
      out[kind].passes += BLOCK_PASSES;
    }
  }
  return out;
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
