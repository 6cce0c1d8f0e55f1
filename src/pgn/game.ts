// A game read from PGN: a view of one game's records in a batch (see
// csrc/engine/include/pgn.h), decoded into headers, moves and the tree on
// first use.
import { PGN } from '../core/boundary';
import { commandsOf, type CommentCommands, type PgnEval, type PgnShape } from './comments';
import { passedFen } from '../core/fen';
import { Position, START_FEN } from '../core/position';
import {
  commentText,
  endFen,
  endResult,
  errorAt,
  type GameRecords,
  moveSan,
  moveUci,
  nagValue,
  type PgnError,
  recordOp,
  startChess960,
  startFen,
  startNames,
  tagName,
  tagValue,
} from './records';
import { writePgn, type WritePgnOptions } from './writer';

export type { PgnError } from './records';

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

/** What writePgn needs of a game. */
export interface PgnGameData {
  headers: Record<string, string>;
  result: string;
  root: PgnRoot;
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

// The ops the loops below take, as module constants: compared as literals.
const TAG: number = PGN.op.tag;
const START: number = PGN.op.start;
const MOVE: number = PGN.op.move;
const COMMENT: number = PGN.op.comment;
const NAG: number = PGN.op.nag;
const VAR_START: number = PGN.op.varStart;
const VAR_END: number = PGN.op.varEnd;
const ERROR: number = PGN.op.error;

// The readers of a game's records below are plain loops, one per use, each
// calling record readers that inline: no call a record into a visitor.

/** The tags in file order (a repeated tag keeps its last value). */
function readHeaders(g: GameRecords): Record<string, string> {
  const headers: Record<string, string> = {};
  for (let i = g.first; i < g.start; i++) if (recordOp(g, i) === TAG) headers[tagName(g, i)] = tagValue(g, i);
  return headers;
}

function readErrors(g: GameRecords): PgnError[] {
  const errors: PgnError[] = [];
  for (let i = g.first; i < g.end; i++) if (recordOp(g, i) === ERROR) errors.push(errorAt(g, i));
  return errors;
}

/**
 * The mainline's moves with their comments and NAGs, as the tree would
 * hold them: a NAG before a
 * variation's first move goes to the node the variation branches from, a
 * mainline node when each variation around it holds one move so far. Per
 * depth: that node, and the moves played.
 */
function readMainline(g: GameRecords): Node[] {
  const moves: Node[] = [];
  const names = startNames(g, g.start);
  let depth = 0;
  let last: Node | undefined;
  const from: (Node | undefined)[] = [];
  const played: number[] = [];
  for (let i = g.start + 1, end = g.end; i < end; i++) {
    const op = recordOp(g, i);
    if (op === MOVE) {
      if (depth > 0) played[depth] = (played[depth] as number) + 1;
      else moves.push((last = new Node(moveSan(g, i), moveUci(g, i, names))));
    } else if (op === COMMENT) {
      if (depth === 0 && last) addComment(last, commentText(g, i));
    } else if (op === NAG) {
      if (depth === 0) {
        if (last) addNag(last, nagValue(g, i));
      } else if (played[depth] === 0 && from[depth]) addNag(from[depth] as Node, nagValue(g, i));
    } else if (op === VAR_START) {
      const branch = depth === 0 ? moves[moves.length - 2] : played[depth] === 1 ? from[depth] : undefined;
      depth++;
      from[depth] = branch;
      played[depth] = 0;
    } else if (op === VAR_END) depth--;
  }
  return moves;
}

/** The whole tree: comments before the movetext are the root's. */
function readTree(g: GameRecords): TreeRoot {
  const root: TreeRoot = { comments: [], children: [] };
  let names: string[] = [];
  let current: Node | TreeRoot = root;
  let pending: string[] | undefined; // comments opening a variation
  const stack: (Node | TreeRoot)[] = [];
  for (let i = g.first, end = g.end; i < end; i++) {
    const op = recordOp(g, i);
    if (op === MOVE) {
      const node = new Node(moveSan(g, i), moveUci(g, i, names));
      if (pending?.length) node.startingComments = pending;
      pending = undefined;
      addChild(current, node);
      Node.link(node, current);
      current = node;
    } else if (op === COMMENT) {
      const text = commentText(g, i);
      if (pending) pending.push(text);
      else if (current === root) root.comments.push(text);
      else addComment(current as Node, text);
    } else if (op === NAG) {
      if (current !== root) addNag(current as Node, nagValue(g, i));
    } else if (op === VAR_START) {
      stack.push(current);
      current = current === root ? root : (Node.parentOf(current as Node) ?? root);
      pending = [];
    } else if (op === VAR_END) {
      current = stack.pop() ?? root;
      pending = undefined;
    } else if (op === START) names = startNames(g, i);
  }
  return root;
}

/** One game of a batch. Everything but the record bounds is decoded when first asked for. */
export class Game implements PgnGameData {
  readonly #records: GameRecords;
  #headers: Record<string, string> | undefined;
  #root: PgnRoot | undefined;

  /** @internal games come from parsePgn / readPgn. */
  constructor(records: GameRecords) {
    this.#records = records;
  }

  /** The tags in file order (a repeated tag keeps its last value). */
  get headers(): Record<string, string> {
    return (this.#headers ??= readHeaders(this.#records));
  }

  /** The start position: the FEN tag's, else the standard one. */
  get initialFen(): string {
    return startFen(this.#records, this.#records.start) || START_FEN;
  }

  /** Chess960 (Variant tag, Shredder/X-FEN castling, or castling rights off the standard squares). */
  get chess960(): boolean {
    return startChess960(this.#records, this.#records.start);
  }

  /** The result token of the movetext, else the Result tag, else "*". */
  get result(): string {
    const result = endResult(this.#records, this.#records.end);
    if (result !== undefined) return result;
    const tag = this.headers['Result'];
    return tag === '1-0' || tag === '0-1' || tag === '1/2-1/2' ? tag : '*';
  }

  /** FEN at the end of the mainline ('' in headers mode). */
  get finalFen(): string {
    return endFen(this.#records, this.#records.end);
  }

  /** Problems met reading the game, in text order. */
  get errors(): PgnError[] {
    return this.#records.errors === 0 ? [] : readErrors(this.#records);
  }

  /** Comments before the first move. */
  get comments(): readonly string[] {
    return this.root.comments;
  }

  /** The mainline's moves with their comments, NAGs and comment commands. */
  moves(): PgnMove[] {
    if (this.#root) return mainline(this.#root);
    return readMainline(this.#records);
  }

  /** The whole tree. */
  get root(): PgnRoot {
    return (this.#root ??= readTree(this.#records));
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

function replay(fen: string, chess960: boolean, ucis: string[]): Position {
  let pos = new Position(fen, { chess960 });
  let from = 0;
  for (let i = 0; i <= ucis.length; i++) {
    if (i < ucis.length && ucis[i] !== '0000') continue;
    if (i > from) pos.playLine(ucis.slice(from, i));
    if (i < ucis.length) pos = new Position(passedFen(pos.fen(), chess960), { chess960 });
    from = i + 1;
  }
  return pos;
}
