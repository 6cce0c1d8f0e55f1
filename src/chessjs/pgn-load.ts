// The text loadPgn reads, through the PGN reader's chess.js grammar mode
// (CN_PGN_MODE_CHESSJS): chess.js's tags, the mainline's moves as written
// with the comment after each, and the result. Variations are read and
// dropped, as chess.js drops them.
import { PGN } from '../core/boundary';
import { readWholeText } from '../pgn/read';
import { batchesOf, visitRecords } from '../pgn/records';

/** A mainline move as written and the comment after it. */
interface PgnMoveText {
  san: string;
  comment: string | undefined;
}

export interface ParsedPgn {
  /** chess.js's headers: the tags in first-seen order, the last value of a repeated name. */
  headers: Record<string, string>;
  /** The comment before the first move. */
  rootComment: string | undefined;
  moves: PgnMoveText[];
  result: string | undefined;
}

/** The error chess.js's parser throws: an Error named SyntaxError. */
class PgnSyntaxError extends Error {
  override name = 'SyntaxError';
}

/** The text as chess.js's parser takes it: it reads its input with charAt, and fails there on anything else. */
function pgnString(text: unknown): string {
  if (typeof text === 'string') return text;
  if (text instanceof String) return String(text);
  throw new TypeError(text == null ? `Cannot read properties of ${String(text)} (reading 'charAt')` : 'input.charAt is not a function');
}

/** The headers and mainline of PGN text; a SyntaxError where chess.js's parser throws one. */
export function readPgnText(input: string): ParsedPgn {
  const parts = readWholeText(pgnString(input), PGN.mode.chessjs);
  const pairs: [string, string][] = [];
  const parsed: ParsedPgn = { headers: {}, rootComment: undefined, moves: [], result: undefined };
  let depth = 0;
  for (const batch of batchesOf(parts)) {
    visitRecords(batch, 0, batch.records.length / PGN.recordInts, {
      tag: (name, value) => pairs.push([name, value]),
      token: (san) => {
        if (depth === 0) parsed.moves.push({ san, comment: undefined });
      },
      comment: (comment) => {
        if (depth > 0) return;
        const last = parsed.moves[parsed.moves.length - 1];
        if (last !== undefined) last.comment = comment;
        else parsed.rootComment = comment;
      },
      beginVariation: () => depth++,
      endVariation: () => depth--,
      error: ({ message }) => {
        throw message.startsWith('Expected ') ? new PgnSyntaxError(message) : new RangeError(message);
      },
      endGame: (result) => (parsed.result = result),
    });
  }
  parsed.headers = Object.fromEntries(pairs);
  return parsed;
}
