import { FenError, IllegalMoveError, describe, type FenField } from './errors';
import { native, isNativeError } from './native';

/** Standard starting position. */
export const START_FEN = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';

/** Options for {@link Position}'s constructor. */
export interface PositionOptions {
  /**
   * Chess960 mode: X-FEN/Shredder-FEN castling rights in the FEN and
   * king-takes-rook castling moves in UCI (e1h1). Default false.
   */
  chess960?: boolean;
}

const MAX_DEPTH = 20;
const BYTES = native.positionBytes;

// Scratch buffers for the native calls; each JS thread has its own module instance.
const MOVES = new Uint16Array(native.maxMoves);
const COUNTS = new BigUint64Array(native.maxMoves);

/** A piece type, as chess.js names it. */
export type PieceType = 'p' | 'n' | 'b' | 'r' | 'q' | 'k';
/** A side, as chess.js names it. */
export type Color = 'w' | 'b';
/** A piece, as {@link Position.pieceAt} returns it. */
export interface Piece {
  type: PieceType;
  color: Color;
}
/** A piece on a square, as {@link Position.board} lists it (the same shape as chess.js's board()). */
export interface BoardPiece extends Piece {
  square: string;
}

const PIECE_TYPES: readonly PieceType[] = ['p', 'n', 'b', 'r', 'q', 'k'];
// Square names by engine index (a1 = 0, h1 = 7, a8 = 56).
const SQUARE_NAMES: readonly string[] = Array.from({ length: 64 }, (_, i) => 'abcdefgh'[i & 7]! + String((i >> 3) + 1));
const BOARD = new Uint8Array(64);
const SQUARES_OUT = new Uint8Array(64);
const KEY_OFFSET = native.keyOffset;
const STATE_CHECK = 1;
const STATE_NO_MOVES = 2;
const STATE_INSUFFICIENT = 4;
const STATE_FIFTY = 8;

/** Engine index of a square name like "e4". */
function squareIndex(square: unknown): number {
  if (typeof square !== 'string') throw new TypeError(`square must be a string, got ${describe(square)}`);
  if (square.length !== 2) throw new RangeError(`not a square name: ${describe(square)} (expected a1..h8)`);
  const file = square.charCodeAt(0) - 97;
  const rank = square.charCodeAt(1) - 49;
  if (file < 0 || file > 7 || rank < 0 || rank > 7) {
    throw new RangeError(`not a square name: ${describe(square)} (expected a1..h8)`);
  }
  return rank * 8 + file;
}

function checkSan(san: unknown): asserts san is string {
  if (typeof san !== 'string') throw new TypeError(`move must be a string, got ${describe(san)}`);
}

/** Maps the binding's move errors onto IllegalMoveError; rethrows anything else. */
function moveError(e: unknown, move: string, fen: string, format: 'UCI' | 'SAN'): never {
  if (isNativeError(e, 'CN_ERR_ILLEGAL_MOVE')) {
    const what = format === 'SAN' ? 'illegal or ambiguous move' : 'illegal move';
    throw new IllegalMoveError(move, `${what} ${JSON.stringify(move)} in ${fen}`);
  }
  if (isNativeError(e, 'CN_ERR_BAD_MOVE')) {
    const example = format === 'SAN' ? 'SAN like e4, Nbd7, exd8=Q or O-O' : 'UCI like e2e4 or e7e8q';
    throw new IllegalMoveError(move, `malformed move ${JSON.stringify(move)}: expected ${example}`);
  }
  throw e;
}

/** Whether the position at byte `at` of `a` and the position view `b` hold the same Polyglot key. */
function sameKey(a: Uint8Array, at: number, b: Uint8Array): boolean {
  for (let i = KEY_OFFSET; i < KEY_OFFSET + 8; i++) if (a[at + i] !== b[i]) return false;
  return true;
}

// UCI strings by 16-bit move value, filled lazily: the string is a pure function
// of the move and the mode (castling is e1g1 in standard chess, e1h1 in Chess960),
// so each distinct move crosses the boundary as a string once per thread. A
// dense 65536-entry array (512 KiB) keeps the lookup a plain indexed load; a
// sparse one would fall back to dictionary mode (about 5x slower).
const EMPTY = '';
const UCI_STANDARD: string[] = new Array<string>(65536).fill(EMPTY);
let UCI_960: string[] | undefined;

