// The Chess class: chess.js 1.4.0's API and behaviour on the engine. The
// position lives in an engine Position (legal moves, SAN, check and mate,
// the ep square FEN shows, repetition keys, perft): a strict one where the
// engine's model holds the position as chess.js does, else a relaxed one
// (chess.js's rules for kingless sides, crowded boards, castling rights as
// given: see cn_fen_parse_relaxed). Beside it this class keeps what
// chess.js keeps differently: castling rights as given, the stored
// en-passant square, the clocks, headers and comments.
import { LIMITS } from '../core/boundary';
import { Position } from '../core/index';
import { relaxedPosition } from '../core/position';
import { DEFAULT_POSITION, NAMES, SEVEN_TAG_ROSTER, squareOf, type Color, type Piece, type PieceSymbol, type Square } from './constants';
import { castlingDrift, chessJsHash, nullMoveDrift } from './hash';
import { engineRec, sanAsWritten, sansInOrder, type Rec } from './engine-moves';
import { Move } from './move';
import { readPgnText } from './pgn-load';
import { pgnText } from './pgn-write';
import { cleanMove, permissiveMatch, strippedSan } from './san';
import { applyMove, boardText, CASTLING_TEXT, castlingBits, countersAfter, epText, type Board, type Counters } from './state';
import { validateFenFields } from './validate';

/** A move played, with what undo() restores. */
interface Entry extends Counters {
  rec: Rec;
  /** FENs before and after, filled when first needed. */
  before?: string;
  after?: string;
  /** The Position before a move that replaced it (a null move); null for a side to move chess.js does not know. */
  prevPos?: Position | null;
  /** The board before the move. */
  prevBoard: Board;
  /** Whether the move was played on the engine's Position. */
  onEngine: boolean;
}

const NULL_MOVE: Rec = {
  from: 56,
  to: 56,
  piece: 'k',
  captured: undefined,
  promotion: undefined,
  flags: '-',
  key: 0,
  san: '--',
  uci: '--',
};

/**
 * chess.js's header: the Seven Tag Roster, then the supplemental tags as
 * null placeholders fixing their order. Written out as a literal: built key
 * by key, an object this size is a slow dictionary (a copy took 20 µs).
 */
function headerTemplate(): Record<string, string | null> {
  return {
    Event: '?',
    Site: '?',
    Date: '????.??.??',
    Round: '?',
    White: '?',
    Black: '?',
    Result: '*',
    WhiteTitle: null,
    BlackTitle: null,
    WhiteElo: null,
    BlackElo: null,
    WhiteUSCF: null,
    BlackUSCF: null,
    WhiteNA: null,
    BlackNA: null,
    WhiteType: null,
    BlackType: null,
    EventDate: null,
    EventSponsor: null,
    Section: null,
    Stage: null,
    Board: null,
    Opening: null,
    Variation: null,
    SubVariation: null,
    ECO: null,
    NIC: null,
    Time: null,
    UTCTime: null,
    UTCDate: null,
    TimeControl: null,
    SetUp: null,
    FEN: null,
    Termination: null,
    Annotator: null,
    Mode: null,
    PlyCount: null,
  };
}

function colorOf(letter: string): Color {
  return letter === letter.toLowerCase() ? 'b' : 'w';
}

/** A king square for the engine: -1 (no king) is its no-square. */
function kingSquare(square: number): number {
  return square < 0 ? LIMITS.noSquare : square;
}

/** The engine's limits on the clocks; chess.js's own values are kept beside. */
function clock(value: number, low: number, high: number): number {
  return Number.isInteger(value) ? Math.min(Math.max(value, low), high) : low;
}

export class Chess {
  #pos: Position | null = null;
  /**
   * The board as FEN letters, kept beside #pos (copied on each change): the
   * board queries, captured pieces and edits read it without a native call.
   */
  #board: Board = new Array<string | undefined>(64).fill(undefined);
  #c: Counters = { turn: 'w', castling: 0, ep: -1, half: 0, full: 1, kings: [-1, -1] };
  #history: Entry[] = [];
  #header: Record<string, string | null> = {};
  #comments: Record<string, string> = {};
  #counts = new Map<bigint | string, number>();
  /** What chess.js's hash() has drifted from the position's key by (see hash.ts). */
  #drift = 0n;

