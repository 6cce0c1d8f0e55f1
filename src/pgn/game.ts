// A game read from PGN: a view of one game's records in a batch (see
// csrc/engine/include/pgn.h), decoded into headers, moves and the tree on
// first use.
import { commandsOf, type CommentCommands, type PgnEval, type PgnShape } from './comments';
import { passedFen } from '../core/fen';
import { Position, START_FEN } from '../core/position';
import { type GameRecords, type PgnBatch, type PgnError, type PgnVisitor, visitRecords } from './records';
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

/** The tags in file order (a repeated tag keeps its last value). */
class HeadersReader implements PgnVisitor {
  readonly headers: Record<string, string> = {};
  tag(name: string, value: string): void {
    this.headers[name] = value;
  }
}

/** The start position and the end of the game. */
class BoundsReader implements PgnVisitor {
  fen = '';
  chess960 = false;
  result: string | undefined;
  finalFen = '';
  start(fen: string, chess960: boolean): void {
    this.fen = fen;
    this.chess960 = chess960;
  }
  endGame(result: string | undefined, fen: string): void {
    this.result = result;
    this.finalFen = fen;
  }
}

class ErrorsReader implements PgnVisitor {
  readonly errors: PgnError[] = [];
  error(error: PgnError): void {
    this.errors.push(error);
  }
}

/**
 * The mainline's moves with their comments and NAGs, as the tree would hold
 * them: a NAG before a variation's first move goes to the node the variation
 * branches from, a mainline node when each variation around it holds one
 * move so far. Per depth: that node, and the moves played.
 */
class MainlineReader implements PgnVisitor {
  readonly moves: Node[] = [];
  #depth = 0;
  #last: Node | undefined;
  readonly #from: (Node | undefined)[] = [];
  readonly #played: number[] = [];
  move(san: string, uci: string): void {
    const depth = this.#depth;
    if (depth > 0) this.#played[depth] = (this.#played[depth] as number) + 1;
    else this.moves.push((this.#last = newNode(san, uci)));
  }
  beginVariation(): void {
    const depth = this.#depth;
    const moves = this.moves;
    const branch = depth === 0 ? moves[moves.length - 2] : this.#played[depth] === 1 ? this.#from[depth] : undefined;
    this.#depth = depth + 1;
    this.#from[depth + 1] = branch;
    this.#played[depth + 1] = 0;
  }
  endVariation(): void {
    this.#depth--;
  }
  comment(text: string): void {
    if (this.#depth === 0 && this.#last) addComment(this.#last, text);
  }
  nag(nag: number): void {
    const depth = this.#depth;
    if (depth === 0) {
      if (this.#last) addNag(this.#last, nag);
    } else if (this.#played[depth] === 0 && this.#from[depth]) addNag(this.#from[depth] as Node, nag);
  }
}

/** The whole tree. */
class TreeBuilder implements PgnVisitor {
  readonly root: TreeRoot = { comments: [], children: [] };
  #current: Node | TreeRoot = this.root;
  #pending: string[] | undefined; // comments opening a variation
  readonly #stack: (Node | TreeRoot)[] = [];
  move(san: string, uci: string): void {
    const node = newNode(san, uci);
    if (this.#pending?.length) node.startingComments = this.#pending;
    this.#pending = undefined;
    addChild(this.#current, node);
    Node.link(node, this.#current);
    this.#current = node;
  }
  comment(text: string): void {
    const current = this.#current;
    if (this.#pending) this.#pending.push(text);
    else if (current === this.root) this.root.comments.push(text);
    else addComment(current as Node, text);
  }
  nag(nag: number): void {
    if (this.#current !== this.root) addNag(this.#current as Node, nag);
  }
  beginVariation(): void {
    const current = this.#current;
    this.#stack.push(current);
    this.#current = current === this.root ? this.root : (Node.parentOf(current as Node) ?? this.root);
    this.#pending = [];
  }
  endVariation(): void {
    this.#current = this.#stack.pop() ?? this.root;
    this.#pending = undefined;
  }
}

/** One game of a batch. Everything but the record bounds is decoded when first asked for. */
export class Game implements PgnGameData {
  readonly #batch: PgnBatch;
  readonly #records: GameRecords;
  #headers: Record<string, string> | undefined;
  #bounds: BoundsReader | undefined;
  #root: PgnRoot | undefined;

  /** @internal games come from parsePgn / readPgn. */
  constructor(batch: PgnBatch, records: GameRecords) {
    this.#batch = batch;
    this.#records = records;
  }

  #visit(from: number, to: number, visitor: PgnVisitor): void {
    visitRecords(this.#batch, from, to, visitor);
  }

  get #ends(): BoundsReader {
    if (this.#bounds) return this.#bounds;
    const bounds = new BoundsReader();
    const { start, end } = this.#records;
    this.#visit(start, start + 1, bounds);
    this.#visit(end, end + 1, bounds);
    return (this.#bounds = bounds);
  }

  /** The tags in file order (a repeated tag keeps its last value). */
  get headers(): Record<string, string> {
    if (this.#headers) return this.#headers;
    const reader = new HeadersReader();
    this.#visit(this.#records.first, this.#records.start, reader);
    return (this.#headers = reader.headers);
  }

  /** The start position: the FEN tag's, else the standard one. */
  get initialFen(): string {
    return this.#ends.fen || START_FEN;
  }

  /** Chess960 (Variant tag, Shredder/X-FEN castling, or castling rights off the standard squares). */
  get chess960(): boolean {
    return this.#ends.chess960;
  }

  /** The result token of the movetext, else the Result tag, else "*". */
  get result(): string {
    const result = this.#ends.result;
    if (result !== undefined) return result;
    const tag = this.headers['Result'];
    return tag === '1-0' || tag === '0-1' || tag === '1/2-1/2' ? tag : '*';
  }

  /** FEN at the end of the mainline ('' in headers mode). */
  get finalFen(): string {
    return this.#ends.finalFen;
  }

  /** Problems met reading the game, in text order. */
  get errors(): PgnError[] {
    const reader = new ErrorsReader();
    this.#visit(this.#records.first, this.#records.end, reader);
    return reader.errors;
  }

  /** Comments before the first move. */
  get comments(): readonly string[] {
    return this.root.comments;
  }

  /** The mainline's moves with their comments, NAGs and comment commands. */
  moves(): PgnMove[] {
    if (this.#root) return mainline(this.#root);
    const reader = new MainlineReader();
    this.#visit(this.#records.start, this.#records.end, reader);
    return reader.moves;
  }

  /** The whole tree. */
  get root(): PgnRoot {
    if (this.#root) return this.#root;
    const builder = new TreeBuilder();
    // From the game's first record: comments before the movetext are the root's.
    this.#visit(this.#records.first, this.#records.end, builder);
    return (this.#root = builder.root);
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
