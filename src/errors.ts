/** The FEN field a {@link FenError} is about. */
export type FenField = 'fields' | 'board' | 'turn' | 'castling' | 'enPassant' | 'halfmove' | 'fullmove';

/** A FEN string that cannot be parsed. `field` names the offending field; the message names it too. */
export class FenError extends Error {
  readonly field: FenField;

  constructor(field: FenField, message: string) {
    super(message);
    this.name = 'FenError';
    this.field = field;
  }
}

/** A move string that is malformed or not legal in the position it was played in. */
export class IllegalMoveError extends Error {
  readonly move: string;
  /**
   * For a line of moves (playLine, playSanLine, sanLine): the 0-based index of
   * the failing move among the line's moves (move numbers and a result token
   * are not moves). Undefined for single-move calls.
   */
  readonly index?: number;

  constructor(move: string, message: string, index?: number) {
    super(message);
    this.name = 'IllegalMoveError';
    this.move = move;
    if (index !== undefined) this.index = index;
  }
}

/**
 * A {@link perftAsync} run stopped by its AbortSignal. `name` is 'AbortError'
 * (as for Node's own abortable APIs); `cause` is the signal's reason.
 */
export class AbortError extends Error {
  readonly code = 'ABORT_ERR';

  constructor(message = 'The operation was aborted', options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'AbortError';
  }
}

/** A short description of a value for error messages (not exported by the package). */
export function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'bigint') return `${value}n`;
  if (value === null) return 'null';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'function') return 'a function';
  return String(value);
}
