// The Position class: a position and its move history. It holds where its
// bytes are and the history; the work is done by the addon and by the
// modules beside this one (bytes, fen, lines, board, uci-names).
import { attackerSquares, boardRows, pieceAt, squareIndex, type BoardPiece, type Color, type Piece } from './board';
import { allocBytes, copyBytes, currentSlab, NO_SLAB, positionView, sameKey, type HistoryEntry } from './bytes';
import { checkDepth, checkMove } from './checks';
import { describe, type Notation } from './errors';
import { fenArgument, NEWEST_MOVES, newestMoveCount, parseFen, parseFenListingMoves, parsedView, parseRelaxedFen, START_FEN } from './fen';
import { playLine, sanLine } from './lines';
import { backend, moveError, TABLES } from './boundary';
import { uciNames, UNNAMED as UNNAMED_NAME } from './uci-names';

export { START_FEN };

/** Options for {@link Position}'s constructor. */
export interface PositionOptions {
  /**
   * Chess960 mode: X-FEN/Shredder-FEN castling rights in the FEN and
   * king-takes-rook castling moves in UCI (e1h1). Default false.
   */
  chess960?: boolean;
}

// Constants the hot paths use, as module-level consts: V8 folds those into
// the compiled code, but not values read from another module's exports
// (comparing with an imported UNNAMED cost legalMoves about 8%).
const BYTES = backend.positionBytes;
const UNNAMED = UNNAMED_NAME;

// Scratch buffers for the native calls; each JS thread has its own module instance.
const MOVES = new Uint16Array(backend.maxMoves);
const MOVES_BUFFER = MOVES.buffer; // what legalMoves passes: an ArrayBuffer is cheaper for the addon to read
const COUNTS = new BigUint64Array(backend.maxMoves);

const { check: CHECK, noMoves: NO_MOVES, insufficient: INSUFFICIENT, fifty: FIFTY } = TABLES.gameStateBits;

// The start position parsed once: `new Position()` copies these bytes.
const START_BYTES = new Uint8Array(BYTES);
parseFen(START_BYTES, START_FEN, false);

function chess960Option(options: unknown): boolean {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError(`options must be an object, got ${describe(options)}`);
  }
  const flag: unknown = (options as PositionOptions).chess960;
  if (flag !== undefined && typeof flag !== 'boolean') {
    throw new TypeError(`options.chess960 must be a boolean, got ${describe(flag)}`);
  }
  return flag === true;
}

function tooLarge(what: string, depth: number, count: bigint, big: string): RangeError {
  return new RangeError(
    `${what}(${depth}) = ${count} exceeds Number.MAX_SAFE_INTEGER and cannot be returned as an exact number; use ${big}(${depth}), which returns a bigint`,
  );
}

// The history of every Position that has none: an array of its own is made
// at the first move (#entries), as most positions never get one. Frozen, so
// a write that skipped #entries throws instead of reaching every position.
const NO_HISTORY: HistoryEntry[] = Object.freeze([]) as unknown as HistoryEntry[];

// Sets a Position's bytes from outside its constructor (relaxedPosition).
let adopt: (pos: Position, bytes: Uint8Array) => void;

/**
 * A chess position with a move history. All state lives in private position
 * bytes that the native engine reads; every method either succeeds or
 * throws with the position unchanged.
 */
export class Position {
  // The position's bytes: the view #bytes, or until #pos() makes it, the
  // positionBytes at #at in #slab, parsed from #fen (see parsedView). #at
  // and #slab stay set when #pos() makes the view (they still name the
  // constructor's position, whose move list legalMoves() may use); #set()
  // clears them.
  #bytes: Uint8Array | null = null;
  #slab: ArrayBuffer = NO_SLAB;
  #at = -1;
  #fen = '';
  #chess960: boolean;
  #history: HistoryEntry[] = NO_HISTORY;

  static {
    adopt = (pos, bytes) => pos.#set(bytes);
  }

