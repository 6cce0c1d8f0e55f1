import { FenError, IllegalMoveError, type FenField } from './errors';
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

function allocBytes(): Uint8Array {
  if (slabUsed === SLAB_BYTES) {
    slab = new ArrayBuffer(SLAB_BYTES);
    slabUsed = 0;
  }
  const view = new Uint8Array(slab, slabUsed, BYTES);
  slabUsed += BYTES;
  return view;
}

function copyBytes(src: Uint8Array): Uint8Array {
  const view = allocBytes();
  view.set(src);
  return view;
}

// The start position parsed once: `new Position()` copies these bytes.
const START_BYTES = new Uint8Array(BYTES);
native.fenParse(START_BYTES, START_FEN, false);

function checkDepth(depth: unknown): asserts depth is number {
  if (typeof depth !== 'number' || !Number.isInteger(depth) || depth < 0 || depth > MAX_DEPTH) {
    throw new RangeError(`depth must be an integer from 0 to ${MAX_DEPTH}, got ${describe(depth)}`);
  }
}

function checkMove(uci: unknown): asserts uci is string {
  if (typeof uci !== 'string') throw new TypeError(`move must be a string, got ${describe(uci)}`);
}

function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'bigint') return `${value}n`;
  if (value === null) return 'null';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'function') return 'a function';
  return String(value);
}

function tooLarge(what: string, depth: number, count: bigint, big: string): RangeError {
  return new RangeError(
    `${what}(${depth}) = ${count} exceeds Number.MAX_SAFE_INTEGER and cannot be returned as an exact number; use ${big}(${depth}), which returns a bigint`,
  );
}

interface HistoryEntry {
  readonly before: Uint8Array;
  readonly uci: string;
}

/**
 * A chess position with a move history. All state lives in a private byte
 * buffer that the native engine reads and writes; every method either
 * succeeds or throws with the position unchanged.
 */
export class Position {
  #bytes: Uint8Array;
  #chess960: boolean;
  #history: HistoryEntry[] = [];

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
      this.#bytes = copyBytes(START_BYTES);
      return;
    }
    const text: unknown = fen === undefined ? START_FEN : fen;
    if (typeof text !== 'string') throw new TypeError(`FEN must be a string, got ${describe(text)}`);
    const bytes = allocBytes();
    try {
      native.fenParse(bytes, text, chess960);
    } catch (e) {
      if (isNativeError(e, 'CN_ERR_FEN')) throw new FenError(e.field as FenField, e.message);
      throw e;
    }
    this.#bytes = bytes;
  }

  /** Canonical FEN of the position. */
  fen(): string {
    return native.fen(this.#bytes);
  }

  /** Side to move. */
  turn(): 'w' | 'b' {
    return native.turn(this.#bytes) === 0 ? 'w' : 'b';
  }

  /** Whether the side to move is in check. */
  inCheck(): boolean {
    return native.inCheck(this.#bytes);
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
    const n = native.legalMoves(this.#bytes, MOVES);
    const cache = uciCache(this.#chess960);
    const out: string[] = [];
    for (let i = 0; i < n; i++) {
      const move = MOVES[i] as number;
      let uci = cache[move] as string;
      if (uci === EMPTY) uci = cache[move] = native.moveToUci(this.#bytes, move);
      out.push(uci);
    }
    return out;
  }

  /**
   * Whether `uci` is a legal move here; false for any malformed string.
   * @throws {TypeError} when `uci` is not a string.
   */
  isLegal(uci: string): boolean {
    checkMove(uci);
    return native.isLegal(this.#bytes, uci);
  }

  /**
   * Plays a move given in UCI.
   * @throws {TypeError} when `uci` is not a string.
   * @throws {IllegalMoveError} when it is malformed or illegal (the position is unchanged).
   */
  play(uci: string): this {
    checkMove(uci);
    // Buffers are never written after they are stored (history and clones
    // share them), so the move is made on a fresh copy.
    const before = this.#bytes;
    const after = copyBytes(before);
    let move: number;
    try {
      move = native.play(after, uci);
    } catch (e) {
      if (isNativeError(e, 'CN_ERR_ILLEGAL_MOVE')) {
        throw new IllegalMoveError(uci, `illegal move ${JSON.stringify(uci)} in ${this.fen()}`);
      }
      if (isNativeError(e, 'CN_ERR_BAD_MOVE')) {
        throw new IllegalMoveError(uci, `malformed move ${JSON.stringify(uci)}: expected UCI like e2e4 or e7e8q`);
      }
      throw e;
    }
    const cache = uciCache(this.#chess960);
    let canonical = cache[move] as string;
    if (canonical === EMPTY) canonical = cache[move] = native.moveToUci(before, move);
    this.#history.push({ before, uci: canonical });
    this.#bytes = after;
    return this;
  }

  /** Takes back the last move played; returns it in UCI, or null when there is no history. */
  undo(): string | null {
    const last = this.#history.pop();
    if (last === undefined) return null;
    this.#bytes = last.before;
    return last.uci;
  }

  /** The moves played on this position so far, in UCI, oldest first. */
  history(): string[] {
    return this.#history.map((entry) => entry.uci);
  }

  /**
   * Number of leaf nodes of the legal move tree at `depth` (perft; 0 -> 1).
   * @throws {RangeError} unless depth is an integer 0..20, or when the count
   * exceeds Number.MAX_SAFE_INTEGER (use {@link perftBig} for those).
   */
  perft(depth: number): number {
    checkDepth(depth);
    const count = native.perft(this.#bytes, depth);
    if (typeof count === 'bigint') throw tooLarge('perft', depth, count, 'perftBig');
    return count;
  }

  /** Like {@link perft}, always exact as a bigint, for counts of any size. */
  perftBig(depth: number): bigint {
    checkDepth(depth);
    return BigInt(native.perft(this.#bytes, depth));
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
    const n = native.divide(this.#bytes, depth, MOVES, COUNTS);
    const cache = uciCache(this.#chess960);
    const entries: [string, bigint][] = [];
    for (let i = 0; i < n; i++) {
      const move = MOVES[i] as number;
      let uci = cache[move] as string;
      if (uci === EMPTY) uci = cache[move] = native.moveToUci(this.#bytes, move);
      entries.push([uci, COUNTS[i] as bigint]);
    }
    return entries.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  }

  /** An independent copy, including the move history (undo works on each separately). */
  clone(): Position {
    const copy = new Position();
    copy.#chess960 = this.#chess960;
    copy.#bytes = this.#bytes; // never written after creation, so it can be shared
    copy.#history = this.#history.slice();
    return copy;
  }
}
