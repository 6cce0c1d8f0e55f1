// The package's error classes and the messages of move errors. Which
// failure becomes which class is decided in one place, native.ts
// (publicError, moveError).

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
 * A {@link perftAsync} run or a {@link readPgn} read stopped by its AbortSignal.
 * `name` is 'AbortError' (as for Node's own abortable APIs); `cause` is the
 * signal's reason.
 */
export class AbortError extends Error {
  readonly code = 'ABORT_ERR';

  constructor(message = 'The operation was aborted', options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'AbortError';
  }
}

/**
 * The native engine failed for a reason other than the input; `code` names
 * the engine status: `CN_ERR_INIT` (its tables could not be built when the
 * package loaded), `CN_ERR_UNSUPPORTED` (CHESS_NATIVE_SLIDERS forces a code
 * path this CPU lacks), `CN_ERR_NO_THREAD` (perftAsync could not start
 * a thread), or `CN_ERR_BAD_POSITION` and other codes for an internal
 * inconsistency (a bug worth reporting).
 */
export class EngineError extends Error {
  readonly code: string;

  constructor(code: string, message: string) {
    super(message);
    this.name = 'EngineError';
    this.code = code;
  }
}

/** The AbortError of an operation (`what`) stopped by its signal; `cause` is the signal's reason. */
export function abortedBy(what: string, signal: AbortSignal | undefined): AbortError {
  return new AbortError(`${what} was aborted`, { cause: signal?.reason });
}

/**
 * A {@link perftAsync} run with `verify: true` whose two counts, made with two
 * hash key sets, differ: a table collision in one of them. `code` is
 * `'ERR_PERFT_VERIFY'`; `nodes` holds the two totals, the default key set's
 * first. Not an {@link EngineError}: the engine did not fail, the counts disagree.
 */
export class PerftVerifyError extends Error {
  readonly code = 'ERR_PERFT_VERIFY';
  readonly nodes: readonly [bigint, bigint];

  constructor(nodes: readonly [bigint, bigint], message: string) {
    super(message);
    this.name = 'PerftVerifyError';
    this.nodes = nodes;
  }
}

/** The AbortError of a perft run stopped by its signal. */
export function perftAborted(signal: AbortSignal | undefined): AbortError {
  return abortedBy('perft', signal);
}

/**
 * A checkpoint journal that cannot be used: written for another position,
 * depth, Chess960 flag, split or engine key set, or corrupted before its last
 * record (a torn last record is not an error: it is dropped and recomputed).
 * `file` is the journal's path.
 */
export class JournalError extends Error {
  readonly file: string;

  constructor(file: string, message: string) {
    super(message);
    this.name = 'JournalError';
    this.file = file;
  }
}

/** What {@link UnitsError} found wrong, unit indices ascending (each list may be empty). */
export interface UnitsProblems {
  /** Units no part counts. */
  missing: number[];
  /** Units counted more than once (in one part or across parts). */
  duplicated: number[];
  /** Units whose record fails its checksum, or parts whose end record does not match them. */
  tampered: string[];
}

/**
 * A units file or part file that is corrupt, truncated, or belongs to another
 * split or engine key set; or parts that do not cover the units exactly once.
 * `problems` lists what merging found (empty lists when a file is refused as
 * a whole); the message summarises it.
 */
export class UnitsError extends Error {
  readonly problems: UnitsProblems;

  constructor(message: string, problems: UnitsProblems = { missing: [], duplicated: [], tampered: [] }) {
    super(message);
    this.name = 'UnitsError';
    this.problems = problems;
  }
}

/** How a move is written. */
export type Notation = 'UCI' | 'SAN';

const ILLEGAL: Record<Notation, string> = { UCI: 'illegal move', SAN: 'illegal or ambiguous move' };
const EXPECTED: Record<Notation, string> = { UCI: 'UCI like e2e4 or e7e8q', SAN: 'SAN like e4, Nbd7, exd8=Q or O-O' };

function shortened(move: string): string {
  return move.length > 40 ? `${JSON.stringify(move.slice(0, 40))}...` : JSON.stringify(move);
}

/**
 * The IllegalMoveError for a move the engine rejected as illegal (or
 * ambiguous) or as malformed; `fen` gives the position it was tried in.
 * `index` places the move in a line.
 */
export function rejectedMove(move: string, notation: Notation, illegal: boolean, fen: () => string, index?: number): IllegalMoveError {
  const shown = index === undefined ? JSON.stringify(move) : shortened(move);
  const where = index === undefined ? '' : ` at ply ${index + 1} of the line (index ${index})`;
  const message = illegal
    ? `${ILLEGAL[notation]} ${shown}${where} in ${fen()}`
    : `malformed move ${shown}${where}: expected ${EXPECTED[notation]}`;
  return new IllegalMoveError(move, message, index);
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