  #pos(): Uint8Array {
    return this.#bytes ?? this.#parsed();
  }

  /** The view of the bytes the constructor parsed, made (see #slab). */
  #parsed(): Uint8Array {
    const bytes = (this.#bytes = parsedView(this.#slab, this.#at, this.#fen, this.#chess960));
    this.#fen = ''; // read: not kept alive for nothing
    return bytes;
  }

  #set(bytes: Uint8Array): void {
    this.#bytes = bytes;
    this.#slab = NO_SLAB; // no reference that keeps a slab alive for nothing
    this.#at = -1;
    this.#fen = '';
  }

  /** The history, to be written: its own array from the first write on. */
  #entries(): HistoryEntry[] {
    return this.#history === NO_HISTORY ? (this.#history = []) : this.#history;
  }

  /** The UCI string of `move`, legal here; `names` is uciNames(this.#chess960). */
  #uci(names: string[], move: number): string {
    const uci = names[move] as string;
    return uci !== UNNAMED ? uci : (names[move] = backend.moveToUci(this.#pos(), move));
  }

  /**
   * @param fen 6-field FEN or 4-field EPD; default: the standard start position.
   * @throws {TypeError} when `fen` is given and is not a string.
   * @throws {FenError} when the FEN is invalid; `field` names the field.
   */
  constructor(fen?: string, options?: PositionOptions) {
    // The common cases (no options, a FEN string) are tested here, not in a
    // call: this constructor is the hot path of `new Position(fen)`.
    const chess960 = options === undefined ? false : chess960Option(options);
    this.#chess960 = chess960;
    if (fen === undefined && !chess960) {
      this.#set(copyBytes(START_BYTES));
      return;
    }
    const text = typeof fen === 'string' ? fen : fenArgument(fen);
    const at = parseFenListingMoves(text, chess960);
    // The view is made when first needed (#pos): most positions made from
    // a FEN are asked for their moves first, which the parse has listed.
    this.#slab = currentSlab();
    this.#at = at;
    this.#fen = text;
  }

  /** Canonical FEN of the position. */
  fen(): string {
    return backend.fen(this.#pos());
  }

  /**
   * The position as EPD: the first four fields of {@link fen} (placement, side
   * to move, castling, en passant), without the move clocks. As python-chess's
   * `board.epd()` with no operations.
   */
  epd(): string {
    return backend.epd(this.#pos());
  }

  /** Side to move. */
  turn(): 'w' | 'b' {
    return backend.turn(this.#pos()) === TABLES.colors.white ? 'w' : 'b';
  }

  /** The fullmove number: 1 at the start, one more after each Black move (as chess.js's moveNumber). */
  moveNumber(): number {
    return backend.moveNumber(this.#pos());
  }

  /** Whether the side to move is in check. */
  inCheck(): boolean {
    return backend.inCheck(this.#pos()) === 1;
  }

  /** Whether the position was created in Chess960 mode. */
  get chess960(): boolean {
    return this.#chess960;
  }

  /**
   * Legal moves in UCI, sorted ascending (string order). Castling is e1g1 in
   * standard mode (e1h1 in Chess960 mode); promotions end with q, r, b or n.
   */
  legalMoves(): string[] {
    let moves = NEWEST_MOVES;
    let n = newestMoveCount(this.#slab, this.#at);
    if (n < 0) {
      moves = MOVES;
      n = backend.legalMoves(this.#pos(), MOVES_BUFFER);
    }
    const names = uciNames(this.#chess960);
    // Sized up front: growing by push is a measurable share of this call.
    const out = new Array<string>(n);
    for (let i = 0; i < n; i++) {
      // #uci written out: a method call per move costs this call about 8%.
      const move = moves[i] as number;
      let uci = names[move] as string;
      if (uci === UNNAMED) uci = names[move] = backend.moveToUci(this.#pos(), move);
      out[i] = uci;
    }
    return out;
  }

  /**
   * Whether `uci` is a legal move here; false for any malformed string.
   * @throws {TypeError} when `uci` is not a string.
   */
  isLegal(uci: string): boolean {
    checkMove(uci);
    return backend.isLegal(this.#pos(), uci) === 1;
  }

  /**
   * Plays a move given in UCI.
   * @throws {TypeError} when `uci` is not a string.
   * @throws {IllegalMoveError} when it is malformed or illegal (the position is unchanged).
   */
  play(uci: string): this {
    return this.#play(uci, 'UCI');
  }

  /**
   * Plays a move given in SAN (see {@link parseSan} for the forms accepted).
   * @throws {TypeError} when `san` is not a string.
   * @throws {IllegalMoveError} when it is malformed, illegal or ambiguous (the position is unchanged).
   */
  playSan(san: string): this {
    return this.#play(san, 'SAN');
  }

  #play(move: unknown, notation: Notation): this {
    checkMove(move);
    const before = this.#pos();
    const after = allocBytes();
    let value: number;
    try {
      value = notation === 'UCI' ? backend.play(before, move, after) : backend.playSan(before, move, after);
    } catch (e) {
      return moveError(e, move, notation, before);
    }
    this.#entries().push({ bytes: before, at: 0, uci: this.#uci(uciNames(this.#chess960), value) });
    this.#set(after);
    return this;
  }

  /** Takes back the last move played; returns it in UCI, or null when there is no history. */
  undo(): string | null {
    if (this.#history.length === 0) return null;
    const last = this.#history.pop() as HistoryEntry;
    this.#set(positionView(last.bytes, last.at));
    return last.uci;
  }

  /** The FEN the history starts from (the position's own FEN when it has no history). */
  startFen(): string {
    const first = this.#history[0];
    return first ? backend.fen(positionView(first.bytes, first.at)) : this.fen();
  }

  /** The moves played on this position so far, in UCI, oldest first. */
  history(): string[] {
    return this.#history.map((entry) => entry.uci);
  }

  // --- SAN ------------------------------------------------------------------

  /**
   * The SAN of a legal move given in UCI, as chess.js writes it: minimal
   * disambiguation, `x` for captures, `=Q` promotions, `O-O`/`O-O-O`, and a
   * `+` or `#` suffix.
   * @throws {TypeError} when `uci` is not a string.
   * @throws {IllegalMoveError} when it is malformed or illegal.
   */
  san(uci: string): string {
    checkMove(uci);
    try {
      return backend.san(this.#pos(), uci);
    } catch (e) {
      return moveError(e, uci, 'UCI', this.#pos());
    }
  }

  /**
   * The legal move a SAN string names, in UCI. Accepts PGN forms: `0-0`,
   * `O-O+`, `e8=Q`, `e8Q`, `Nbd7`, `N1d7`, `exd6`, `exd6 e.p.`, and one
   * trailing annotation (`! ? !! ?? !? ?!`). The capture and check marks are
   * not checked against the position.
   * @throws {TypeError} when `san` is not a string.
   * @throws {IllegalMoveError} when it is malformed, illegal or ambiguous.
   */
  parseSan(san: string): string {
    checkMove(san);
    let move: number;
    try {
      move = backend.parseSan(this.#pos(), san);
    } catch (e) {
      return moveError(e, san, 'SAN', this.#pos());
    }
    return this.#uci(uciNames(this.#chess960), move);
  }

  /**
   * SAN of every legal move, in the order of {@link legalMoves} (so
   * `legalMovesSan()[i]` is the SAN of `legalMoves()[i]`). One native call
   * formats the whole list.
   */
  legalMovesSan(): string[] {
    const text = backend.legalMovesSan(this.#pos(), MOVES);
    return text === '' ? [] : text.split(' ');
  }

  // --- lines of moves (lines.ts) ----------------------------------------

  /**
   * Plays a line of UCI moves in one go, as {@link play} would one by one
   * (each move gets its own history entry, so {@link undo} takes them back
   * one at a time), but with one native call per 256 moves.
   *
   * `ucis` is an array with one UCI move per element, or a string of UCI
   * moves separated by whitespace (`'e2e4 e7e5 g1f3'`).
   *
   * All or nothing: when a move is malformed or illegal, nothing is played
   * and an {@link IllegalMoveError} names the move and its ply in the line
   * (`index`, 0-based).
   * @throws {TypeError} when `ucis` is not a string or an array of strings.
   */
  playLine(ucis: readonly string[] | string): this {
    this.#set(playLine(this.#pos(), ucis, 'UCI', 'ucis', uciNames(this.#chess960), this.#entries()));
    return this;
  }

  /**
   * Plays a line of SAN moves in one go, as {@link playSan} would one by one
   * (one history entry per move), with one native call per 256 moves.
   *
   * `sans` is an array with one SAN move per element (each as
   * {@link parseSan} accepts it), or a string such as a pasted PGN movetext
   * line: moves separated by whitespace; move numbers (`1.` `1...` `12.`,
   * also glued to the move: `1.e4`) are skipped; an `e.p.` after an
   * en-passant capture is allowed; a final result token (`1-0`, `0-1`,
   * `1/2-1/2`, `*`) ends the line. Comments (`{...}`, `;`), NAGs (`$1`) and
   * variations (`(...)`) are not accepted: strip them first.
   *
   * All or nothing: when a move is malformed, illegal or ambiguous, nothing
   * is played and an {@link IllegalMoveError} names the move and its ply in
   * the line (`index`, 0-based; move numbers do not count).
   * @throws {TypeError} when `sans` is not a string or an array of strings.
   */
  playSanLine(sans: readonly string[] | string): this {
    this.#set(playLine(this.#pos(), sans, 'SAN', 'sans', uciNames(this.#chess960), this.#entries()));
    return this;
  }

  /**
   * The SAN of each move of a line of UCI moves played from this position
   * (the position itself does not change): `['e2e4', 'e7e5']` or
   * `'e2e4 e7e5'` gives `['e4', 'e5']`. One native call per 256 moves.
   * @throws {TypeError} when `ucis` is not a string or an array of strings.
   * @throws {IllegalMoveError} naming the first malformed or illegal move and its `index`.
   */
  sanLine(ucis: readonly string[] | string): string[] {
    return sanLine(this.#pos(), ucis);
  }

  // --- game status (chess.js semantics) -------------------------------------

  /** The side to move is in check and has no legal move. */
  isCheckmate(): boolean {
    return (backend.gameState(this.#pos()) & (CHECK | NO_MOVES)) === (CHECK | NO_MOVES);
  }

  /** The side to move is not in check and has no legal move. */
  isStalemate(): boolean {
    return (backend.gameState(this.#pos()) & (CHECK | NO_MOVES)) === NO_MOVES;
  }

  /**
   * chess.js's rule: K v K, K+N v K, K+B v K, or kings and bishops only with
   * every bishop (of either side) on squares of one colour.
   */
  isInsufficientMaterial(): boolean {
    return (backend.gameState(this.#pos()) & INSUFFICIENT) !== 0;
  }

  /** The halfmove clock has reached 100 (fifty moves by each side without a capture or pawn move). */
  isFiftyMoves(): boolean {
    return (backend.gameState(this.#pos()) & FIFTY) !== 0;
  }

  /**
   * The current position has occurred at least three times in this object's
   * history (from the FEN it was created with, through {@link play} /
   * {@link playSan}, minus {@link undo}). Positions are the same when their
   * Polyglot keys are: same pieces on the same squares, side to move,
   * castling rights, and en-passant square when a pawn could capture there.
   */
  isThreefoldRepetition(): boolean {
    const current = this.#pos();
    const history = this.#history;
    let count = 1;
    // Only positions with the same side to move can match: every second one.
    for (let i = history.length - 2; i >= 0; i -= 2) {
      const entry = history[i] as HistoryEntry;
      if (sameKey(entry.bytes, entry.at, current) && ++count >= 3) return true;
    }
    return false;
  }

  /** Fifty moves, stalemate, insufficient material or threefold repetition (as chess.js's isDraw). */
  isDraw(): boolean {
    const state = backend.gameState(this.#pos());
    return (state & (FIFTY | INSUFFICIENT)) !== 0 || (state & (CHECK | NO_MOVES)) === NO_MOVES || this.isThreefoldRepetition();
  }

  /** Checkmate or a draw (as chess.js's isGameOver). */
  isGameOver(): boolean {
    const state = backend.gameState(this.#pos());
    return (state & (NO_MOVES | FIFTY | INSUFFICIENT)) !== 0 || this.isThreefoldRepetition();
  }

  /**
   * The Polyglot Zobrist key of the position (the key opening books use),
   * kept up to date by every move rather than recomputed. It counts the
   * en-passant square only when a pawn of the side to move stands beside the
   * pawn that just advanced two squares (Polyglot's rule), even if that
   * capture is illegal; FEN shows the square only when the capture is legal.
   */
  hash(): bigint {
    return backend.hash(this.#pos());
  }

  // --- board queries (board.ts) -------------------------------------------

  /**
   * The piece on a square, or null.
   * @throws {TypeError} / {RangeError} unless `square` is a name a1..h8.
   */
  pieceAt(square: string): Piece | null {
    return pieceAt(this.#pos(), square);
  }

  /**
   * The board as 8 rows of 8, rank 8 first and file a first in each row
   * (as chess.js's board()): `{ square, type, color }` or null.
   */
  board(): (BoardPiece | null)[][] {
    return boardRows(this.#pos());
  }

  /**
   * The legal moves (UCI, sorted) of the piece on `square`; [] for an empty
   * square or a piece of the side not to move.
   * @throws {TypeError} / {RangeError} unless `square` is a name a1..h8.
   */
  movesFrom(square: string): string[] {
    squareIndex(square);
    return this.legalMoves().filter((uci) => uci.startsWith(square));
  }

  /**
   * Squares of `color`'s pieces that attack `square` (default: the side to
   * move), in chess.js's order (rank 8 first, file a first). Attacks are
   * pseudo-legal, as chess.js's attackers(): pinned pieces count, a piece on
   * `square` itself does not, and any piece blocks a slider.
   * @throws {TypeError} / {RangeError} for a bad square or colour.
   */
  attackers(square: string, color?: Color): string[] {
    return attackerSquares(this.#pos(), square, color);
  }

  // --- perft ------------------------------------------------------------------

  /**
   * Number of leaf nodes of the legal move tree at `depth` (perft; 0 -> 1).
   * @throws {RangeError} unless depth is an integer 0..20, or when the count
   * exceeds Number.MAX_SAFE_INTEGER (use {@link perftBig} for those).
   */
  perft(depth: number): number {
    checkDepth(depth);
    const count = backend.perft(this.#pos(), depth);
    if (typeof count === 'bigint') throw tooLarge('perft', depth, count, 'perftBig');
    return count;
  }

  /** Like {@link perft}, always exact as a bigint, for counts of any size. */
  perftBig(depth: number): bigint {
    checkDepth(depth);
    return BigInt(backend.perft(this.#pos(), depth));
  }

  /**
   * Perft per root move: `{ uci: count }` with keys in ascending order. Depth 0
   * gives `{}` (no move is played at depth 0).
   * @throws {RangeError} as {@link perft}.
   */
  divide(depth: number): Record<string, number> {
    const result: Record<string, number> = {};
    for (const [uci, count] of this.#divide(depth)) {
      if (count > BigInt(Number.MAX_SAFE_INTEGER)) throw tooLarge('divide', depth, count, 'divideBig');
      result[uci] = Number(count);
    }
    return result;
  }

  /** Like {@link divide}, with exact bigint counts of any size. */
  divideBig(depth: number): Record<string, bigint> {
    const result: Record<string, bigint> = {};
    for (const [uci, count] of this.#divide(depth)) result[uci] = count;
    return result;
  }

  /** The root moves' counts, sorted by UCI string. */
  #divide(depth: number): [string, bigint][] {
    checkDepth(depth);
    if (depth === 0) return [];
    const n = backend.divide(this.#pos(), depth, MOVES, COUNTS);
    const names = uciNames(this.#chess960);
    const entries: [string, bigint][] = [];
    for (let i = 0; i < n; i++) entries.push([this.#uci(names, MOVES[i] as number), COUNTS[i] as bigint]);
    return entries.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  }

  /** An independent copy, including the move history (undo works on each separately). */
  clone(): Position {
    const copy = new Position();
    copy.#chess960 = this.#chess960;
    // Position bytes are never written after creation, so they can be shared.
    copy.#bytes = this.#bytes;
    copy.#slab = this.#slab;
    copy.#at = this.#at;
    copy.#fen = this.#fen;
    copy.#history = this.#history.length === 0 ? NO_HISTORY : this.#history.slice();
    return copy;
  }
}

/**
 * A relaxed position (see parseRelaxedFen): chess.js's rules for the
 * positions it accepts and the strict parser refuses. For
 * chess-native/chessjs; not exported by the package's main entry.
 */
export function relaxedPosition(fen: string, whiteKing: number, blackKing: number): Position {
  const bytes = allocBytes();
  parseRelaxedFen(bytes, fen, whiteKing, blackKing);
  const pos = new Position();
  adopt(pos, bytes);
  return pos;
}
