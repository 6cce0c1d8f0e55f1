// A game read from PGN: a view of one game's records in a batch (see
// csrc/engine/include/pgn.h), decoded into headers, moves and the tree on
// first use.
import * as buffer from 'node:buffer';

import { allocBytes } from '../core/bytes';
import { parseFen } from '../core/fen';
import { native } from '../core/native';
import { commandsOf, type CommentCommands, type PgnEval, type PgnShape } from './comments';
import { Position, START_FEN } from '../core/position';
import { uciNames, UNNAMED } from '../core/uci-names';
import { writePgn, type WritePgnOptions } from './writer';

const C = native.pgn;
const OP = C.op;
const INTS = C.recordInts;
// The op codes as module constants: the per-record loops then compare with
// literals instead of loading them from the addon's object.
const OP_TAG: number = OP.tag;
const OP_START: number = OP.start;
const OP_MOVE: number = OP.move;
const OP_COMMENT: number = OP.comment;
const OP_NAG: number = OP.nag;
const OP_VAR_START: number = OP.varStart;
const OP_VAR_END: number = OP.varEnd;
const OP_ERROR: number = OP.error;
const RESULTS = ['*', '1-0', '0-1', '1/2-1/2', '*'] as const;
const FILES = 'abcdefgh';
const PROMOTIONS = 'nbrq';

/** A move of the game: SAN (canonical), UCI, and what the PGN says about it. */
export interface PgnMove extends CommentCommands {
  san: string;
  /** "0000" for a null move ("--" in the PGN). */
  uci: string;
  /** Comments after the move, trimmed, braces removed (read-only). */
  comments: readonly string[];
  /** Comments before the move, where it opens a variation. */
  startingComments?: readonly string[];
  /** Read-only. */
  nags: readonly number[];
}

/** A node of the game tree: children in order, mainline first. */
export interface PgnNode extends PgnMove {
  /** Read-only. */
  children: readonly PgnNode[];
}

/** The tree's root: the comments before the first move and the first moves. */
export interface PgnRoot {
  comments: readonly string[];
  children: readonly PgnNode[];
}

/** A problem in the PGN text: where, on which ply (1-based along its line; 0: none) and what. */
export interface PgnError {
  line: number;
  column: number;
  ply: number;
  message: string;
}

/** What writePgn needs of a game. */
export interface PgnGameData {
  headers: Record<string, string>;
  result: string;
  root: PgnRoot;
}

/** Records and string table of one batch of games. */
export interface PgnBatch {
  records: Int32Array;
  /** A Buffer (typed as Uint8Array so the shipped types need no Node types). */
  strings: Uint8Array;
  /** The whole string table as text when it is ASCII (byte offsets are then string offsets). */
  ascii: string | undefined;
  /** Added to the records' line numbers for the text's (see cn_pgn_part). */
  lineOffset: number;
}

function square(s: number): string {
  return (FILES[s & 7] as string) + String((s >> 3) + 1);
}

/** UCI of a 16-bit engine move (castling: king two squares, or king takes rook in Chess960). */
function uciOfMove(move: number, chess960: boolean): string {
  if (move === 0) return '0000';
  const names = uciNames(chess960);
  const known = names[move] as string;
  if (known !== UNNAMED) return known;
  const from = move & 63;
  const kind = move >>> 14;
  let to = (move >> 6) & 63;
  if (kind === 3 && !chess960) to = to > from ? from + 2 : from - 2;
  const uci = square(from) + square(to) + (kind === 1 ? (PROMOTIONS[(move >> 12) & 3] as string) : '');
  names[move] = uci;
  return uci;
}

// Frozen: a node's arrays are its own once it has something to hold.
const NONE = Object.freeze([]) as unknown as never[];

/**
 * A tree node. The comment commands (clock, emt, eval, shapes) are read from
 * the comments when first asked for; comments, nags and children share one
 * empty array until the node gets its own.
 */