  constructor(fen = DEFAULT_POSITION, { skipValidation = false } = {}) {
    this.load(fen, { skipValidation });
  }

  // --- setting up -----------------------------------------------------------

  clear({ preserveHeaders = false } = {}): void {
    this.#board = new Array<string | undefined>(64).fill(undefined);
    this.#pos = null;
    this.#c = { turn: 'w', castling: 0, ep: -1, half: 0, full: 1, kings: [-1, -1] };
    this.#history = [];
    this.#comments = {};
    if (!preserveHeaders) this.#header = headerTemplate();
    this.#counts = new Map();
    this.#drift = 0n;
    this.#header['SetUp'] = null;
    this.#header['FEN'] = null;
  }

  load(fen: string, { skipValidation = false, preserveHeaders = false } = {}): void {
    let tokens = fen.split(/\s+/);
    if (tokens.length >= 2 && tokens.length < 6) {
      fen = tokens.concat(['-', '-', '0', '1'].slice(-(6 - tokens.length))).join(' ');
      tokens = fen.split(/\s+/);
    }
    if (!skipValidation) {
      const { ok, error } = validateFenFields(tokens);
      if (!ok) throw new Error(error);
    }
    this.clear({ preserveHeaders });
    const board = (this.#board = this.#parseBoard(tokens[0] as string));
    this.#c = {
      kings: [board.indexOf('K'), board.indexOf('k')],
      turn: tokens[1] as Color,
      castling: castlingBits(tokens[2] as string),
      ep: tokens[3] === '-' ? -1 : squareOf(tokens[3]),
      half: parseInt(tokens[4] as string, 10),
      full: parseInt(tokens[5] as string, 10),
    };
    this.#updateSetup(fen);
    // A validated board field is already what boardText would write.
    this.#rebuild(skipValidation ? undefined : (tokens[0] as string));
    this.#count(1);
  }

  reset(): void {
    this.load(DEFAULT_POSITION);
  }

