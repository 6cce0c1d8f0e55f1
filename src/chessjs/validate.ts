// validateFen: chess.js's checks of a FEN, in its order and with its
// messages (its constructor and load() throw `new Error(message)`).

type Result = { ok: boolean; error?: string };

const fail = (error: string): Result => ({ ok: false, error: `Invalid FEN: ${error}` });

/** The piece letters, by character code. */
const PIECE = new Uint8Array(128);
for (const c of 'prnbqkPRNBQK') PIECE[c.charCodeAt(0)] = 1;

/**
 * Whether one rank of the board field is well formed; the error text
 * otherwise. By UTF-16 unit: a character outside the BMP is an invalid
 * piece at its first unit as it is whole.
 */
function rankError(row: string): string | null {
  let squares = 0;
  let previousWasNumber = false;
  for (let i = 0; i < row.length; i++) {
    const c = row.charCodeAt(i);
    if (c >= 0x30 && c <= 0x39) {
      if (previousWasNumber) return 'piece data is invalid (consecutive number)';
      squares += c - 0x30;
      previousWasNumber = true;
    } else {
      if (c >= 128 || PIECE[c] === 0) return 'piece data is invalid (invalid piece)';
      squares += 1;
      previousWasNumber = false;
    }
  }
  return squares === 8 ? null : 'piece data is invalid (too many squares in rank)';
}

function kingError(board: string): string | null {
  let white = 0;
  let black = 0;
  for (let i = 0; i < board.length; i++) {
    const c = board.charCodeAt(i);
    if (c === 0x4b) white++;
    else if (c === 0x6b) black++;
  }
  if (white === 0) return 'missing white king';
  if (white > 1) return 'too many white kings';
  if (black === 0) return 'missing black king';
  if (black > 1) return 'too many black kings';
  return null;
}

/** chess.js's validateFen: `{ ok: true }` or `{ ok: false, error }`. */
export function validateFen(fen: string): Result {
  return validateFenFields(fen.split(/\s+/));
}

/** validateFen of a FEN already split at its runs of white space. */
export function validateFenFields(tokens: string[]): Result {
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
