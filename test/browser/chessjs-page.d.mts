// Types of test/browser/chessjs-page.mjs (the part the test calls in Node).
export function facadeSummary(facade: { Chess: new () => unknown }, pgn: string): unknown;
