// validateFen: chess.js's checks of a FEN, in its order and with its
// messages (its constructor and load() throw `new Error(message)`).

type Result = { ok: boolean; error?: string };

const fail = (error: string): Result => ({ ok: false, error: `Invalid FEN: ${error}` });

/** Whether one rank of the board field is well formed; the error text otherwise. */
function rankError(row: string): string | null {
  let squares = 0;
  let previousWasNumber = false;
  for (const c of row) {
    if (c >= '0' && c <= '9') {
      if (previousWasNumber) return 'piece data is invalid (consecutive number)';
      squares += Number(c);
      previousWasNumber = true;
    } else {
      if (!'prnbqkPRNBQK'.includes(c)) return 'piece data is invalid (invalid piece)';
      squares += 1;
      previousWasNumber = false;
    }
  }
  return squares === 8 ? null : 'piece data is invalid (too many squares in rank)';
}

function kingError(board: string): string | null {
  for (const [letter, color] of [
    ['K', 'white'],
    ['k', 'black'],
  ] as const) {
    const count = board.split(letter).length - 1;
    if (count === 0) return `missing ${color} king`;
    if (count > 1) return `too many ${color} kings`;
  }
  return null;
}

/** chess.js's validateFen: `{ ok: true }` or `{ ok: false, error }`. */
export function validateFen(fen: string): Result {
  const tokens = fen.split(/\s+/);
  if (tokens.length !== 6) return fail('must contain six space-delimited fields');
  const [board, turn, castling, ep, half, full] = tokens as [string, string, string, string, string, string];
  const moveNumber = parseInt(full, 10);
  if (isNaN(moveNumber) || moveNumber <= 0) return fail('move number must be a positive integer');
  const halfMoves = parseInt(half, 10);
  if (isNaN(halfMoves) || halfMoves < 0) return fail('half move counter number must be a non-negative integer');
  if (!/^(-|[abcdefgh][36])$/.test(ep)) return fail('en-passant square is invalid');
  if (/[^kKqQ-]/.test(castling)) return fail('castling availability is invalid');
  if (!/^(w|b)$/.test(turn)) return fail('side-to-move is invalid');
  const rows = board.split('/');
  if (rows.length !== 8) return fail("piece data does not contain 8 '/'-delimited rows");
  for (const row of rows) {
    const error = rankError(row);
    if (error !== null) return fail(error);
  }
  if ((ep[1] === '3' && turn === 'w') || (ep[1] === '6' && turn === 'b')) return fail('illegal en-passant square');
  const kings = kingError(board);
  if (kings !== null) return fail(kings);
  if (/[pP]/.test((rows[0] as string) + (rows[7] as string))) return fail('some pawns are on the edge rows');
  return { ok: true };
}
