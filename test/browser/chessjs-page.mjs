// Runs in the page of test/browser-api.test.ts: chess-native/chessjs's
// browser entry (dist/chessjs/browser.mjs), whose answers the test compares
// with the facade's in Node.
const facade = () => import('/dist/chessjs/browser.mjs');

/** A few calls of the facade (`Chess`: its class; the test runs it in Node too): moves, move, pgn, loadPgn, an illegal move. */
export function facadeSummary({ Chess }, pgn) {
  const chess = new Chess();
  const moves = chess.moves();
  const verbose = chess.moves({ verbose: true, square: 'g1' }).map(({ from, to, san, lan, flags }) => ({ from, to, san, lan, flags }));
  const played = ['e4', 'e5', 'Nf3', 'Nc6', 'Bb5', { from: 'a7', to: 'a6' }].map((move) => chess.move(move).san);
  chess.setHeader('White', 'Café');
  let illegal;
  try {
    chess.move('Ke3');
  } catch (e) {
    illegal = e.message;
  }
  const loaded = new Chess();
  loaded.loadPgn(pgn);
  return {
    moves,
    verbose,
    played,
    illegal,
    fen: chess.fen(),
    pgn: chess.pgn(),
    loaded: {
      history: loaded.history(),
      fen: loaded.fen(),
      pgn: loaded.pgn(),
      headers: loaded.getHeaders(),
      checkmate: loaded.isCheckmate(),
    },
  };
}

export async function summary(pgn) {
  return facadeSummary(await facade(), pgn);
}

/** How many times the page has fetched the engine's module: once, whichever entries it imported. */
export async function engineFetches() {
  await Promise.all([facade(), import('/dist/browser.mjs')]);
  return performance.getEntriesByType('resource').filter((entry) => entry.name.endsWith('/chess-native.wasm')).length;
}
