// Runs in the browser page of bench/browser.mjs, bundled with chessops by
// esbuild: each export times one thing in the page (performance.now(), wall
// time) and returns JSON; bench/browser.mjs repeats, checks and summarises.
import { perft as chessopsPerft } from 'chessops/debug';
import { compileEngine, WasmEngine } from '../wasm/loader.mjs';
import { chessopsFromFen, chessopsUci } from './chessops-moves.mjs';

let engine;
/** Room in the engine's memory for a position and its moves. */
let scratch;

/** Fetch (never from a cache) to compiled, then to instantiated with its tables; the last engine stays for the other exports. */
export async function startup(url) {
  const start = performance.now();
  const module = await compileEngine(fetch(url, { cache: 'no-store' }));
  const compiled = performance.now();
  engine = new WasmEngine(module, null);
  await engine.ready;
  const ready = performance.now();
  scratch = engine.call('malloc', engine.positionBytes + 2 * engine.maxMoves);
  return { fetchCompileMs: compiled - start, instantiateMs: ready - compiled, tablesMs: engine.initMilliseconds(), totalMs: ready - start };
}

function position(fen) {
  const result = engine.parseFen(fen);
  if (result.status !== 0) throw new Error(`${fen}: ${result.message}`);
  return result.position;
}

/** One-thread perft of one position: wasm at `wasmDepth`, then chessops at `chessopsDepth`. */
export function perftPair(fen, wasmDepth, chessopsDepth) {
  const pos = position(fen);
  let start = performance.now();
  const wasmNodes = engine.perft(pos, wasmDepth);
  const wasmMs = performance.now() - start;
  const setup = chessopsFromFen(fen);
  start = performance.now();
  const chessopsNodes = chessopsPerft(setup, chessopsDepth);
  const chessopsMs = performance.now() - start;
  return { wasmNodes: wasmNodes.toString(), wasmMs, chessopsNodes: String(chessopsNodes), chessopsMs };
}

/** `reps` passes of `count(fen)` over `fens`: milliseconds, and the counts of the last pass. */
function timePasses(fens, reps, count) {
  const counts = [];
  const start = performance.now();
  for (let rep = 0; rep < reps; rep++) {
    counts.length = 0;
    for (const fen of fens) counts.push(count(fen));
  }
  return { ms: performance.now() - start, counts };
}

/** The engine's move list as 16-bit codes, no strings: what the move generator costs beside the loader's UCI strings. */
function moveCodes(fen) {
  engine.bytes.set(position(fen), scratch);
  return engine.call('cn_legal_moves_sorted', scratch, scratch + engine.positionBytes);
}

/** New position + legal moves over `fens`, `reps` passes each: wasm as UCI strings, wasm as move codes, chessops as UCI strings. */
export function movesPasses(fens, reps) {
  return {
    wasm: timePasses(fens, reps, (fen) => engine.legalMoves(position(fen)).length),
    codes: timePasses(fens, reps, moveCodes),
    chessops: timePasses(fens, reps, (fen) => chessopsUci(chessopsFromFen(fen)).length),
  };
}
