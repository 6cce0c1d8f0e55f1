// Runs in the page: the package's browser entry (dist/browser.mjs, the API on
// the WebAssembly engine), called by test/browser-api.test.ts, which compares
// every answer with the native addon's in Node.
const api = () => import('/dist/browser.mjs');

export async function info() {
  const { engineInfo } = await api();
  return engineInfo();
}

/** When the page started fetching the engine, and when the first module the entry imports arrived (ms; Resource Timing of the first import). */
export async function loadTimes() {
  await api();
  const resources = performance.getEntriesByType('resource').map((entry) => ({ path: new URL(entry.name).pathname, entry }));
  const imported = resources.filter(({ path }) => path.startsWith('/dist/') && path.endsWith('.mjs') && path !== '/dist/browser.mjs');
  return {
    engineFetchStart: resources.find(({ path }) => path.endsWith('/chess-native.wasm')).entry.fetchStart,
    apiArrived: Math.min(...imported.map(({ entry }) => entry.responseEnd)),
  };
}

/**
 * The engine the API runs on against the instance the entry started: the
 * entry's slot holds it, and when the API took it over, its tables are the
 * ones engineInfo() reports (cn_init ran once, in that instance).
 */
export async function startedEngine() {
  const { engineInfo, Position } = await api();
  new Position().legalMoves(); // the engine is made at the first call
  const slot = Object.getOwnPropertySymbols(globalThis).find((s) => /^chess-native@.* engine$/.test(s.description ?? ''));
  const started = await globalThis[slot];
  const exports = started.instance?.exports;
  return {
    started: exports !== undefined,
    startedInitMs: exports ? Number(exports.cn_init_nanoseconds()) / 1e6 : NaN,
    initMs: engineInfo().initMs,
  };
}

/** Per FEN: the legal moves, their SAN, the game state and the hash, or the error thrown (`api`: the package's exports; the test runs it on the addon too). */
export function positionsOf({ Position }, fens) {
  return fens.map((fen) => {
    try {
      const pos = new Position(fen);
      const moves = pos.legalMoves();
      return {
        fen: pos.fen(),
        moves,
        sans: pos.legalMovesSan(),
        checkmate: pos.isCheckmate(),
        draw: pos.isDraw(),
        hash: String(pos.hash()),
        after: moves.length
          ? pos
              .clone()
              .play(moves[moves.length - 1])
              .fen()
          : null,
      };
    } catch (e) {
      return { error: e.name, field: e.field ?? null, message: e.message };
    }
  });
}

export async function positions(fens) {
  return positionsOf(await api(), fens);
}

export async function perft(fen, depth) {
  const { Position } = await api();
  return String(new Position(fen).perftBig(depth));
}

/** Each game of `text`: headers, mainline UCI, errors and its PGN written back; also read as a Blob stream. */
export async function pgn(text) {
  const { parsePgn, readPgn, writePgn } = await api();
  const summary = (g) => ({ headers: g.headers, moves: g.moves().map((m) => m.uci), errors: g.errors, written: writePgn(g) });
  const streamed = [];
  for await (const g of readPgn(new Blob([text]), { chunkBytes: 256 })) streamed.push(summary(g));
  return { parsed: parsePgn(text).map(summary), streamed };
}

/** What a Node-only function says in the browser. */
export async function nodeOnly() {
  const { readPgn } = await api();
  try {
    for await (const g of readPgn('games.pgn')) return g;
    return 'no error';
  } catch (e) {
    return e.message;
  }
}