function uciCache(chess960: boolean): string[] {
  if (!chess960) return UCI_STANDARD;
  return (UCI_960 ??= new Array<string>(65536).fill(EMPTY));
}

// Position bytes are views into shared slabs: a typed array over 64 bytes gets
// its own off-heap backing store (about 300 ns to allocate), a view into an
// existing ArrayBuffer about 40 ns. A slab is never reused, so views start
// zeroed; it is freed when no view into it remains.
const SLAB_BYTES = BYTES * Math.max(1, Math.floor(4096 / BYTES));
let slab = new ArrayBuffer(SLAB_BYTES);
let slabUsed = 0;

/** The offset in `slab` of a new position's bytes (the slab may be replaced first). */
function reserveBytes(): number {
  if (slabUsed === SLAB_BYTES) {
    slab = new ArrayBuffer(SLAB_BYTES);
    slabUsed = 0;
  }
  const at = slabUsed;
  slabUsed += BYTES;
  return at;
}

/** The slab of a position whose view is not in a slab of its own (#set). */
const NO_SLAB = new ArrayBuffer(0);

function allocBytes(): Uint8Array {
  const at = reserveBytes();
  return new Uint8Array(slab, at, BYTES);
}

function copyBytes(src: Uint8Array): Uint8Array {
  const view = allocBytes();
  view.set(src);
  return view;
}

// The move list of the position the last FEN constructor made: parsing and
// listing in one native call makes `new Position(fen).legalMoves()` cost one
// crossing, not two. Only the constructor writes FIRST_MOVES, and position
// bytes are never written after creation, so the list belongs to whichever
// position still holds exactly the bytes at `firstAt` in `firstSlab`.
const FIRST_MOVES = new Uint16Array(native.maxMoves);
const FIRST_MOVES_BUFFER = FIRST_MOVES.buffer;
let firstSlab: ArrayBuffer | null = null;
let firstAt = -1;
let firstCount = 0;

// The start position parsed once: `new Position()` copies these bytes.
const START_BYTES = new Uint8Array(BYTES);
native.fenParse(START_BYTES, START_FEN, 0);

function checkDepth(depth: unknown): asserts depth is number {
  if (typeof depth !== 'number' || !Number.isInteger(depth) || depth < 0 || depth > MAX_DEPTH) {
    throw new RangeError(`depth must be an integer from 0 to ${MAX_DEPTH}, got ${describe(depth)}`);
  }
}

function checkMove(uci: unknown): asserts uci is string {
  if (typeof uci !== 'string') throw new TypeError(`move must be a string, got ${describe(uci)}`);
}

function tooLarge(what: string, depth: number, count: bigint, big: string): RangeError {
  return new RangeError(
    `${what}(${depth}) = ${count} exceeds Number.MAX_SAFE_INTEGER and cannot be returned as an exact number; use ${big}(${depth}), which returns a bigint`,
  );
}

interface HistoryEntry {
  /**
   * The position before the move: bytes[at, at + positionBytes). A line's
   * entries share the buffer their chunk was played into; the view of one
   * position is made only when it is needed again (undo).
   */
  readonly bytes: Uint8Array;
  readonly at: number;
  readonly uci: string;
}

/** A view of exactly the position at bytes[at] (the array itself when it is one position). */
function positionView(bytes: Uint8Array, at: number): Uint8Array {
  return bytes.length === BYTES ? bytes : bytes.subarray(at, at + BYTES);
}

// --- lines of moves (playLine, playSanLine, sanLine) ---------------------------
//
// A line crosses the boundary as UTF-8 bytes: a string as given (moves
// separated by whitespace), an array joined with '\n' after every element
// (format | LINE_LIST: each element is exactly one move). Moves are played in
// chunks of at most LINE_CHUNK per native call, each chunk into a fresh buffer
// whose 96-byte slices become the history entries' positions (never written
// again, like every stored position).
const LINE_UCI = 0;
const LINE_SAN = 1;
const LINE_LIST = 2;
const LINE_CHUNK = 256;
const LINE_MOVES = new Uint16Array(LINE_CHUNK);
const LINE_UCIS = new Uint8Array(LINE_CHUNK * 6);
const LINE_STATE = new Float64Array(4);
const LINE_ILLEGAL = 2;
const ENCODER = new TextEncoder();
const DECODER = new TextDecoder();

