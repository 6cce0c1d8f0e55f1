// Reading a move string the way chess.js does: SAN compared without its
// decorations ('=', a trailing '+'/'#' and '!'/'?'), then, unless strict, a
// permissive reading of forms such as e2e4, Pe2-e4, Ng1f3, Nge7 (an
// unneeded disambiguation), ef4 or Nf3 for Nxf3.
import { squareOf } from './constants';

/** A legal move as the parser compares it. */
export interface Candidate {
  from: number;
  to: number;
  piece: string;
  promotion: string | undefined;
  san: string;
}

/** The move string without chess.js's decorations. */
export function strippedSan(move: string): string {
  return move.replace(/=/, '').replace(/[+#]?[?!]*$/, '');
}

/** What chess.js cleans a move string to before matching: castling with zeros reads as with letters unless strict. */
export function cleanMove(move: string, strict: boolean): string {
  const clean = strippedSan(move);
  if (!strict) {
    if (clean === '0-0') return 'O-O';
    if (clean === '0-0-0') return 'O-O-O';
  }
  return clean;
}

/** The piece type a move string names first: undefined for a from-to pair such as e2e4. */
function inferPieceType(clean: string): string | undefined {
  const first = clean.charAt(0);
  if (first >= 'a' && first <= 'h') return /[a-h]\d.*[a-h]\d/.test(clean) ? undefined : 'p';
  const lower = first.toLowerCase();
  return lower === 'o' ? 'k' : lower;
}

/**
 * The permissive reading of `clean` among `moves` (all legal moves, in
 * chess.js's order): the first that fits, or undefined. First in chess.js's
 * order, as chess.js does it: a promotion written without its piece (e7e8)
 * promotes to a knight, and code relies on that. Only moves of the
 * piece the string names (or, naming none, of the type inferPieceType
 * gives) are looked at.
 */
export function permissiveMatch(clean: string, moves: readonly Candidate[]): Candidate | undefined {
  const match =
    /([pnbrqkPNBRQK])?([a-h][1-8])x?-?([a-h][1-8])([qrbnQRBN])?/.exec(clean) ??
    /([pnbrqkPNBRQK])?([a-h]?[1-8]?)x?-?([a-h][1-8])([qrbnQRBN])?/.exec(clean);
  if (match === null) return undefined;
  const piece = match[1]?.toLowerCase();
  const from = match[2] ?? '';
  const to = squareOf(match[3]);
  const promotion = match[4]?.toLowerCase();
  const partial = from.length === 1;
  const type = piece ?? inferPieceType(clean);
  for (const m of moves) {
    if (type !== undefined && m.piece !== type) continue;
    if (from === '') {
      // No from square: maybe only the 'x' of a capture is missing.
      if (clean === strippedSan(m.san).replace('x', '')) return m;
      continue;
    }
    const fits = (piece === undefined || piece === m.piece) && to === m.to && (promotion === undefined || promotion === m.promotion);
    if (fits && squareOf(from) === m.from) return m;
    if (fits && partial) {
      const name = 'abcdefgh'[m.from & 7]! + String((m.from >> 3) + 1);
      if (from === name[0] || from === name[1]) return m;
    }
  }
  return undefined;
}