class Node implements PgnNode {
  san: string;
  uci: string;
  comments: string[] = NONE;
  nags: number[] = NONE;
  children: Node[] = NONE;
  declare startingComments?: string[];
  #commands: CommentCommands | undefined;
  #parent: Node | TreeRoot | undefined;
  static link(node: Node, parent: Node | TreeRoot): void {
    node.#parent = parent;
  }
  static parentOf(node: Node): Node | TreeRoot | undefined {
    return node.#parent;
  }
  constructor(san: string, uci: string) {
    this.san = san;
    this.uci = uci;
  }
  // No private method here: one would give every node a brand slot.
  get clock(): number | undefined {
    return (this.#commands ??= commandsOf(this.comments)).clock;
  }
  get emt(): number | undefined {
    return (this.#commands ??= commandsOf(this.comments)).emt;
  }
  get eval(): PgnEval | undefined {
    return (this.#commands ??= commandsOf(this.comments)).eval;
  }
  get shapes(): PgnShape[] | undefined {
    return (this.#commands ??= commandsOf(this.comments)).shapes;
  }
}

function newNode(san: string, uci: string): Node {
  return new Node(san, uci);
}

function addComment(node: Node, text: string): void {
  if (node.comments === NONE) node.comments = [text];
  else node.comments.push(text);
}

function addNag(node: Node, nag: number): void {
  if (node.nags === NONE) node.nags = [nag];
  else node.nags.push(nag);
}

function addChild(node: Node | TreeRoot, child: Node): void {
  if (node.children === NONE) node.children = [child];
  else node.children.push(child);
}

interface TreeRoot {
  comments: string[];
  children: Node[];
}

// buffer.isUtf8 is missing from Node 18 before 18.14: there a string is
// UTF-8 when it encodes back to its bytes.
const isUtf8 =
  (buffer as { isUtf8?: (b: Uint8Array) => boolean }).isUtf8 ??
  ((b: Uint8Array) => Buffer.from(Buffer.from(b.buffer, b.byteOffset, b.length).toString('utf8')).equals(b));

/**
 * The string at strings[start, end): UTF-8, or, where those bytes are not
 * UTF-8 (the reader reports it), Latin-1, which keeps them byte for byte.
 * Each string on its own: one bad byte changes no other string.
 */
function decode(strings: Buffer, start: number, end: number): string {
  const text = strings.toString('utf8', start, end);
  // Invalid bytes decode as U+FFFD; so does a U+FFFD written in the text.
  return text.includes('\uFFFD') && !isUtf8(strings.subarray(start, end)) ? strings.toString('latin1', start, end) : text;
}

/** The SAN (ASCII) at strings[at, at + n). */
function asciiAt(strings: Uint8Array, at: number, n: number): string {
  let s = '';
  for (let i = 0; i < n; i++) s += String.fromCharCode(strings[at + i] as number);
  return s;
}

/** One game of a batch. Everything but the record bounds is decoded when first asked for. */
export class Game implements PgnGameData {
  readonly #batch: PgnBatch;
  readonly #start: number; // index of the START record
  readonly #end: number; // index of the END record
  readonly #first: number; // index of the GAME record
  #headers: Record<string, string> | undefined;
  #root: PgnRoot | undefined;

  /** @internal games come from parsePgn / readPgn. */
  constructor(batch: PgnBatch, first: number, end: number) {
    this.#batch = batch;
    this.#first = first;
    this.#end = end;
    let i = first;
    while (batch.records[i * INTS] !== OP_START) i++;
    this.#start = i;
  }

  #op(i: number): number {
    return this.#batch.records[i * INTS] as number;
  }
  #arg(i: number, k: number): number {
    return this.#batch.records[i * INTS + k] as number;
  }
  #text(offset: number, length: number): string {
    const ascii = this.#batch.ascii;
    if (ascii !== undefined) return ascii.slice(offset, offset + length);
    return decode(this.#batch.strings as Buffer, offset, offset + length);
  }

  /** The tags in file order (a repeated tag keeps its last value). */
  get headers(): Record<string, string> {
    if (this.#headers) return this.#headers;
    const headers: Record<string, string> = {};
    for (let i = this.#first; i < this.#start; i++) {
      if (this.#op(i) !== OP_TAG) continue;
      const at = this.#arg(i, 1);
      const n = this.#arg(i, 2);
      headers[this.#text(at, n)] = this.#text(at + n, this.#arg(i, 3));
    }
    return (this.#headers = headers);
  }

  /** The start position: the FEN tag's, else the standard one. */
  get initialFen(): string {
    const n = this.#arg(this.#start, 2);
    return n > 0 ? this.#text(this.#arg(this.#start, 1), n) : START_FEN;
  }

  /** Chess960 (Variant tag, Shredder/X-FEN castling, or castling rights off the standard squares). */
  get chess960(): boolean {
    return (this.#arg(this.#start, 3) & 1) === 1;
  }

  /** The result token of the movetext, else the Result tag, else "*". */
  get result(): string {
    const code = this.#arg(this.#end, 1);
    if (code !== C.result.none) return RESULTS[code] as string;
    const tag = this.headers['Result'];
    return tag === '1-0' || tag === '0-1' || tag === '1/2-1/2' ? tag : '*';
  }

  /** FEN at the end of the mainline ('' in headers mode). */
  get finalFen(): string {
    return this.#text(this.#arg(this.#end, 2), this.#arg(this.#end, 3));
  }

  /** Problems met reading the game, in text order. */
  get errors(): PgnError[] {
    const errors: PgnError[] = [];
    for (let i = this.#first; i < this.#end; i++) {
      if (this.#op(i) !== OP_ERROR) continue;
      const message = this.#text(this.#arg(i, 1), this.#arg(i, 2));
      // | 0: the sum wraps as the reader's int32 records do.
      const line = (this.#arg(i + 1, 1) + this.#batch.lineOffset) | 0;
      errors.push({ line, column: this.#arg(i + 1, 2), ply: this.#arg(i, 3), message });
    }
    return errors;
  }

  /** Comments before the first move. */
  get comments(): readonly string[] {
    return this.root.comments;
  }

  /** The mainline's moves with their comments, NAGs and comment commands. */
  moves(): PgnMove[] {
    if (this.#root) return mainline(this.#root);
    const moves: Node[] = [];
    const chess960 = this.chess960;
    const names = uciNames(chess960);
    const { records: r, ascii, strings } = this.#batch;
    let depth = 0;
    let last: Node | undefined;
    // As in #buildTree, a NAG before a variation's first move goes to the
    // node the variation branches from: a mainline node when each variation
    // around it holds one move so far. Per depth: that node, and the moves.
    const from: (Node | undefined)[] = [];
    const played: number[] = [];
    // One pass over the records, read in place: no call per record.
    for (let k = (this.#start + 1) * INTS, end = this.#end * INTS; k < end; k += INTS) {
      const op = r[k] as number;
      if (op === OP_MOVE) {
        if (depth > 0) {
          played[depth] = (played[depth] as number) + 1;
          continue;
        }
        const move = r[k + 1] as number;
        const at = r[k + 2] as number;
        const n = r[k + 3] as number;
        const known = names[move] as string;
        const san = ascii !== undefined ? ascii.slice(at, at + n) : asciiAt(strings, at, n);
        moves.push((last = newNode(san, known !== UNNAMED ? known : uciOfMove(move, chess960))));
      } else if (op === OP_VAR_START) {
        const branch = depth === 0 ? moves[moves.length - 2] : played[depth] === 1 ? from[depth] : undefined;
        depth++;
        from[depth] = branch;
        played[depth] = 0;
      } else if (op === OP_VAR_END) depth--;
      else if (depth > 0) {
        if (op === OP_NAG && played[depth] === 0 && from[depth]) addNag(from[depth] as Node, r[k + 1] as number);
      } else if (op === OP_COMMENT && last) addComment(last, this.#text(r[k + 1] as number, r[k + 2] as number));
      else if (op === OP_NAG && last) addNag(last, r[k + 1] as number);
    }
    return moves;
  }

  /** The whole tree. */
  get root(): PgnRoot {
    return this.#root ?? (this.#root = this.#buildTree());
  }

  #buildTree(): PgnRoot {
    const root: TreeRoot = { comments: [], children: [] };
    const chess960 = this.chess960;
    const names = uciNames(chess960);
    const { records: r, ascii, strings } = this.#batch;
    let current: Node | TreeRoot = root;
    let pending: string[] | undefined; // comments opening a variation
    const stack: (Node | TreeRoot)[] = [];
    for (let k = (this.#first + 1) * INTS, end = this.#end * INTS; k < end; k += INTS) {
      const op = r[k] as number;
      if (op === OP_MOVE) {
        const move = r[k + 1] as number;
        const at = r[k + 2] as number;
        const n = r[k + 3] as number;
        const known = names[move] as string;
        const san = ascii !== undefined ? ascii.slice(at, at + n) : asciiAt(strings, at, n);
        const node = newNode(san, known !== UNNAMED ? known : uciOfMove(move, chess960));
        if (pending?.length) node.startingComments = pending;
        pending = undefined;
        addChild(current, node);
        Node.link(node, current);
        current = node;
      } else if (op === OP_COMMENT) {
        const text = this.#text(r[k + 1] as number, r[k + 2] as number);
        if (pending) pending.push(text);
        else if (current === root) root.comments.push(text);
        else addComment(current as Node, text);
      } else if (op === OP_NAG && current !== root) addNag(current as Node, r[k + 1] as number);
      else if (op === OP_VAR_START) {
        stack.push(current);
        current = current === root ? root : (Node.parentOf(current as Node) ?? root);
        pending = [];
      } else if (op === OP_VAR_END) {
        current = stack.pop() ?? root;
        pending = undefined;
      }
    }
    return root;
  }

  /**
   * The position after `node` (a node of this game's `root`), or at the end of
   * the mainline; its history holds the moves from the start (from the last
   * null move, where the line has one).
   */
  position(node?: PgnNode): Position {
    const ucis: string[] = [];
    if (node) {
      const root = this.root;
      let n: Node | TreeRoot | undefined = node instanceof Node ? node : undefined;
      for (; n instanceof Node; n = Node.parentOf(n)) ucis.push(n.uci);
      if (n !== root) throw new RangeError('node is not a node of this game');
      ucis.reverse();
    } else {
      for (const m of this.moves()) ucis.push(m.uci);
    }
    return replay(this.initialFen, this.chess960, ucis);
  }

  /** The game in PGN export format (see writePgn). */
  toPgn(options?: WritePgnOptions): string {
    return writePgn(this, options);
  }
}

function mainline(root: PgnRoot): PgnMove[] {
  const moves: PgnMove[] = [];
  for (let n = root.children[0]; n; n = n.children[0]) moves.push(n);
  return moves;
}

/** The FEN after the side to move of `fen` passes (a null move, played by the engine as the reader plays it). */
function passFen(fen: string, chess960: boolean): string {
  const before = allocBytes();
  parseFen(before, fen, chess960);
  const after = allocBytes();
  native.playNull(before, after);
  return native.fen(after);
}

function replay(fen: string, chess960: boolean, ucis: string[]): Position {
  let pos = new Position(fen, { chess960 });
  let from = 0;
  for (let i = 0; i <= ucis.length; i++) {
    if (i < ucis.length && ucis[i] !== '0000') continue;
    if (i > from) pos.playLine(ucis.slice(from, i));
    if (i < ucis.length) pos = new Position(passFen(pos.fen(), chess960), { chess960 });
    from = i + 1;
  }
  return pos;
}