interface LineInput {
  readonly text: Uint8Array;
  readonly format: number;
  /** The array form's elements (null for a string). */
  readonly list: readonly string[] | null;
}

// An all-ASCII array line up to this size is written straight into a reused
// scratch buffer (no joined string, no new buffer); anything else goes
// through TextEncoder.
const LINE_TEXT = new Uint8Array(16384);

function lineInput(line: unknown, san: boolean, what: string): LineInput {
  const format = san ? LINE_SAN : LINE_UCI;
  if (typeof line === 'string') return { text: ENCODER.encode(line), format, list: null };
  if (!Array.isArray(line)) {
    throw new TypeError(`${what} must be a string or an array of strings, got ${describe(line)}`);
  }
  const list = line as readonly unknown[];
  const scratch = LINE_TEXT;
  let n = 0;
  let fits = true;
  for (let i = 0; i < list.length; i++) {
    const move = list[i];
    if (typeof move !== 'string') throw new TypeError(`${what}[${i}] must be a string, got ${describe(move)}`);
    if (!fits) continue;
    const length = move.length;
    if (n + length + 1 > scratch.length) {
      fits = false;
      continue;
    }
    for (let j = 0; j < length; j++) {
      const code = move.charCodeAt(j);
      if (code >= 0x80) fits = false;
      scratch[n++] = code;
    }
    scratch[n++] = 10; // '\n'
  }
  const strings = list as readonly string[];
  const text = fits ? scratch.subarray(0, n) : ENCODER.encode(strings.join('\n') + '\n');
  return { text, format: format | LINE_LIST, list: strings };
}

// The positions a line's moves lead to are written into views of shared
// 64 KiB slabs (one view per chunk of moves), as single positions are into
// allocBytes' slabs: far fewer ArrayBuffers for the GC to track. A slab is
// never reused and is freed once no history entry points into it. Slabs are
// not zero-filled (Buffer.allocUnsafeSlow): the native call writes every
// position a history entry or #bytes will point to, and nothing else of a
// slab is ever read.
const LINE_SLAB_BYTES = 65536;
let lineSlab = Buffer.allocUnsafeSlow(LINE_SLAB_BYTES).buffer;
let lineSlabUsed = 0;

function allocPositions(count: number): Uint8Array {
  const size = count * BYTES;
  if (size > LINE_SLAB_BYTES - lineSlabUsed) {
    if (size > LINE_SLAB_BYTES / 2) return new Uint8Array(size);
    lineSlab = Buffer.allocUnsafeSlow(LINE_SLAB_BYTES).buffer;
    lineSlabUsed = 0;
  }
  const view = new Uint8Array(lineSlab, lineSlabUsed, size);
  lineSlabUsed += size;
  return view;
}

/**
 * In the array form an element holding '\n' reads as more than one move: the
 * index of the first such element, or -1. Only looked at when a line failed
 * or played a different number of moves than it has elements.
 */
function firstSplitElement(list: readonly string[]): number {
  return list.findIndex((move) => move.includes('\n'));
}

function uciFromBytes(bytes: Uint8Array, at: number): string {
  const n = bytes[at + 4] === 0 ? 4 : 5;
  let uci = '';
  for (let i = 0; i < n; i++) uci += String.fromCharCode(bytes[at + i] as number);
  return uci;
}

function shown(move: string): string {
  return move.length > 40 ? `${JSON.stringify(move.slice(0, 40))}...` : JSON.stringify(move);
}