  /**
   * The board of a FEN's first field, placed as chess.js's load() does: on
   * its 0x88 board, where a rank with too many squares spills into the
   * invisible half and shifts the ranks after it; a second king of a side
   * is not placed.
   */
  #parseBoard(field: string): Board {
    const board: Board = new Array<string | undefined>(64).fill(undefined);
    let square = 0;
    for (const c of field) {
      if (c === '/') square += 8;
      else if (c >= '0' && c <= '9') square += Number(c);
      else {
        const at = square++;
        if (!'pnbrqkPNBRQK'.includes(c) || at & 0x88 || at > 0x77) continue;
        if ((c === 'K' || c === 'k') && board.includes(c)) continue;
        board[(7 - (at >> 4)) * 8 + (at & 7)] = c;
      }
    }
    return board;
  }

  /** Sets #pos from the board and counters (see #positionOf). */
  #rebuild(text = boardText(this.#board)): void {
    if (this.#history.length > 0) this.#fillFens();
    this.#pos = this.#positionOf(this.#board, this.#c, text);
  }

  /**
   * The engine's position for a board and counters: a strict Position when
   * the engine's model holds it as chess.js does (it drops castling rights
   * whose rook is gone and an en-passant square no pawn can just have
   * passed, which chess.js keeps, and has one king a side where chess.js
   * believes it), else a relaxed one; null for a side to move other than w
   * and b.
   */
  #positionOf(board: Board, c: Counters, text = boardText(board)): Position | null {
    if (c.turn !== 'w' && c.turn !== 'b') return null;
    const castling = CASTLING_TEXT[c.castling] as string;
    const half = clock(c.half, 0, 65535);
    const full = clock(c.full, 1, 4294967295);
    const ep = this.#engineEp(board, c);
    if (
      this.#applicableRights(c.castling, board) === c.castling &&
      (ep !== '-' || c.ep < 0) &&
      c.kings[0] === board.indexOf('K') &&
      c.kings[1] === board.indexOf('k')
    ) {
      try {
        return new Position(`${text} ${c.turn} ${castling} ${ep} ${half} ${full}`);
      } catch {
        // outside the strict model: a relaxed position
      }
    }
    const fen = `${text} ${c.turn} ${castling} ${epText(c.ep)} ${half} ${full}`;
    return relaxedPosition(fen, kingSquare(c.kings[0]), kingSquare(c.kings[1]));
  }

  /** The position for board queries: a side to move chess.js does not know reads as white. */
  #boardPosition(): Position {
    return this.#pos ?? (this.#positionOf(this.#board, { ...this.#c, turn: 'w', ep: -1 }) as Position);
  }

  /** The stored en-passant square when a pawn can just have made it (what the strict engine accepts), else '-'. */
  #engineEp(board: Board, c: Counters): string {
    const ep = c.ep;
    if (ep < 0) return '-';
    const white = c.turn === 'w';
    const pawn = white ? 'p' : 'P';
    const ok =
      ep >> 3 === (white ? 5 : 2) &&
      board[white ? ep - 8 : ep + 8] === pawn &&
      board[ep] === undefined &&
      board[white ? ep + 8 : ep - 8] === undefined;
    return ok ? (NAMES[ep] as string) : '-';
  }

  #updateSetup(fen: string): void {
    if (this.#history.length > 0) return;
    const custom = fen !== DEFAULT_POSITION;
    this.#header['SetUp'] = custom ? '1' : null;
    this.#header['FEN'] = custom ? fen : null;
  }

  // --- FEN and board queries -------------------------------------------------

  fen({ forceEnpassantSquare = false }: { forceEnpassantSquare?: boolean } = {}): string {
    const pos = this.#pos;
    const c = this.#c;
    if (pos !== null) return this.#engineFen(pos.fen(), c, forceEnpassantSquare);
    return `${boardText(this.#board)} ${c.turn} ${CASTLING_TEXT[c.castling]} ${forceEnpassantSquare ? epText(c.ep) : '-'} ${c.half} ${c.full}`;
  }

  /** chess.js's FEN from the engine's: its own castling field, clocks and (forced) en-passant square. */
  #engineFen(engine: string, c: Counters, forceEp: boolean): string {
    const second = engine.indexOf(' ', engine.indexOf(' ') + 1);
    const third = engine.indexOf(' ', second + 1);
    const fourth = engine.indexOf(' ', third + 1);
    const ep = forceEp ? epText(c.ep) : engine.slice(third + 1, fourth);
    return `${engine.slice(0, second)} ${CASTLING_TEXT[c.castling]} ${ep} ${c.half} ${c.full}`;
  }

  /** chess.js's FEN of a board and counters other than the current ones (the engine says whether the en-passant square shows). */
  #fenOf(board: Board, c: Counters): string {
    const text = boardText(board);
    const pos = c.ep >= 0 ? this.#positionOf(board, c, text) : null;
    if (pos !== null) return this.#engineFen(pos.fen(), c, false);
    return `${text} ${c.turn} ${CASTLING_TEXT[c.castling]} - ${c.half} ${c.full}`;
  }

  #letterAt = (square: number): string | undefined => this.#board[square];

  get(square: Square): Piece | undefined {
    const index = squareOf(square);
    if (index < 0) return undefined;
    const letter = this.#letterAt(index);
    return letter === undefined ? undefined : { type: letter.toLowerCase() as PieceSymbol, color: colorOf(letter) };
  }

  findPiece(piece: Piece): Square[] {
    const letter = piece.color === 'w' ? piece.type.toUpperCase() : piece.type;
    const board = this.#board;
    const found: Square[] = [];
    for (let i = 0; i < 64; i++) {
      const square = (7 - (i >> 3)) * 8 + (i & 7);
      if (board[square] === letter && (piece.color === 'w' || piece.color === 'b')) found.push(NAMES[square] as Square);
    }
    return found;
  }

  board(): ({ square: Square; type: PieceSymbol; color: Color } | null)[][] {
    const board = this.#board;
    const rows: ({ square: Square; type: PieceSymbol; color: Color } | null)[][] = [];
    for (let rank = 7; rank >= 0; rank--) {
      const row: ({ square: Square; type: PieceSymbol; color: Color } | null)[] = [];
      for (let file = 0; file < 8; file++) {
        const letter = board[rank * 8 + file];
        row.push(
          letter === undefined
            ? null
            : { square: NAMES[rank * 8 + file] as Square, type: letter.toLowerCase() as PieceSymbol, color: colorOf(letter) },
        );
      }
      rows.push(row);
    }
    return rows;
  }

  ascii(): string {
    const board = this.#board;
    let s = '   +------------------------+\n';
    for (let rank = 7; rank >= 0; rank--) {
      s += ` ${rank + 1} |`;
      for (let file = 0; file < 8; file++) s += ` ${board[rank * 8 + file] ?? '.'} `;
      s += '|\n';
    }
    return s + '   +------------------------+\n     a  b  c  d  e  f  g  h';
  }

  squareColor(square: Square): 'light' | 'dark' | null {
    const index = squareOf(square);
    if (index < 0) return null;
    return ((index >> 3) + (index & 7)) % 2 === 1 ? 'light' : 'dark';
  }

  turn(): Color {
    return this.#c.turn;
  }

  moveNumber(): number {
    return this.#c.full;
  }

  hash(): string {
    const c = this.#c;
    return chessJsHash(this.#board, c.turn === 'b', c.castling, c.ep, this.#drift);
  }

  attackers(square: Square, attackedBy?: Color): Square[] {
    const color = attackedBy || this.#c.turn;
    const index = squareOf(square);
    if (index < 0 || (color !== 'w' && color !== 'b')) return [];
    return this.#boardPosition().attackers(square, color) as Square[];
  }

  isAttacked(square: Square, attackedBy: Color): boolean {
    return (attackedBy === 'w' || attackedBy === 'b') && this.attackers(square, attackedBy).length > 0;
  }

  // --- editing the board -----------------------------------------------------

  put({ type, color }: { type: PieceSymbol; color: Color }, square: Square): boolean {
    const lower = type.toLowerCase();
    const index = squareOf(square);
    if (!'pnbrqk'.includes(lower) || lower.length !== 1 || index < 0) return false;
    const letter = color === 'w' ? lower.toUpperCase() : lower;
    const side = color === 'w' ? 0 : 1;
    const kings: [number, number] = [...this.#c.kings];
    // One king a side: where chess.js believes it is (see RelaxedState).
    if (lower === 'k' && kings[side] !== -1 && kings[side] !== index) return false;
    const board = this.#board.slice();
    const replaced = board[index];
    if (replaced === 'K') kings[0] = -1;
    if (replaced === 'k') kings[1] = -1;
    if (lower === 'k') kings[side] = index;
    board[index] = letter;
    this.#edited(board, kings);
    return true;
  }

  remove(square: Square): Piece | undefined {
    const piece = this.get(square);
    const board = this.#board.slice();
    const index = squareOf(square);
    if (index >= 0) board[index] = undefined;
    const kings: [number, number] = [...this.#c.kings];
    if (piece?.type === 'k') kings[piece.color === 'w' ? 0 : 1] = -1;
    this.#edited(board, kings);
    return piece;
  }

  /** After put() or remove(): chess.js drops the castling rights whose king or rook has gone and the en-passant square. */
  #edited(board: Board, kings: readonly [number, number]): void {
    if (this.#history.length > 0) this.#fillFens();
    this.#board = board;
    this.#pos = null;
    this.#c = { ...this.#c, castling: this.#applicableRights(this.#c.castling, board), kings };
    // chess.js compares the squares around the stored en-passant square
    // with null, which an empty square never is: any edit clears it.
    this.#c.ep = -1;
    this.#rebuild();
    this.#updateSetup(this.fen());
  }

  #applicableRights(castling: number, board: Board): number {
    const whiteKing = board[4] === 'K';
    const blackKing = board[60] === 'k';
    if (!whiteKing || board[0] !== 'R') castling &= ~2;
    if (!whiteKing || board[7] !== 'R') castling &= ~1;
    if (!blackKing || board[56] !== 'r') castling &= ~8;
    if (!blackKing || board[63] !== 'r') castling &= ~4;
    return castling;
  }

  setTurn(color: Color): boolean {
    if (this.#c.turn === color) return false;
    this.move('--');
    return true;
  }

  getCastlingRights(color: Color): { k: boolean; q: boolean } {
    const bits = color === 'w' ? this.#c.castling : color === 'b' ? this.#c.castling >> 2 : 0;
    return { k: (bits & 1) !== 0, q: (bits & 2) !== 0 };
  }

  setCastlingRights(color: Color, rights: Partial<Record<'k' | 'q', boolean>>): boolean {
    let castling = this.#c.castling;
    if (color === 'w' || color === 'b') {
      const shift = color === 'w' ? 0 : 2;
      for (const [side, bit] of [
        ['k', 1],
        ['q', 2],
      ] as const) {
        if (rights[side] === undefined) continue;
        castling = rights[side] ? castling | (bit << shift) : castling & ~(bit << shift);
      }
    }
    this.#drift ^= castlingDrift(this.#c.castling, castling);
    this.#c = { ...this.#c, castling: this.#applicableRights(castling, this.#board) };
    this.#rebuild();
    const result = this.getCastlingRights(color);
    return (rights.k === undefined || rights.k === result.k) && (rights.q === undefined || rights.q === result.q);
  }

  // --- moves -----------------------------------------------------------------

  /** The legal moves in chess.js's order, with SAN disambiguated among all of them. */
  #legal(): Rec[] {
    const pos = this.#pos;
    if (pos === null) return [];
    const ucis = pos.legalMoves();
    const sans = pos.legalMovesSan();
    const recs = ucis.map((uci, i) => engineRec(uci, sans[i] as string, this.#board));
    return recs.sort((a, b) => a.key - b.key);
  }

  moves(): string[];
  moves(options: { square?: Square | undefined; piece?: PieceSymbol | undefined; verbose?: false | undefined }): string[];
  moves(options: { square?: Square | undefined; piece?: PieceSymbol | undefined; verbose: true }): Move[];
  moves(options: { square?: Square | undefined; piece?: PieceSymbol | undefined; verbose?: boolean | undefined }): string[] | Move[];
  moves({
    verbose = false,
    square = undefined,
    piece = undefined,
  }: { verbose?: boolean | undefined; square?: Square | undefined; piece?: PieceSymbol | undefined } = {}): string[] | Move[] {
    const forSquare = square ? squareOf(square.toLowerCase()) : -2;
    if (forSquare === -1) return [];
    const forPiece = piece?.toLowerCase();
    if (!verbose && forSquare === -2 && forPiece === undefined && this.#pos !== null) return sansInOrder(this.#pos);
    let recs = this.#legal();
    if (forSquare >= 0 || forPiece !== undefined) {
      const castles = forPiece === undefined || forPiece === 'k';
      recs = recs.filter((m) => {
        if (forSquare >= 0 && m.from !== forSquare) return false;
        if (forPiece && m.piece !== forPiece) return false;
        return castles || (m.flags !== 'k' && m.flags !== 'q');
      });
    }
    if (verbose) return this.#moveObjects(recs);
    // chess.js disambiguates SAN among the moves it was asked for: moves
    // from one square never need it, so moves({ square }) leaves it out.
    if (forSquare >= 0)
      return recs.map((m) =>
        m.piece === 'p' || m.flags === 'k' || m.flags === 'q' ? m.san : m.san.replace(/^([NBRQK])[a-h]?[1-8]?(?=x?[a-h][1-8])/, '$1'),
      );
    return recs.map((m) => m.san);
  }

  #moveObjects(recs: readonly Rec[]): Move[] {
    const before = this.fen();
    return recs.map((m) => new Move(this.#fields(m, this.#c.turn, before, this.#fenAfter(m))));
  }

  /** The FEN after a legal move, the position unchanged. */
  #fenAfter(m: Rec): string {
    const c = countersAfter(this.#c, m, this.#letterAt);
    const pos = this.#pos as Position; // a position without one has no moves
    pos.play(m.uci);
    const after = this.#engineFen(pos.fen(), c, false);
    pos.undo();
    return after;
  }

  #fields(m: Rec, color: Color, before: string, after: string): ConstructorParameters<typeof Move>[0] {
    return {
      color,
      from: NAMES[m.from] as Square,
      to: NAMES[m.to] as Square,
      piece: m.piece as PieceSymbol,
      captured: m.captured as PieceSymbol | undefined,
      promotion: m.promotion as PieceSymbol | undefined,
      flags: m.flags,
      san: m.san,
      lan: m.flags === '-' ? 'a8a8' : m.uci,
      before,
      after,
    };
  }

  move(move: string | { from: string; to: string; promotion?: string } | null, { strict = false }: { strict?: boolean } = {}): Move {
    let rec: Rec | null = null;
    if (typeof move === 'string') rec = this.#fromSan(move, strict);
    else if (move === null) rec = this.#fromSan('--', strict);
    else if (typeof move === 'object') rec = this.#fromObject(move);
    if (rec === null) throw new Error(`Invalid move: ${typeof move === 'string' ? move : JSON.stringify(move)}`);
    if (rec.flags === '-' && this.isCheck()) throw new Error('Null move not allowed when in check');
    const color = this.#c.turn;
    const before = this.fen();
    const entry = this.#play(rec);
    entry.before = before;
    entry.after = this.fen();
    return new Move(this.#fields(rec, color, before, entry.after));
  }

  #fromObject(move: { from: string; to: string; promotion?: string }): Rec | null {
    const { from, to, promotion } = move;
    const pos = this.#pos;
    if (squareOf(from) < 0 || squareOf(to) < 0 || pos === null) return null;
    let uci = from + to;
    if (!pos.isLegal(uci)) {
      if (typeof promotion !== 'string' || promotion.length !== 1 || !'nbrq'.includes(promotion)) return null;
      uci += promotion;
      if (!pos.isLegal(uci)) return null;
    }
    return engineRec(uci, pos.san(uci), this.#board);
  }

  /** chess.js's reading of a move string: exact SAN without decorations, then (unless strict) permissive forms. */
  #fromSan(move: string, strict: boolean): Rec | null {
    const clean = cleanMove(move, strict);
    if (clean === '--') return NULL_MOVE;
    const pos = this.#pos;
    if (pos === null) return null;
    let uci: string | null = null;
    try {
      uci = pos.parseSan(clean);
    } catch {
      // not a move the engine reads: maybe one only the permissive reading takes
    }
    if (uci !== null) {
      const quick = sanAsWritten(uci, clean, this.#board);
      if (quick !== null) return quick;
      const san = pos.san(uci);
      if (strippedSan(san) === clean) return engineRec(uci, san, this.#board);
    }
    if (strict) return null;
    return (permissiveMatch(clean, this.#legal()) as Rec | undefined) ?? null;
  }

  /** Plays a legal move (or a null move) and returns its history entry. */
  #play(rec: Rec): Entry {
    const c = this.#c;
    const board = this.#board;
    const pos = this.#pos;
    // Written out: an object spread here cost more than the engine's share of a move.
    const entry: Entry = {
      turn: c.turn,
      castling: c.castling,
      ep: c.ep,
      half: c.half,
      full: c.full,
      kings: c.kings,
      rec,
      prevBoard: board,
      onEngine: pos !== null,
    };
    const next = countersAfter(c, rec, this.#letterAt);
    if (rec.flags === '-') {
      entry.prevPos = pos;
      this.#pos = this.#positionOf(board, next);
    } else {
      pos?.play(rec.uci);
      if (rec.unchecked === true && pos !== null && pos.inCheck()) rec.san += pos.isCheckmate() ? '#' : '+';
      this.#board = applyMove(board, rec, c.turn);
    }
    this.#c = next;
    this.#history.push(entry);
    this.#count(1);
    return entry;
  }

  undo(): Move | null {
    const last = this.#history[this.#history.length - 1];
    if (last === undefined) return null;
    if (last.before === undefined) this.#fillFens();
    const entry = this.#history.pop() as Entry;
    this.#count(-1);
    this.#board = entry.prevBoard;
    this.#c = { turn: entry.turn, castling: entry.castling, ep: entry.ep, half: entry.half, full: entry.full, kings: entry.kings };
    if (entry.rec.flags === '-') this.#drift ^= nullMoveDrift(entry.ep);
    if (entry.prevPos !== undefined) this.#pos = entry.prevPos;
    // A Position without this move in its history: the board was edited
    // since; the position the move was played from is set up again.
    else if (entry.onEngine && (this.#pos === null || this.#pos.undo() === null)) this.#rebuild();
    return new Move(this.#fields(entry.rec, entry.turn, entry.before as string, entry.after as string));
  }

  /** Fills the FENs of history entries that lack them, from each entry's board and counters. */
  #fillFens(): void {
    const history = this.#history;
    let after = this.fen();
    for (let i = history.length - 1; i >= 0; i--) {
      const e = history[i] as Entry;
      if (e.before !== undefined && e.after !== undefined) {
        after = e.before;
        continue;
      }
      e.after ??= after;
      e.before = this.#fenOf(e.prevBoard, e);
      after = e.before;
    }
  }

  history(): string[];
  history(options: { verbose: true }): Move[];
  history(options: { verbose: false }): string[];
  history(options: { verbose: boolean }): string[] | Move[];
  history({ verbose = false }: { verbose?: boolean } = {}): string[] | Move[] {
    if (!verbose) {
      this.#replayDrift();
      return this.#history.map((e) => e.rec.san);
    }
    this.#fillFens();
    return this.#history.map((e) => new Move(this.#fields(e.rec, e.turn, e.before as string, e.after as string)));
  }

  /**
   * chess.js replays the history to answer history(), pgn() and the
   * comment lists; each null move replayed drifts its hash (see hash.ts).
   */
  #replayDrift(): void {
    for (const e of this.#history) if (e.rec.flags === '-') this.#drift ^= nullMoveDrift(e.ep);
  }

  // --- status ---------------------------------------------------------------

  /** The key positions are counted by for repetitions. */
  #key(): bigint | string {
    return this.#pos !== null ? this.#pos.hash() : this.hash();
  }

  #count(delta: number): void {
    const key = this.#key();
    const n = (this.#counts.get(key) ?? 0) + delta;
    if (n > 0) this.#counts.set(key, n);
    else this.#counts.delete(key);
  }

  // A side to move chess.js does not know (no position) is not in check and has no moves.
  isCheck(): boolean {
    return this.#pos !== null && this.#pos.inCheck();
  }

  inCheck(): boolean {
    return this.isCheck();
  }

  isCheckmate(): boolean {
    return this.#pos !== null && this.#pos.isCheckmate();
  }

  isStalemate(): boolean {
    return this.#pos === null || this.#pos.isStalemate();
  }

  isInsufficientMaterial(): boolean {
    return this.#boardPosition().isInsufficientMaterial();
  }

  isThreefoldRepetition(): boolean {
    return (this.#counts.get(this.#key()) ?? 0) >= 3;
  }

  isDrawByFiftyMoves(): boolean {
    return this.#c.half >= 100;
  }

  isDraw(): boolean {
    return this.isDrawByFiftyMoves() || this.isStalemate() || this.isInsufficientMaterial() || this.isThreefoldRepetition();
  }

  isGameOver(): boolean {
    return this.isCheckmate() || this.isDraw();
  }

  perft(depth: number): number {
    // chess.js counts the moves at any depth of 1 or less, and recurses while depth - 1 > 0.
    const plies = depth > 1 ? Math.ceil(depth) : 1;
    return this.#pos !== null ? this.#pos.perft(plies) : 0;
  }

  // --- PGN ------------------------------------------------------------------

  pgn({ newline = '\n', maxWidth = 0 }: { newline?: string; maxWidth?: number } = {}): string {
    this.#replayDrift();
    const history = this.#history;
    // The FENs only serve to find comments.
    let fens: string[] = [];
    for (const _ in this.#comments) {
      fens = this.#gameFens();
      break;
    }
    const plies = history.map((e) => ({ color: e.turn, san: e.rec.san, moveNumber: e.full }));
    return pgnText({ header: this.#header, plies, fens, comments: this.#comments, newline, maxWidth });
  }

  loadPgn(pgn: string, { strict = false, newlineChar = '\r?\n' }: { strict?: boolean; newlineChar?: string } = {}): void {
    if (newlineChar !== '\r?\n') pgn = pgn.replace(new RegExp(newlineChar, 'g'), '\n');
    const parsed = readPgnText(pgn);
    this.reset();
    let fen = '';
    for (const key in parsed.headers) {
      if (key.toLowerCase() === 'fen') fen = parsed.headers[key] as string;
      this.header(key, parsed.headers[key] as string);
    }
    if (!strict) {
      if (fen) this.load(fen, { preserveHeaders: true });
    } else if (parsed.headers['SetUp'] === '1') {
      if (!('FEN' in parsed.headers)) throw new Error('Invalid PGN: FEN tag must be supplied with SetUp tag');
      this.load(parsed.headers['FEN'] as string, { preserveHeaders: true });
    }
    if (parsed.rootComment !== undefined) this.#comments[this.fen()] = parsed.rootComment;
    for (const node of parsed.moves) {
      const rec = this.#fromSan(node.san, strict);
      if (rec === null) throw new Error(`Invalid move in PGN: ${node.san}`);
      this.#play(rec);
      if (node.comment !== undefined) this.#comments[this.fen()] = node.comment;
    }
    const result = parsed.result;
    if (result && Object.keys(this.#header).length && this.#header['Result'] !== result) this.setHeader('Result', result);
  }

  /** @deprecated as in chess.js: use setHeader and getHeaders. */
  header(...args: string[]): Record<string, string | null> {
    for (let i = 0; i < args.length; i += 2) {
      if (typeof args[i] === 'string' && typeof args[i + 1] === 'string') this.#header[args[i] as string] = args[i + 1] as string;
    }
    return this.#header;
  }

  setHeader(key: string, value: string): Record<string, string> {
    this.#header[key] = value ?? SEVEN_TAG_ROSTER[key] ?? null;
    return this.getHeaders();
  }

  removeHeader(key: string): boolean {
    if (!(key in this.#header)) return false;
    this.#header[key] = SEVEN_TAG_ROSTER[key] || null;
    return true;
  }

  getHeaders(): Record<string, string> {
    const headers: Record<string, string> = {};
    for (const [key, value] of Object.entries(this.#header)) if (value !== null) headers[key] = value;
    return headers;
  }

  // --- comments -------------------------------------------------------------

  getComment(): string {
    return this.#comments[this.fen()] as string;
  }

  setComment(comment: string): void {
    this.#comments[this.fen()] = comment.replace('{', '[').replace('}', ']');
  }

  /** @deprecated as in chess.js: renamed removeComment. */
  deleteComment(): string {
    return this.removeComment();
  }

  removeComment(): string {
    const fen = this.fen();
    const comment = this.#comments[fen] as string;
    delete this.#comments[fen];
    return comment;
  }

  /** Keeps only the comments of positions of the game, in game order (chess.js prunes the others here). */
  /** The FEN of each position of the game, from the first. */
  #gameFens(): string[] {
    this.#fillFens();
    const history = this.#history;
    return history.length === 0 ? [this.fen()] : [history[0]!.before as string, ...history.map((e) => e.after as string)];
  }

  #pruneComments(): void {
    this.#replayDrift();
    const fens = this.#gameFens();
    const kept: Record<string, string> = {};
    for (const fen of fens) if (fen in this.#comments) kept[fen] = this.#comments[fen] as string;
    this.#comments = kept;
  }

  getComments(): { fen: string; comment: string }[] {
    this.#pruneComments();
    return Object.keys(this.#comments).map((fen) => ({ fen, comment: this.#comments[fen] as string }));
  }

  /** @deprecated as in chess.js: renamed removeComments. */
  deleteComments(): { fen: string; comment: string }[] {
    return this.removeComments();
  }

  removeComments(): { fen: string; comment: string }[] {
    const all = this.getComments();
    this.#comments = {};
    return all;
  }
}
