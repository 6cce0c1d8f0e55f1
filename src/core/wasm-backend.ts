// The wasm backend: the Backend interface of ./boundary implemented on
// wasm/chess-native.wasm, doing in TypeScript what csrc/binding/ does in C++
// over the same engine C API: positions are copied into the module's memory
// and validated, results copied out, arguments checked with the binding's
// errors, engine statuses thrown as Errors whose `code` is the C name.
// Perft jobs run on worker threads (./wasm/jobs).
import type { Backend, BoundaryTables, PgnParts } from './boundary';
import { arrayArg, arrayArgOrThrow, integerArg, rangeError, shortString, typeError, viewBytes } from './wasm/args';
import { compileModule, Engine, engineEnv, latin1, statusError, type CompiledModule } from './wasm/instance';
import { WasmJobs } from './wasm/jobs';
import type { Layout } from './wasm/layout';

const POSITION_MESSAGE = 'position must be an ArrayBufferView of positionBytes bytes';
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** A count as a number when it is exact in a double, else as a bigint (the binding's Count). */
function count(value: bigint): number | bigint {
  return value <= MAX_SAFE ? Number(value) : value;
}

/** The Native surface over one engine instance. */
class WasmNative {
  readonly #e: Engine;
  readonly #jobs: WasmJobs;
  readonly #names = new Map<number, string>();
  /** The module's own cn_boundary_tables(): the slots of the arrays it fills, by name. */
  readonly tables: BoundaryTables;
  /** The module's struct layout and scratch slots (read once, at instantiate). */
  readonly layout: Layout;

  constructor(engine: Engine, module: CompiledModule) {
    this.#e = engine;
    this.tables = engine.tables;
    this.layout = engine.layout;
    this.#parsedOwners = new Array<ArrayBuffer | null>(this.layout.PARSED_POSITIONS).fill(null);
    this.#parsedAt = new Int32Array(this.layout.PARSED_POSITIONS);
    this.#jobs = new WasmJobs(engine, module, this.tables, (status, message) => this.status(status, message));
    // A new instance's memory holds none of the parsed positions: asked for, they are parsed again.
    engine.beforeRestart = () => this.#parsedOwners.fill(null);
  }

  /** The C name of a status (cn_status_name), cached. */
  name(status: number): string {
    let name = this.#names.get(status);
    if (name === undefined) this.#names.set(status, (name = this.#e.statusName(status)));
    return name;
  }

  status(status: number, message: string): Error {
    return statusError(this.name(status), message);
  }

  #at(slot: number): number {
    return this.#e.scratch + slot;
  }

  /** Views of the pos slot's bytes and the moves slot's words in the current memory: made again only after growth or a trap. */
  readonly #slots = viewCache((memory: Uint8Array) => ({
    pos: new Uint8Array(memory.buffer, this.#at(this.layout.Slot.pos), this.layout.POSITION_BYTES),
    moves: new Uint16Array(memory.buffer, this.#at(this.layout.Slot.moves), this.layout.MAX_MOVES),
  }));

  /** The pos slot's bytes (see #slots). */
  posBytes(): Uint8Array {
    return this.#slots(this.#e.u8).pos;
  }

  /** The sorted legal moves of the position at `pos` (cn_legal_moves_sorted) into `out`; their count. */
  legalMovesInto(pos: number, out: Uint16Array): number {
    const e = this.#e;
    let n: number;
    try {
      // Called directly, as on every hot path here: no name lookup or argument array a call.
      n = e.exports.cn_legal_moves_sorted!(pos, this.#at(this.layout.Slot.moves)) as number;
    } catch (error) {
      throw e.trapped('cn_legal_moves_sorted', error);
    }
    const moves = this.#slots(e.u8).moves;
    for (let i = 0; i < n; i++) out[i] = moves[i] as number;
    return n;
  }

  /** Copies a position view into `slot` and validates it (the binding's LoadPosition); returns its address. */
  load(value: unknown, slot: number = this.layout.Slot.pos): number {
    const L = this.layout;
    const bytes = viewBytes(value, L.POSITION_BYTES) ?? typeError(POSITION_MESSAGE);
    const ptr = this.#at(slot);
    const e = this.#e;
    e.u8.set(bytes, ptr);
    let status: number;
    try {
      status = e.exports.cn_position_validate!(ptr) as number;
    } catch (error) {
      throw e.trapped('cn_position_validate', error);
    }
    if (status !== L.Status.ok) {
      throw this.status(L.Status.badPosition, 'position bytes are not a consistent position');
    }
    return ptr;
  }

  /** Writes the position at ptr into a view of positionBytes bytes (TypeError `what` otherwise). */
  store(value: unknown, ptr: number, what: string): void {
    const L = this.layout;
    const out = viewBytes(value, L.POSITION_BYTES) ?? typeError(what);
    out.set(this.#e.u8.subarray(ptr, ptr + L.POSITION_BYTES));
  }

  /** Writes a string argument into the text slot (args.ts shortString); its length, or -1 when longer than maxLength. */
  text(value: unknown, maxLength: number, what: string): number {
    const e = this.#e;
    return shortString(value, maxLength, what, e.u8, e.u32, this.#at(this.layout.Slot.text));
  }

  /** Parses (fen, chess960) into the pos slot; throws a CN_ERR_FEN error with `field` for a bad FEN. */
  parseFen(fen: unknown, chess960: unknown): number {
    const L = this.layout;
    const length = this.text(fen, L.FEN_MAX_LENGTH, 'FEN must be a string');
    if (typeof chess960 !== 'number') typeError('chess960 must be 0 or 1');
    return this.#parse(length, chess960 === 1 ? 1 : 0, -1);
  }

  /** A relaxed position (cn_fen_parse_relaxed; a king square of NO_SQUARE: none) into the pos slot, as parseFen. */
  parseFenRelaxed(fen: unknown, whiteKing: unknown, blackKing: unknown): number {
    const L = this.layout;
    const length = this.text(fen, L.FEN_MAX_LENGTH, 'FEN must be a string');
    const white = integerArg(whiteKing, 'whiteKing', 0, L.NO_SQUARE);
    const black = integerArg(blackKing, 'blackKing', 0, L.NO_SQUARE);
    return this.#parse(length, white, black);
  }

  /**
   * Parses the FEN of `length` bytes in the text slot (-1: too long) into the
   * pos slot: strict with chess960 `a` when `b` is -1, else relaxed with king
   * squares `a` and `b`. The pos slot, or the CN_ERR_FEN error.
   */
  #parse(length: number, a: number, b: number): number {
    const L = this.layout;
    const e = this.#e;
    const pos = this.#at(L.Slot.pos);
    if (length < 0) throw this.#fenError(length);
    const error = this.#clearFenError();
    const name = b < 0 ? 'cn_fen_parse' : 'cn_fen_parse_relaxed';
    let status: number;
    try {
      // Called directly, as on every hot path here: no name lookup or argument array a call.
      status = (
        b < 0
          ? e.exports.cn_fen_parse!(pos, this.#at(L.Slot.text), length, a, error)
          : e.exports.cn_fen_parse_relaxed!(pos, this.#at(L.Slot.text), length, a, b, error)
      ) as number;
    } catch (caught) {
      throw e.trapped(name, caught);
    }
    if (status !== L.Status.ok) throw this.#fenError(length);
    return pos;
  }

  // The positions parseFenListing parsed stay in the module's parsed slot,
  // PARSED_POSITIONS of them, the one for slab offset `at` at index
  // (at / POSITION_BYTES) mod PARSED_POSITIONS: so the newest ones, reserved
  // one after another, are all there. Index k holds the position reserved at
  // #parsedAt[k] in #parsedOwners[k] (null: none). Most positions made from a
  // FEN are only asked for their moves, so most are never copied out: a copy
  // into a new slab's memory was a tenth of `new Position(fen).legalMoves()`.
  readonly #parsedOwners: (ArrayBuffer | null)[];
  readonly #parsedAt: Int32Array;

  /** The index in the parsed slot of the position reserved at byte `at` of its slab. */
  #parsedIndex(at: number): number {
    return (at / this.layout.POSITION_BYTES) & (this.layout.PARSED_POSITIONS - 1);
  }

  /**
   * parseFen and the sorted legal moves in one engine call
   * (cn_fen_parse_moves): the moves into `out`, their count returned; the
   * position stays in the module until settleParsed(slab, at) copies it to
   * `slab` at byte `at`. The hot path of `new Position(fen)`: each view and
   * address is read once.
   */
  parseFenListing(fen: unknown, chess960: unknown, slab: ArrayBuffer, at: number, out: Uint16Array): number {
    const L = this.layout;
    const e = this.#e;
    const base = e.scratch;
    const text = base + L.Slot.text;
    const length = shortString(fen, L.FEN_MAX_LENGTH, 'FEN must be a string', e.u8, e.u32, text);
    if (typeof chess960 !== 'number') typeError('chess960 must be 0 or 1');
    if (length < 0) throw this.#fenError(length);
    const index = this.#parsedIndex(at);
    const owners = this.#parsedOwners;
    owners[index] = null; // its position is written over
    const count = base + L.Slot.int;
    let status: number;
    try {
      // Called directly, as on every hot path here: no name lookup or argument array a call.
      status = e.exports.cn_fen_parse_moves!(
        base + L.Slot.parsed + index * L.POSITION_BYTES,
        text,
        length,
        chess960 === 1 ? 1 : 0,
        base + L.Slot.fenError, // not cleared first: cn_fen_parse fills it in on every error
        base + L.Slot.moves,
        count,
      ) as number;
    } catch (caught) {
      throw e.trapped('cn_fen_parse_moves', caught);
    }
    if (status !== L.Status.ok) throw this.#fenError(length);
    owners[index] = slab;
    this.#parsedAt[index] = at;
    const n = e.u32[count >> 2] as number;
    const moves = this.#slots(e.u8).moves;
    for (let i = 0; i < n; i++) out[i] = moves[i] as number;
    return n;
  }

  /**
   * Copies the position parseFenListing parsed for `slab` at `at` out to
   * there; false when the module no longer holds it (parsed over since).
   */
  settleParsed(slab: ArrayBuffer, at: number): boolean {
    const L = this.layout;
    const index = this.#parsedIndex(at);
    if (this.#parsedOwners[index] !== slab || this.#parsedAt[index] !== at || slab.byteLength === 0) return false;
    const from = this.#e.scratch + L.Slot.parsed + index * L.POSITION_BYTES;
    new Uint8Array(slab, at, L.POSITION_BYTES).set(this.#e.u8.subarray(from, from + L.POSITION_BYTES));
    return true;
  }

  /** The fen error slot, emptied for a parse to fill in. */
  #clearFenError(): number {
    const L = this.layout;
    const e = this.#e;
    const error = this.#at(L.Slot.fenError);
    e.view.setInt32(error + L.FenError.field, 0, true);
    e.u8[error + L.FenError.message] = 0;
    return error;
  }

  /** The CN_ERR_FEN error, with `field`, of a FEN of `length` bytes (-1: too long) the engine refused. */
  #fenError(length: number): Error {
    const L = this.layout;
    const e = this.#e;
    let message: string;
    let field = 0; // CN_FEN_FIELD_COUNT
    if (length < 0) {
      message = `FEN is too long to be valid (more than ${L.FEN_MAX_LENGTH} characters)`;
    } else {
      const error = this.#at(L.Slot.fenError);
      e.u8[error + L.FenError.message + L.FEN_MESSAGE_BYTES - 1] = 0;
      field = e.view.getInt32(error + L.FenError.field, true);
      message = e.readCString(error + L.FenError.message);
    }
    return Object.assign(this.status(L.Status.fen, message), { field: e.readCString(e.call('cn_fen_field_name', field)) });
  }

  /** The legal move a UCI / SAN string names in the position at pos (the binding's ReadMove). */
  readMove(value: unknown, pos: number, san: boolean): number {
    const L = this.layout;
    const e = this.#e;
    const text = this.#at(L.Slot.text);
    const length = this.text(value, san ? L.SAN_LINE_MAX : L.UCI_MAX, 'move must be a string');
    const malformed = san ? 'not a SAN move' : 'not a UCI move';
    if (length < 0) throw this.status(L.Status.badMove, malformed);
    const out = this.#at(L.Slot.int);
    const status = e.call(san ? 'cn_move_from_san' : 'cn_move_from_uci', pos, text, length, out);
    if (status === L.Status.ok) return e.view.getUint16(out, true);
    if (status === L.Status.illegalMove) throw this.status(status, san ? 'illegal or ambiguous move' : 'illegal move');
    throw this.status(L.Status.badMove, malformed);
  }

  /** Plays the move `value` names on a copy of `pos`, into `out`; returns the move (the binding's PlayMove). */
  playMove(posValue: unknown, value: unknown, out: unknown, san: boolean): number {
    const L = this.layout;
    const pos = this.load(posValue);
    const move = this.readMove(value, pos, san);
    this.#e.call('cn_make', pos, move, this.#at(L.Slot.undo));
    this.store(out, pos, 'out must be an ArrayBufferView of positionBytes bytes');
    return move;
  }

  /** The moves at the moves slot. */
  moves(n: number): Uint16Array {
    const L = this.layout;
    const at = this.#at(L.Slot.moves);
    return new Uint16Array(this.#e.u8.buffer, at, n);
  }

  string(ptr: number, length: number): string {
    return latin1(this.#e.u8, ptr, ptr + length);
  }

  /** n SAN strings of the sans slot joined by spaces (the binding's JoinSans). */
  joinSans(n: number): string {
    const L = this.layout;
    const u8 = this.#e.u8;
    const at = this.#at(L.Slot.sans);
    const out: string[] = [];
    for (let i = 0; i < n; i++) {
      const start = at + i * L.SAN_MAX;
      let end = start;
      while (u8[end] !== 0 && end < start + L.SAN_MAX) end++;
      out.push(latin1(u8, start, end));
    }
    return out.join(' ');
  }

  depth(value: unknown): number {
    const L = this.layout;
    return integerArg(value, 'depth', 0, L.MAX_DEPTH);
  }

  /** A line reader over text (copied into the block) at the reader slot (the binding's ReadLine). */
  reader(text: unknown, offset: unknown, format: unknown, extra: number): { reader: number; extraAt: number; format: number } {
    const L = this.layout;
    const bytes = arrayArgOrThrow(text, Uint8Array, 0, 'line text must be a Uint8Array');
    const start = integerArg(offset, 'line offset', 0, bytes.length);
    const mode = integerArg(format, 'line format', 0, 3);
    const e = this.#e;
    const textBytes = (bytes.length + 7) & ~7;
    const block = e.block(textBytes + extra);
    e.u8.set(bytes, block);
    const reader = this.#at(L.Slot.reader);
    const view = e.view;
    view.setUint32(reader + L.Reader.text, block, true);
    view.setUint32(reader + L.Reader.len, bytes.length, true);
    view.setUint32(reader + L.Reader.offset, start, true);
    view.setUint32(reader + L.Reader.format, mode, true);
    view.setUint32(reader + L.Reader.badStart, 0, true);
    view.setUint32(reader + L.Reader.badLen, 0, true);
    return { reader, extraAt: block + textBytes, format: mode };
  }

  /** The line state after a line (the binding's WriteLineState). */
  lineState(value: unknown, status: number): void {
    const L = this.layout;
    const length = this.tables.slotLengths.lineState;
    const state = arrayArgOrThrow(value, Float64Array, length, `line state must be a Float64Array of at least ${length} entries`);
    const view = this.#e.view;
    const reader = this.#at(L.Slot.reader);
    const slot = this.tables.slots.lineState;
    state[slot.status] = status;
    state[slot.offset] = view.getUint32(reader + L.Reader.offset, true);
    state[slot.badStart] = status === L.Status.ok ? 0 : view.getUint32(reader + L.Reader.badStart, true);
    state[slot.badLength] = status === L.Status.ok ? 0 : view.getUint32(reader + L.Reader.badLen, true);
  }

  get engine(): Engine {
    return this.#e;
  }

  get jobs(): WasmJobs {
    return this.#jobs;
  }

  at(slot: number): number {
    return this.#at(slot);
  }
}

/**
 * Views made from the last key asked for (an ArrayBuffer, or the engine's u8
 * view of its memory): the hot paths ask with the same key call after call.
 * Over the memory the key is the view, not its buffer: reading `.buffer` of
 * a view of a wasm memory cost `new Position(fen).legalMoves()` about 9%.
 */
function viewCache<K extends object, T>(make: (key: K) => T): (key: K) => T {
  let last: K | null = null;
  let view: T | null = null;
  return (key) => {
    if (key !== last || view === null) {
      view = make(key);
      last = key;
    }
    return view;
  };
}

/** The position / move calls (csrc/binding/positions.cc, san.cc). */
function positionCalls(w: WasmNative) {
  const e = w.engine;
  const L = w.layout;
  const moveWords = viewCache((buffer: ArrayBuffer) => new Uint16Array(buffer, 0, L.MAX_MOVES));
  return {
    fenParse(out: unknown, fen: unknown, chess960: unknown): void {
      const target = viewBytes(out, L.POSITION_BYTES) ?? typeError(POSITION_MESSAGE);
      w.parseFen(fen, chess960);
      target.set(w.posBytes());
    },
    fenParseRelaxed(out: unknown, fen: unknown, whiteKing: unknown, blackKing: unknown): void {
      const target = viewBytes(out, L.POSITION_BYTES) ?? typeError(POSITION_MESSAGE);
      const pos = w.parseFenRelaxed(fen, whiteKing, blackKing);
      target.set(e.u8.subarray(pos, pos + L.POSITION_BYTES));
    },
    fenParseList(slab: unknown, at: unknown, fen: unknown, chess960: unknown, moves: unknown): number {
      if (
        !(slab instanceof ArrayBuffer) ||
        typeof at !== 'number' ||
        !(at >= 0 && at <= slab.byteLength) ||
        !Number.isInteger(at) ||
        slab.byteLength - at < L.POSITION_BYTES
      ) {
        typeError('fenParseList needs an ArrayBuffer and an offset with positionBytes bytes after it');
      }
      if (!(moves instanceof ArrayBuffer) || moves.byteLength < 2 * L.MAX_MOVES) {
        typeError('moves must be an ArrayBuffer of at least 2 * maxMoves bytes');
      }
      return w.parseFenListing(fen, chess960, slab, at, moveWords(moves));
    },
    settleParsed(slab: ArrayBuffer, at: number): boolean {
      return w.settleParsed(slab, at);
    },
    legalMoves(posValue: unknown, out: unknown): number {
      const pos = w.load(posValue);
      const target =
        out instanceof ArrayBuffer && out.byteLength >= 2 * L.MAX_MOVES
          ? moveWords(out)
          : (arrayArg(out, Uint16Array, L.MAX_MOVES) ??
            typeError('moves must be an ArrayBuffer of at least 2 * maxMoves bytes or a Uint16Array of at least maxMoves entries'));
      return w.legalMovesInto(pos, target);
    },
    fen(posValue: unknown): string {
      const pos = w.load(posValue);
      const text = w.at(L.Slot.text);
      return w.string(text, e.call('cn_fen_write', pos, text, L.FEN_BYTES));
    },
    epd(posValue: unknown): string {
      const pos = w.load(posValue);
      const text = w.at(L.Slot.text);
      return w.string(text, e.call('cn_epd_write', pos, text, L.FEN_BYTES));
    },
    turn(posValue: unknown): 0 | 1 {
      return e.u8[w.load(posValue) + L.SIDE_OFFSET] as 0 | 1;
    },
    moveNumber(posValue: unknown): number {
      return e.view.getUint32(w.load(posValue) + L.FULLMOVE_OFFSET, true);
    },
    playNull(posValue: unknown, out: unknown): void {
      const pos = w.load(posValue);
      if (e.call('cn_pgn_play', pos, 0) !== L.Status.ok) throw w.status(L.Status.illegalMove, 'a null move while in check');
      w.store(out, pos, 'out must be an ArrayBufferView of positionBytes bytes');
    },
    splitTree(root: unknown, ply: unknown, maxUnits: unknown, trackRoots: unknown) {
      return splitTree(w, root, ply, maxUnits, trackRoots);
    },
    inCheck(posValue: unknown): 0 | 1 {
      return e.call('cn_in_check', w.load(posValue)) !== 0 ? 1 : 0;
    },
    moveToUci(posValue: unknown, move: unknown): string {
      const pos = w.load(posValue);
      if (typeof move !== 'number') typeError('move must be a number');
      const n = e.call('cn_legal_moves', pos, w.at(L.Slot.moves));
      if (!w.moves(n).includes(move)) typeError('move is not legal in this position');
      const text = w.at(L.Slot.text);
      return w.string(text, e.call('cn_move_to_uci', pos, move, text));
    },
    isLegal(posValue: unknown, uci: unknown): 0 | 1 {
      const pos = w.load(posValue);
      const text = w.at(L.Slot.text);
      const length = w.text(uci, L.UCI_MAX, 'move must be a string');
      return length >= 0 && e.call('cn_move_from_uci', pos, text, length, w.at(L.Slot.int)) === L.Status.ok ? 1 : 0;
    },
    play: (pos: unknown, uci: unknown, out: unknown): number => w.playMove(pos, uci, out, false),
    hash(posValue: unknown): bigint {
      return e.view.getBigUint64(w.load(posValue) + L.KEY_OFFSET, true);
    },
    gameState(posValue: unknown): number {
      return e.call('cn_game_state', w.load(posValue)) >>> 0;
    },
    board(posValue: unknown, out: unknown): void {
      const pos = w.load(posValue);
      const target = arrayArgOrThrow(out, Uint8Array, 64, 'board must be a Uint8Array of at least 64 entries');
      const color = w.at(L.Slot.int);
      for (let square = 0; square < 64; square++) {
        const type = e.call('cn_piece_on', pos, square, color);
        target[square] = type < 0 ? 0 : 1 + e.view.getInt32(color, true) * 8 + type;
      }
    },
    attackers(posValue: unknown, square: unknown, color: unknown, out: unknown): number {
      const pos = w.load(posValue);
      const sq = integerArg(square, 'square', 0, 63);
      const side = integerArg(color, 'color', 0, 1);
      const target = arrayArgOrThrow(out, Uint8Array, 64, 'attackers needs a Uint8Array of at least 64 entries');
      const set = BigInt.asUintN(64, e.call64('cn_attackers', pos, sq, side));
      let n = 0;
      for (let s = 0; s < 64; s++) if ((set >> BigInt(s)) & 1n) target[n++] = s;
      return n;
    },
    san(posValue: unknown, uci: unknown): string {
      const pos = w.load(posValue);
      const move = w.readMove(uci, pos, false);
      const text = w.at(L.Slot.text);
      return w.string(text, e.call('cn_move_to_san', pos, move, text));
    },
    legalMovesSan(posValue: unknown, out: unknown): string {
      const pos = w.load(posValue);
      const target = arrayArgOrThrow(out, Uint16Array, L.MAX_MOVES, 'moves must be a Uint16Array of at least maxMoves entries');
      const moves = w.at(L.Slot.moves);
      const n = e.call('cn_legal_moves_sorted', pos, moves);
      e.call('cn_moves_to_san', pos, moves, n, w.at(L.Slot.sans));
      target.set(w.moves(n));
      return w.joinSans(n);
    },
    parseSan(posValue: unknown, san: unknown): number {
      const pos = w.load(posValue);
      return w.readMove(san, pos, true);
    },
    playSan: (pos: unknown, san: unknown, out: unknown): number => w.playMove(pos, san, out, true),
  };
}

/** playLine and sanLine (csrc/binding/lines.cc). */
function lineCalls(w: WasmNative) {
  const e = w.engine;
  const L = w.layout;
  return {
    playLine(
      posValue: unknown,
      text: unknown,
      offset: unknown,
      format: unknown,
      positions: unknown,
      moves: unknown,
      ucis: unknown,
      state: unknown,
    ): number {
      const pos = w.load(posValue);
      const bytes = arrayArgOrThrow(text, Uint8Array, 0, 'line text must be a Uint8Array');
      integerArg(offset, 'line offset', 0, bytes.length);
      integerArg(format, 'line format', 0, 3);
      const positionsOut = arrayArgOrThrow(positions, Uint8Array, 0, 'positions must be a Uint8Array');
      const movesOut = arrayArgOrThrow(moves, Uint16Array, 0, 'moves must be a Uint16Array');
      const ucisOut = arrayArgOrThrow(ucis, Uint8Array, 0, 'ucis must be a Uint8Array');
      const room = Math.min(
        Math.floor(positionsOut.length / L.POSITION_BYTES),
        movesOut.length,
        Math.floor(ucisOut.length / L.UCI_RECORD_BYTES),
      );
      if (room < 1 || room > L.LINE_MAX_MOVES) rangeError(`line buffers must have room for 1 to ${L.LINE_MAX_MOVES} moves`);
      const positionsBytes = room * L.POSITION_BYTES;
      const movesBytes = (room * 2 + 7) & ~7;
      const line = w.reader(bytes, offset, format, positionsBytes + movesBytes + room * L.UCI_RECORD_BYTES);
      const positionsAt = line.extraAt;
      const movesAt = positionsAt + positionsBytes;
      const ucisAt = movesAt + movesBytes;
      const status = w.at(L.Slot.int);
      const n = e.call('cn_line_play', pos, line.reader, room, positionsAt, movesAt, ucisAt, 0, status);
      w.lineState(state, e.view.getInt32(status, true));
      const u8 = e.u8;
      positionsOut.set(u8.subarray(positionsAt, positionsAt + n * L.POSITION_BYTES));
      movesOut.set(new Uint16Array(u8.buffer, movesAt, n));
      ucisOut.set(u8.subarray(ucisAt, ucisAt + n * L.UCI_RECORD_BYTES));
      return n;
    },
    sanLine(posValue: unknown, text: unknown, offset: unknown, format: unknown, end: unknown, state: unknown): string {
      const pos = w.load(posValue);
      const line = w.reader(text, offset, format, 0);
      if ((line.format & 1) !== 0) typeError('sanLine reads UCI moves');
      const target = viewBytes(end, L.POSITION_BYTES) ?? typeError('end must be an ArrayBufferView of positionBytes bytes');
      const status = w.at(L.Slot.int);
      const n = e.call('cn_line_play', pos, line.reader, L.SAN_LINE_MOVES, 0, 0, 0, w.at(L.Slot.sans), status);
      w.lineState(state, e.view.getInt32(status, true));
      target.set(e.u8.subarray(pos, pos + L.POSITION_BYTES));
      return w.joinSans(n);
    },
  };
}

/** perft and divide on the calling thread (csrc/binding/perft.cc). */
function perftCalls(w: WasmNative) {
  const e = w.engine;
  const L = w.layout;
  return {
    perft(posValue: unknown, depth: unknown): number | bigint {
      const pos = w.load(posValue);
      return count(BigInt.asUintN(64, e.call64('cn_perft', pos, w.depth(depth))));
    },
    divide(posValue: unknown, depth: unknown, moves: unknown, counts: unknown): number {
      const pos = w.load(posValue);
      const d = w.depth(depth);
      if (d < 1) rangeError('divide depth must be at least 1');
      const movesOut = arrayArg(moves, Uint16Array, L.MAX_MOVES);
      const countsOut = arrayArg(counts, BigUint64Array, L.MAX_MOVES);
      if (!movesOut || !countsOut) typeError('root moves need a Uint16Array and a BigUint64Array of at least maxMoves entries');
      const countsAt = w.at(L.Slot.counts);
      const n = e.call('cn_divide', pos, d, w.at(L.Slot.moves), countsAt);
      movesOut.set(w.moves(n));
      countsOut.set(new BigUint64Array(e.u8.buffer, countsAt, n));
      return n;
    },
  };
}

/** Where pgnReadText cuts a part's ASCII string table, given its records. */
type Cuts = (records: Int32Array) => number[];

/**
 * An ASCII string table of `length` bytes at `strings` in the module's
 * memory as strings: one up to each of `ends` (ascending), then the rest
 * when there is any. Decoded straight from the module's memory, which costs
 * less than copying its bytes out to decode them later; in pieces a game
 * long, which a browser decodes faster than one large string, and which
 * die with their games.
 */
function decodedTable(u8: Uint8Array, strings: number, length: number, ends: number[]): string[] {
  const pieces: string[] = [];
  let from = 0;
  for (const end of ends) {
    const to = Math.min(Math.max(end, from), length);
    pieces.push(Buffer.from(u8.buffer, strings + from, to - from).toString('latin1'));
    from = to;
  }
  if (from < length) pieces.push(Buffer.from(u8.buffer, strings + from, length - from).toString('latin1'));
  return pieces;
}

/** pgnRead / pgnReadAsync (csrc/binding/pgn.cc). */
function pgnCalls(w: WasmNative) {
  const e = w.engine;
  const L = w.layout;
  const stateArg = (stateValue: unknown): Float64Array => {
    const length = w.tables.slotLengths.pgnState;
    const state = arrayArgOrThrow(stateValue, Float64Array, length, `PGN state must be a Float64Array(${length})`);
    const slot = w.tables.slots.pgnState;
    const { mode } = w.tables.pgn;
    const at = (name: keyof typeof slot): number => state[slot[name]] as number;
    if (
      at('mode') < mode.tree ||
      at('mode') > mode.chessjs ||
      at('line') < 1 ||
      at('line') > 4294967295 ||
      at('column') < 0 ||
      at('column') > 4294967295 ||
      at('maxGames') < 0 ||
      !(at('threads') >= 1 && at('threads') <= w.tables.pgn.maxThreads)
    ) {
      rangeError('PGN state out of range');
    }
    return state;
  };
  const input = (text: unknown, stateValue: unknown): { bytes: Uint8Array; state: Float64Array } => {
    const bytes = arrayArg(text, Uint8Array, 0) ?? typeError('PGN text must be a Uint8Array');
    return { bytes, state: stateArg(stateValue) };
  };
  const read = ({ bytes, state }: { bytes: Uint8Array; state: Float64Array }): PgnParts => {
    const block = e.block(bytes.length + 1);
    e.u8.set(bytes, block);
    return readBlock(block, bytes.length, state);
  };
  // The text's UTF-8 encoded in the block itself; a text that is not all
  // ASCII (longer in UTF-8) is encoded on its own first, as pgnRead's.
  const encoder = new TextEncoder();
  const readText = (text: string, state: Float64Array, cuts: Cuts): PgnParts => {
    const block = e.block(text.length + 1);
    const { read: encoded, written } = encoder.encodeInto(text, e.u8.subarray(block, block + text.length));
    if (encoded < text.length) return read({ bytes: Buffer.from(text, 'utf8'), state });
    // Every character took one byte: the text is ASCII, and so its strings.
    return readBlock(block, written, state, written === text.length ? cuts : undefined);
  };
  /**
   * `cuts`: the text is ASCII, so the string tables are too (the reader adds
   * only ASCII of its own), and each is decoded at them (decodedTable);
   * without, they are copied out as bytes.
   */
  const readBlock = (block: number, length: number, state: Float64Array, cuts?: Cuts): PgnParts => {
    const at = w.at(L.Slot.pgnInput);
    e.u8.fill(0, at, at + L.PgnInput.bytes);
    const view = e.view;
    const slot = w.tables.slots.pgnState;
    const { textEnd } = w.tables.pgn;
    const get = (name: keyof typeof slot): number => state[slot[name]] as number;
    view.setUint32(at + L.PgnInput.text, block, true);
    view.setUint32(at + L.PgnInput.length, length, true);
    view.setInt32(at + L.PgnInput.final, get('textEnd') !== textEnd.more ? 1 : 0, true);
    view.setInt32(at + L.PgnInput.cut, get('textEnd') === textEnd.cut ? 1 : 0, true);
    view.setInt32(at + L.PgnInput.mode, Math.trunc(get('mode')), true);
    view.setUint32(at + L.PgnInput.line, get('line'), true);
    view.setUint32(at + L.PgnInput.column, get('column'), true);
    view.setUint32(at + L.PgnInput.maxGames, Math.min(Math.trunc(get('maxGames')), 0xffff_ffff), true);
    const parts = w.at(L.Slot.pgnParts);
    const status = e.call('cn_pgn_read_parts', at, parts, Math.trunc(get('threads')), L.PGN_MIN_BLOCK_BYTES);
    try {
      if (status !== L.Status.ok) throw statusError(w.name(status), 'out of memory reading PGN');
      const result: PgnParts = [];
      let games = 0;
      const first = e.view.getUint32(parts + L.PgnParts.part, true);
      const partCount = e.view.getUint32(parts + L.PgnParts.count, true);
      for (let k = 0; k < partCount; k++) {
        const part = first + k * L.PgnPart.bytes;
        const v = e.view;
        games += v.getUint32(part + L.PgnPart.games, true);
        const records = v.getUint32(part + L.PgnPart.records, true);
        const recordCount = v.getUint32(part + L.PgnPart.recordCount, true);
        if (!recordCount) continue;
        const strings = v.getUint32(part + L.PgnPart.strings, true);
        const stringLength = v.getUint32(part + L.PgnPart.stringLength, true);
        const u8 = e.u8;
        result.push(Buffer.from(u8.subarray(records, records + recordCount * L.PGN_RECORD_BYTES)));
        result.push(
          cuts
            ? decodedTable(u8, strings, stringLength, cuts(new Int32Array(u8.buffer, records, recordCount * (L.PGN_RECORD_BYTES >> 2))))
            : Buffer.from(u8.subarray(strings, strings + stringLength)),
        );
        result.push(v.getUint32(part + L.PgnPart.lineOffset, true));
      }
      state[slot.line] = e.view.getUint32(at + L.PgnInput.consumedLine, true);
      state[slot.column] = e.view.getUint32(at + L.PgnInput.consumedColumn, true);
      state[slot.consumed] = e.view.getUint32(at + L.PgnInput.consumed, true);
      state[slot.games] = games;
      return result;
    } finally {
      e.call('cn_pgn_parts_free', parts);
    }
  };
  return {
    pgnRead: (text: unknown, state: unknown): PgnParts => read(input(text, state)),
    pgnReadText(text: string, stateValue: unknown, cuts: Cuts): PgnParts {
      if (typeof text !== 'string') typeError('PGN text must be a string');
      if (typeof cuts !== 'function') typeError('cuts must be a function');
      return readText(text, stateArg(stateValue), cuts);
    },
    pgnReadAsync(text: unknown, state: unknown, done: unknown): void {
      const args = input(text, state);
      if (typeof done !== 'function') typeError('callback must be a function');
      const callback = done as (err: Error | null, parts: PgnParts) => void;
      // Read now, deliver on a later turn of the event loop, as the addon's worker does.
      let result: { parts: PgnParts } | { error: Error };
      try {
        result = { parts: read(args) };
      } catch (error) {
        result = { error: error as Error };
      }
      setImmediate(() => ('error' in result ? callback(result.error, []) : callback(null, result.parts)));
    },
  };
}

/** A 128-bit count stored as two words at `ptr`, low first (split.h). */
function count128(view: DataView, ptr: number): bigint {
  return view.getBigUint64(ptr, true) + (view.getBigUint64(ptr + 8, true) << 64n);
}

/** The binding's splitTree (csrc/binding/split.cc) over cn_split_tree; the split is freed however it returns. */
function splitTree(w: WasmNative, rootValue: unknown, plyValue: unknown, maxUnitsValue: unknown, trackValue: unknown) {
  const e = w.engine;
  const L = w.layout;
  const root = w.load(rootValue);
  const ply = w.depth(plyValue);
  const maxUnits = integerArg(maxUnitsValue, 'maxUnits', 0, Number.MAX_SAFE_INTEGER);
  const track = integerArg(trackValue, 'trackRoots', 0, 1);
  const split = e.call('malloc', L.Split.bytes);
  if (!split) throw w.status(L.Status.noMemory, 'out of memory splitting the tree');
  try {
    const status = e.call('cn_split_tree', root, ply, Math.min(maxUnits, 0xffff_ffff), track, split);
    if (status !== L.Status.ok) {
      throw w.status(status, status === L.Status.noMemory ? 'out of memory splitting the tree' : "a unit's count exceeds 2^128 - 1");
    }
    const view = e.view;
    const word = (field: number) => view.getUint32(split + field, true);
    const units = word(L.Split.count);
    const positions = word(L.Split.positions);
    const multiplicities = word(L.Split.multiplicities);
    const fens: string[] = [];
    const counts: bigint[] = [];
    const text = w.at(L.Slot.text);
    for (let u = 0; u < units; u++) {
      fens.push(w.string(text, e.call('cn_fen_write', positions + u * L.POSITION_BYTES, text, L.FEN_BYTES)));
      counts.push(count128(view, multiplicities + 16 * u));
    }
    const rootMoves: string[] = [];
    for (let i = 0; i < word(L.Split.rootMoveCount); i++) {
      const move = view.getUint16(split + L.Split.rootMoves + 2 * i, true);
      rootMoves.push(w.string(text, e.call('cn_move_to_uci', root, move, text)));
    }
    const result = { ply: word(L.Split.ply), fens, multiplicities: counts, rootMoves };
    const firstPtr = word(L.Split.rootFirst);
    if (!firstPtr) return result;
    const rootFirst = new Uint32Array(units + 1);
    for (let u = 0; u <= units; u++) rootFirst[u] = view.getUint32(firstPtr + 4 * u, true);
    const entries = rootFirst[units] as number;
    const roots = new Uint16Array(entries);
    const rootCounts: bigint[] = [];
    for (let j = 0; j < entries; j++) {
      roots[j] = view.getUint16(word(L.Split.roots) + 2 * j, true);
      rootCounts.push(count128(view, word(L.Split.rootCounts) + 16 * j));
    }
    return { ...result, rootFirst, roots, rootCounts };
  } finally {
    e.call('cn_split_free', split);
    e.call('free', split);
  }
}

/** The constants of csrc/binding/constants.cc; the tables are the engine's own cn_boundary_tables(). */
function constants(w: WasmNative) {
  const e = w.engine;
  const L = w.layout;
  const keySetName = (seed: bigint): string => {
    const text = w.at(L.Slot.text);
    return w.string(text, e.call('cn_perft_key_set_name', seed, text, L.KEY_SET_NAME_MAX));
  };
  return {
    version: e.readCString(e.call('cn_version')),
    sliders: e.readCString(e.call('cn_slider_path')) as 'pext' | 'magic',
    impl: e.readCString(e.call('cn_impl_name')),
    initMs: Number(e.call64('cn_init_nanoseconds')) / 1e6,
    napi: 0,
    positionBytes: L.POSITION_BYTES,
    keyOffset: L.KEY_OFFSET,
    maxMoves: L.MAX_MOVES,
    perftKeySet: keySetName(0n),
    perftVerifyKeySet: keySetName(L.PERFT_VERIFY_KEY_SEED),
    perftVerifyKeySeed: L.PERFT_VERIFY_KEY_SEED,
    boundaryTables: e.tablesText,
  };
}

/** Loads the wasm engine and returns the Native surface over it (read-only, as the addon's exports). */
export function loadWasm(engine: Engine = new Engine(compileModule(), engineEnv(process.env))): Backend {
  const w = new WasmNative(engine, engine.module);
  const surface: Backend = {
    ...constants(w),
    ...positionCalls(w),
    ...lineCalls(w),
    ...perftCalls(w),
    ...pgnCalls(w),
    ...w.jobs.calls(),
  };
  return Object.freeze(surface);
}