/** The error for the move at `index` of a line, which failed with native status `status`. */
function lineError(move: string, index: number, status: number, fenBefore: () => string, san: boolean): IllegalMoveError {
  const where = `at ply ${index + 1} of the line`;
  if (status === LINE_ILLEGAL) {
    const what = san ? 'illegal or ambiguous move' : 'illegal move';
    return new IllegalMoveError(move, `${what} ${shown(move)} ${where} (index ${index}) in ${fenBefore()}`, index);
  }
  const example = san ? 'SAN like e4, Nbd7, exd8=Q or O-O' : 'UCI like e2e4 or e7e8q';
  return new IllegalMoveError(move, `malformed move ${shown(move)} ${where} (index ${index}): expected ${example}`, index);
}

/** The error for an array element holding '\n' (never a move). */
function splitElementError(list: readonly string[], index: number, san: boolean): IllegalMoveError {
  return lineError(list[index] as string, index, 3, () => '', san);
}

/**
 * A chess position with a move history. All state lives in a private byte
 * buffer that the native engine reads and writes; every method either
 * succeeds or throws with the position unchanged.
 */
export class Position {
  // The position's bytes: the view #bytes, or until #pos() makes it, the
  // positionBytes at #at in #slab. #at and #slab stay set when #pos() makes
  // the view (they still name the constructor's position, whose move list
  // legalMoves() may use); #set() clears them.
  #bytes: Uint8Array | null = null;
  #slab: ArrayBuffer = NO_SLAB;
  #at = -1;
  #chess960: boolean;
  #history: HistoryEntry[] = [];

