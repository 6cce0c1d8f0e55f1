// The "PGN full tree" workload of bench/pgn.mjs (Node) and bench/browser.mjs
// (the page): the text, and what each reader does to get every node of
// every game's tree with its move validated. This module imports chessops
// only, so the page can bundle it.
import { parsePgn as chessopsParsePgn, startingPosition, walk } from 'chessops/pgn';
import { parseSan } from 'chessops/san';

/**
 * At least `mb` megabytes of generated games with one comment a move (what
 * chess.js reads), NAGs and variations: `generatePgn` of bench/pgn-corpus.mjs,
 * 50 games a seed, seeds from 1000 + `seed`. ASCII: its length is its bytes.
 */
export function treeText(generatePgn, mb, seed = 1) {
  let text = '';
  for (let s = 1000 + seed; text.length < mb * 1e6; s++)
    text += generatePgn({ seed: s, games: 50, variations: true, comments: true, doubleComments: false }) + '\n';
  return text;
}

/** chess-native: `parsePgn` (the package's, from whichever entry), every node of `root`, and each game's `moves()`; returns the nodes. */
export function apiTreeNodes(parsePgn, text) {
  let nodes = 0;
  const count = (n) => {
    nodes++;
    n.children.forEach(count);
  };
  for (const g of parsePgn(text)) {
    g.root.children.forEach(count);
    g.moves();
  }
  return nodes;
}

/** chessops: `parsePgn`, then `parseSan` and `play` on every node of the tree (what validates it); returns the nodes. */
export function chessopsTreeNodes(text) {
  let nodes = 0;
  for (const game of chessopsParsePgn(text)) {
    const pos = startingPosition(game.headers).unwrap();
    walk(game.moves, pos, (p, data) => {
      const move = parseSan(p, data.san);
      if (!move) return false;
      p.play(move);
      nodes++;
      return true;
    });
  }
  return nodes;
}
