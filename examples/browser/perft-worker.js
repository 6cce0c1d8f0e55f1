// Counts perft(depth) of one position, a root move at a time, posting
// progress after each; the page cancels by terminating the worker. The
// engine loads before this module runs, so a job posted earlier could be
// missed: the worker says when it is ready for one.
import { Position } from 'chess-native';

self.onmessage = ({ data: { fen, depth } }) => {
  try {
    const start = performance.now();
    const root = new Position(fen);
    const moves = root.legalMoves();
    let nodes = depth === 0 ? 1n : 0n;
    self.postMessage({ done: 0, total: moves.length });
    if (depth > 0)
      moves.forEach((uci, i) => {
        nodes += root
          .clone()
          .play(uci)
          .perftBig(depth - 1);
        self.postMessage({ done: i + 1, total: moves.length });
      });
    self.postMessage({ done: moves.length, total: moves.length, nodes: String(nodes), ms: performance.now() - start });
  } catch (e) {
    self.postMessage({ error: e instanceof Error ? e.message : String(e) });
  }
};
self.postMessage({ ready: true });