  #pos(): Uint8Array {
    return this.#bytes ?? (this.#bytes = new Uint8Array(this.#slab, this.#at, BYTES));
  }

  #set(bytes: Uint8Array): void {
    this.#bytes = bytes;
    this.#slab = NO_SLAB; // no reference that keeps a slab alive for nothing
    this.#at = -1;
  }

  /**
   * @param fen 6-field FEN or 4-field EPD; default: the standard start position.
   * @throws {TypeError} when `fen` is given and is not a string.
   * @throws {FenError} when the FEN is invalid; `field` names the field.
   */
  constructor(fen?: string, options?: PositionOptions) {
    let chess960 = false;
    if (options !== undefined) {
      if (typeof options !== 'object' || options === null) {
        throw new TypeError(`options must be an object, got ${describe(options)}`);
      }
      const flag: unknown = options.chess960;
      if (flag !== undefined && typeof flag !== 'boolean') {
        throw new TypeError(`options.chess960 must be a boolean, got ${describe(flag)}`);
      }
      chess960 = flag === true;
    }
    this.#chess960 = chess960;
    if (fen === undefined && !chess960) {
      this.#set(copyBytes(START_BYTES));
      return;
    }
    const text: unknown = fen === undefined ? START_FEN : fen;
    if (typeof text !== 'string') throw new TypeError(`FEN must be a string, got ${describe(text)}`);
    const at = reserveBytes();
    try {
      firstCount = native.fenParseList(slab, at, text, chess960 ? 1 : 0, FIRST_MOVES_BUFFER);
    } catch (e) {
      if (isNativeError(e, 'CN_ERR_FEN')) throw new FenError(e.field as FenField, e.message);
      throw e;
    }
    // The view is made when first needed (#pos): most positions made from
    // a FEN are asked for their moves first, which the list above answers.
    this.#slab = firstSlab = slab;
    this.#at = firstAt = at;
  }

  /** Canonical FEN of the position. */
  fen(): string {
    return native.fen(this.#pos());
  }

  /** Side to move. */
  turn(): 'w' | 'b' {
    return native.turn(this.#pos()) === 0 ? 'w' : 'b';
  }

  /** Whether the side to move is in check. */
  inCheck(): boolean {
    return native.inCheck(this.#pos()) === 1;
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
    let moves = MOVES;
    let n: number;
    if (this.#at === firstAt && this.#slab === firstSlab) {
      moves = FIRST_MOVES;
      n = firstCount;
    } else {
      n = native.legalMoves(this.#pos(), MOVES);
    }
    const cache = uciCache(this.#chess960);
    // Sized up front: growing by push is a measurable share of this call.
    const out = new Array<string>(n);
    for (let i = 0; i < n; i++) {
      const move = moves[i] as number;
      let uci = cache[move] as string;
      if (uci === EMPTY) uci = cache[move] = native.moveToUci(this.#pos(), move);
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
    return native.isLegal(this.#pos(), uci) === 1;
  }

  /**
   * Plays a move given in UCI.
   * @throws {TypeError} when `uci` is not a string.
   * @throws {IllegalMoveError} when it is malformed or illegal (the position is unchanged).
   */
  play(uci: string): this {
    checkMove(uci);
    const before = this.#pos();
    const after = allocBytes();
    let move: number;
    try {
      move = native.play(before, uci, after);
    } catch (e) {
      return moveError(e, uci, this.fen(), 'UCI');
    }
    this.#history.push({ bytes: before, at: 0, uci: this.#uci(before, move) });
    this.#set(after);
    return this;
  }

  /** Takes back the last move played; returns it in UCI, or null when there is no history. */
  undo(): string | null {
    const last = this.#history.pop();
    if (last === undefined) return null;
    this.#set(positionView(last.bytes, last.at));
    return last.uci;
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
      return native.san(this.#pos(), uci);
    } catch (e) {
      return moveError(e, uci, this.fen(), 'UCI');
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
    checkSan(san);
    let move: number;
    try {
      move = native.parseSan(this.#pos(), san);
    } catch (e) {
      return moveError(e, san, this.fen(), 'SAN');
    }
    return this.#uci(this.#pos(), move);
  }

  /**
   * Plays a move given in SAN (see {@link parseSan} for the forms accepted).
   * @throws {TypeError} when `san` is not a string.
   * @throws {IllegalMoveError} when it is malformed, illegal or ambiguous (the position is unchanged).
   */
  playSan(san: string): this {
    checkSan(san);
    const before = this.#pos();
    const after = allocBytes();
    let move: number;
    try {
      move = native.playSan(before, san, after);
    } catch (e) {
      return moveError(e, san, this.fen(), 'SAN');
    }
    this.#history.push({ bytes: before, at: 0, uci: this.#uci(before, move) });
    this.#set(after);
    return this;
  }

  // --- lines of moves ---------------------------------------------------------

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
    return this.#playLine(ucis, false, 'ucis');
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
    return this.#playLine(sans, true, 'sans');
  }

  #playLine(line: unknown, san: boolean, what: string): this {
    const input = lineInput(line, san, what);
    const { text, list } = input;
    const cache = uciCache(this.#chess960);
    // Entries go straight onto the history, which is cut back on failure.
    const history = this.#history;
    const base = history.length;
    // The position before the next move: bytes[at, at + BYTES).
    let bytes = this.#pos();
    let at = 0;
    let offset = 0;
    try {
      while (offset < text.length) {
        // Room for as many moves as can be left (SAN moves take >= 3 bytes with
        // their separator, UCI >= 5), at most one chunk.
        const left = list !== null ? list.length - (history.length - base) : Math.ceil((text.length - offset + 1) / (san ? 3 : 5));
        const room = Math.max(1, Math.min(LINE_CHUNK, left));
        const buffer = allocPositions(room);
        const start = positionView(bytes, at);
        const n = native.playLine(start, text, offset, input.format, buffer, LINE_MOVES, LINE_UCIS, LINE_STATE);
        for (let i = 0; i < n; i++) {
          const move = LINE_MOVES[i] as number;
          let uci = cache[move] as string;
          if (uci === EMPTY) uci = cache[move] = uciFromBytes(LINE_UCIS, i * 6);
          history.push({ bytes, at, uci });
          bytes = buffer;
          at = i * BYTES;
        }
        offset = LINE_STATE[1] as number;
        const status = LINE_STATE[0] as number;
        if (status !== 0) {
          const index = history.length - base;
          history.length = base;
          if (list !== null) {
            const split = firstSplitElement(list);
            if (split !== -1 && split <= index) throw splitElementError(list, split, san);
          }
          const start = LINE_STATE[2] as number;
          const move = list !== null ? (list[index] as string) : DECODER.decode(text.subarray(start, start + (LINE_STATE[3] as number)));
          const failed = positionView(bytes, at);
          throw lineError(move, index, status, () => native.fen(failed), san);
        }
      }
    } catch (e) {
      history.length = base; // all or nothing, whatever failed
      throw e;
    }
    if (list !== null && history.length - base !== list.length) {
      history.length = base;
      throw splitElementError(list, firstSplitElement(list), san);
    }
    this.#set(positionView(bytes, at));
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
    const input = lineInput(ucis, false, 'ucis');
    const { text, list } = input;
    const out: string[] = [];
    const end = allocBytes();
    let pos = this.#pos();
    let offset = 0;
    while (offset < text.length) {
      const sans = native.sanLine(pos, text, offset, input.format, end, LINE_STATE);
      if (sans !== '') for (const san of sans.split(' ')) out.push(san);
      pos = end;
      offset = LINE_STATE[1] as number;
      const status = LINE_STATE[0] as number;
      if (status !== 0) {
        const index = out.length;
        if (list !== null) {
          const split = firstSplitElement(list);
          if (split !== -1 && split <= index) throw splitElementError(list, split, false);
        }
        const start = LINE_STATE[2] as number;
        const move = list !== null ? (list[index] as string) : DECODER.decode(text.subarray(start, start + (LINE_STATE[3] as number)));
        throw lineError(move, index, status, () => native.fen(end), false);
      }
    }
    if (list !== null && out.length !== list.length) throw splitElementError(list, firstSplitElement(list), false);
    return out;
  }

  /**
   * SAN of every legal move, in the order of {@link legalMoves} (so
   * `legalMovesSan()[i]` is the SAN of `legalMoves()[i]`). One native call
   * formats the whole list.
   */
  legalMovesSan(): string[] {
    const text = native.legalMovesSan(this.#pos(), MOVES);
    return text === '' ? [] : text.split(' ');
  }

  #uci(bytes: Uint8Array, move: number): string {
    const cache = uciCache(this.#chess960);
    let uci = cache[move] as string;
    if (uci === EMPTY) uci = cache[move] = native.moveToUci(bytes, move);
    return uci;
  }

  // --- game status (chess.js semantics) -------------------------------------

  /** The side to move is in check and has no legal move. */
  isCheckmate(): boolean {
    const state = native.gameState(this.#pos());
    return (state & (STATE_CHECK | STATE_NO_MOVES)) === (STATE_CHECK | STATE_NO_MOVES);
  }

  /** The side to move is not in check and has no legal move. */
  isStalemate(): boolean {
    return (native.gameState(this.#pos()) & (STATE_CHECK | STATE_NO_MOVES)) === STATE_NO_MOVES;
  }

  /**
   * chess.js's rule: K v K, K+N v K, K+B v K, or kings and bishops only with
   * every bishop (of either side) on squares of one colour.
   */
  isInsufficientMaterial(): boolean {
    return (native.gameState(this.#pos()) & STATE_INSUFFICIENT) !== 0;
  }

  /** The halfmove clock has reached 100 (fifty moves by each side without a capture or pawn move). */
  isFiftyMoves(): boolean {
    return (native.gameState(this.#pos()) & STATE_FIFTY) !== 0;
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
    const state = native.gameState(this.#pos());
    return (
      (state & STATE_FIFTY) !== 0 ||
      (state & (STATE_CHECK | STATE_NO_MOVES)) === STATE_NO_MOVES ||
      (state & STATE_INSUFFICIENT) !== 0 ||
      this.isThreefoldRepetition()
    );
  }

  /** Checkmate or a draw (as chess.js's isGameOver). */
  isGameOver(): boolean {
    const state = native.gameState(this.#pos());
    return (state & STATE_NO_MOVES) !== 0 || (state & (STATE_FIFTY | STATE_INSUFFICIENT)) !== 0 || this.isThreefoldRepetition();
  }

  /**
   * The Polyglot Zobrist key of the position (the key opening books use),
   * kept up to date by every move rather than recomputed. It counts the
   * en-passant square only when a pawn of the side to move stands beside the
   * pawn that just advanced two squares (Polyglot's rule), even if that
   * capture is illegal; FEN shows the square only when the capture is legal.
   */
  hash(): bigint {
    return native.hash(this.#pos());
  }

  // --- board queries ----------------------------------------------------------

  /**
   * The piece on a square, or null.
   * @throws {TypeError} / {RangeError} unless `square` is a name a1..h8.
   */
  pieceAt(square: string): Piece | null {
    const index = squareIndex(square);
    native.board(this.#pos(), BOARD);
    const code = BOARD[index] as number;
    if (code === 0) return null;
    return { type: PIECE_TYPES[(code - 1) & 7] as PieceType, color: code > 8 ? 'b' : 'w' };
  }

  /**
   * The board as 8 rows of 8, rank 8 first and file a first in each row
   * (as chess.js's board()): `{ square, type, color }` or null.
   */
  board(): (BoardPiece | null)[][] {
    native.board(this.#pos(), BOARD);
    const rows: (BoardPiece | null)[][] = [];
    for (let rank = 7; rank >= 0; rank--) {
      const row: (BoardPiece | null)[] = [];
      for (let file = 0; file < 8; file++) {
        const index = rank * 8 + file;
        const code = BOARD[index] as number;
        row.push(
          code === 0
            ? null
            : { square: SQUARE_NAMES[index] as string, type: PIECE_TYPES[(code - 1) & 7] as PieceType, color: code > 8 ? 'b' : 'w' },
        );
      }
      rows.push(row);
    }
    return rows;
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
    const index = squareIndex(square);
    let side: 0 | 1;
    if (color === undefined) side = native.turn(this.#pos());
    else if (color === 'w') side = 0;
    else if (color === 'b') side = 1;
    else throw new TypeError(`color must be 'w' or 'b', got ${describe(color)}`);
    const n = native.attackers(this.#pos(), index, side, SQUARES_OUT);
    const squares: number[] = [];
    for (let i = 0; i < n; i++) squares.push(SQUARES_OUT[i] as number);
    // Rank 8 first, then by file.
    squares.sort((a, b) => (b >> 3) - (a >> 3) || (a & 7) - (b & 7));
    return squares.map((s) => SQUARE_NAMES[s] as string);
  }

  /**
   * Number of leaf nodes of the legal move tree at `depth` (perft; 0 -> 1).
   * @throws {RangeError} unless depth is an integer 0..20, or when the count
   * exceeds Number.MAX_SAFE_INTEGER (use {@link perftBig} for those).
   */
  perft(depth: number): number {
    checkDepth(depth);
    const count = native.perft(this.#pos(), depth);
    if (typeof count === 'bigint') throw tooLarge('perft', depth, count, 'perftBig');
    return count;
  }

  /** Like {@link perft}, always exact as a bigint, for counts of any size. */
  perftBig(depth: number): bigint {
    checkDepth(depth);
    return BigInt(native.perft(this.#pos(), depth));
  }

  /**
   * Perft per root move: `{ uci: count }` with keys in ascending order. Depth 0
   * gives `{}` (no move is played at depth 0).
   * @throws {RangeError} as {@link perft}.
   */
  divide(depth: number): Record<string, number> {
    checkDepth(depth);
    const result: Record<string, number> = {};
    for (const [uci, count] of this.#divide(depth)) {
      if (count > BigInt(Number.MAX_SAFE_INTEGER)) throw tooLarge('divide', depth, count, 'divideBig');
      result[uci] = Number(count);
    }
    return result;
  }

  /** Like {@link divide}, with exact bigint counts of any size. */
  divideBig(depth: number): Record<string, bigint> {
    checkDepth(depth);
    const result: Record<string, bigint> = {};
    for (const [uci, count] of this.#divide(depth)) result[uci] = count;
    return result;
  }

  #divide(depth: number): [string, bigint][] {
    if (depth === 0) return [];
    const n = native.divide(this.#pos(), depth, MOVES, COUNTS);
    const cache = uciCache(this.#chess960);
    const entries: [string, bigint][] = [];
    for (let i = 0; i < n; i++) {
      const move = MOVES[i] as number;
      let uci = cache[move] as string;
      if (uci === EMPTY) uci = cache[move] = native.moveToUci(this.#pos(), move);
      entries.push([uci, COUNTS[i] as bigint]);
    }
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
    copy.#history = this.#history.slice();
    return copy;
  }
}
