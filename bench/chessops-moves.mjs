// chessops's legal moves in the form chess-native gives them, for the
// benchmarks (Node and the browser page: this module imports chessops only).
// The fair conversion to UCI: castling king-takes-rook -> e1g1/e1c1, one
// string per promotion piece, square names from a 64-entry table (cheaper
// than makeUci), left unsorted.
import { Chess as ChessOps } from 'chessops/chess';
import { parseFen } from 'chessops/fen';
import { makeSquare } from 'chessops/util';

const NAMES = Array.from({ length: 64 }, (_, sq) => makeSquare(sq));
const PROMOTIONS = ['q', 'r', 'b', 'n'];

export function chessopsFromFen(fen) {
  return ChessOps.fromSetup(parseFen(fen).unwrap()).unwrap();
}

export function chessopsUci(pos) {
  const out = [];
  const ctx = pos.ctx();
  const own = pos.board[pos.turn];
  const pawns = pos.board.pawn;
  const seventh = pos.turn === 'white' ? 6 : 1;
  for (const [from, dests] of pos.allDests(ctx)) {
    if (dests.isEmpty()) continue;
    const f = NAMES[from];
    if (from === ctx.king) {
      // chessops writes castling as the king taking its own rook.
      for (const to of dests) out.push(f + NAMES[own.has(to) ? (to > from ? from + 2 : from - 2) : to]);
    } else if (pawns.has(from) && from >> 3 === seventh) {
      for (const to of dests) for (const p of PROMOTIONS) out.push(f + NAMES[to] + p);
    } else {
      for (const to of dests) out.push(f + NAMES[to]);
    }
  }
  return out;
}

export function chessopsCount(pos) {
  const ctx = pos.ctx();
  const pawns = pos.board.pawn;
  const seventh = pos.turn === 'white' ? 6 : 1;
  let n = 0;
  for (const [from, dests] of pos.allDests(ctx)) {
    n += pawns.has(from) && from >> 3 === seventh ? 4 * dests.size() : dests.size();
  }
  return n;
}
