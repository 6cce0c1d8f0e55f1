// PGN export format: the Seven Tag Roster first, then the other tags in
// their order; movetext with move numbers (and "N..." after comments and
// variations), comments, NAGs as $n, variations, the result; lines wrapped
// at maxWidth between tokens and between the words of a brace comment. A
// comment's line break stays a line break; a space where a comment is
// wrapped becomes one (a reader keeps a comment's text as written, so that
// space reads back as a line break, and writing again gives the same text).
// No comment line is made to start with '[' and a name (it could read as a
// tag line and end the comment) or '%' (an escape line). A brace comment
// cannot hold '}': such a comment is written as a ';' comment, which runs to
// the end of its line and is read back the same (trimmed alike); its line
// breaks, if it has any, become spaces, as a ';' comment cannot hold them
// either.
import { FenError } from '../core/errors';
import { Position } from '../core/position';
import type { PgnGameData, PgnNode, PgnRoot } from './game';

/** Options of writePgn. */
export interface WritePgnOptions {
  /** Longest line (a token or comment word longer than it gets a line of its own); default 80. */
  maxWidth?: number;
}

/** The Seven Tag Roster in export order, with the values a game that does not know them gets. */
export const ROSTER_DEFAULTS: Readonly<Record<string, string>> = Object.freeze({
  Event: '?',
  Site: '?',
  Date: '????.??.??',
  Round: '?',
  White: '?',
  Black: '?',
  Result: '*',
});
const ROSTER = Object.keys(ROSTER_DEFAULTS);

function escapeTag(value: string): string {
  return value.replace(/[\\"]/g, (c) => '\\' + c).replace(/[\r\n]+/g, ' ');
}

function tagLines(headers: Record<string, string>): string[] {
  const names = ROSTER.filter((name) => name in headers);
  for (const name of Object.keys(headers)) if (!ROSTER.includes(name)) names.push(name);
  return names.map((name) => `[${name} "${escapeTag(headers[name] as string)}"]`);
}

const BAD_LINE_START = /\[\w|%/y;

/** Whether the comment word at `i` must not start a line (see the top). */
function badLineStart(text: string, i: number): boolean {
  BAD_LINE_START.lastIndex = i;
  return BAD_LINE_START.test(text);
}

const [NEWLINE, SPACE, PERCENT, OPEN_BRACKET, CLOSE_BRACKET] = [10, 32, 37, 91, 93];
/** What the last command bracket of a word does: nothing, opens a [%...] command, closes one. */
const enum Bracket {
  None = 0,
  Opens = 1,
  Closes = 2,
}

/** The end of the comment word at `start` (at a space, a line break or the end) times 4, plus its last Bracket. */
function scanWord(text: string, start: number): number {
  let bracket = Bracket.None;
  let end = start;
  for (; end < text.length; end++) {
    const c = text.charCodeAt(end);
    if (c === SPACE || c === NEWLINE) break;
    if (c === CLOSE_BRACKET) bracket = Bracket.Closes;
    else if (c === OPEN_BRACKET && text.charCodeAt(end + 1) === PERCENT) bracket = Bracket.Opens;
  }
  return end * 4 + bracket;
}

/** The position of a FEN tag in either castling notation, as the reader takes it; undefined for no FEN. */
function tagPosition(fen: string): Position | undefined {
  for (const chess960 of [false, true]) {
    try {
      return new Position(fen, { chess960 });
    } catch (e) {
      if (!(e instanceof FenError)) throw e;
    }
  }
  return undefined;
}

/**
 * Which ply a game starts at: 0 for White to move at move 1, also without a valid FEN tag (a
 * game read with an invalid one has no moves).
 */
function startPly(headers: Record<string, string>): number {
  const fen = headers['FEN'];
  const pos = fen ? tagPosition(fen) : undefined;
  return pos ? (pos.moveNumber() - 1) * 2 + (pos.turn() === 'b' ? 1 : 0) : 0;
}

/** The movetext's lines, filled greedily token by token up to maxWidth. */
class Lines {
  private readonly done: string[] = [];
  private line: string | undefined; // undefined before the first token: a comment's line may be empty
  private breakNext = false; // after a ';' comment, which runs to the end of its line

  constructor(private readonly maxWidth: number) {}

  private fits(token: string): boolean {
    return !this.breakNext && (this.line === undefined ? 0 : this.line.length + 1) + token.length <= this.maxWidth;
  }

  push(token: string, startsLine = false): void {
    if (this.line !== undefined && (startsLine || !this.fits(token))) {
      this.done.push(this.line);
      this.line = token;
    } else {
      this.line = this.line === undefined ? token : this.line + ' ' + token;
    }
    this.breakNext = false;
  }

  /**
   * A comment, wrapped like the movetext around it: between its words, and
   * after its '{' or before its '}' (a reader trims a comment).
   */
  comment(text: string): void {
    if (text.includes('}')) {
      this.push('; ' + text.replace(/[\r\n]+/g, ' '));
      this.breakNext = true;
      return;
    }
    const whole = '{ ' + text + ' }';
    if (!text.includes('\n') && this.fits(whole)) return this.push(whole);
    // Pieces are runs of words that stay on one line, cut from the text itself;
    // the first is the '{' with the words glued to it.
    let from = -1; // where the piece starts in text; -1 for the first
    let to = 0; // where its last word ends
    let startsLine = false;
    let inCommand = false;
    let firstGlued = false; // whether words are glued to the '{'
    const piece = () => (from >= 0 ? text.slice(from, to) : firstGlued ? '{ ' + text.slice(0, to) : '{');
    for (let start = 0, end = 0; end < text.length; start = end + 1) {
      const scanned = scanWord(text, start);
      end = scanned >> 2;
      const afterLineBreak = start > 0 && text.charCodeAt(start - 1) === NEWLINE;
      if (afterLineBreak || !(inCommand || end === start || badLineStart(text, start))) {
        this.push(piece(), startsLine);
        from = start;
        startsLine = afterLineBreak;
        inCommand = false;
      } else if (from < 0) firstGlued = true;
      to = end;
      const bracket = (scanned & 3) as Bracket;
      inCommand = bracket === Bracket.Opens || (inCommand && bracket === Bracket.None);
    }
    this.push(piece(), startsLine);
    this.push('}');
  }

  /** All lines, the last one included. */
  text(): string {
    return (this.line === undefined ? this.done : [...this.done, this.line]).join('\n');
  }
}

/** Writes `node`'s move (with a number where one is due) and what follows it. */
function writeMove(t: Lines, node: PgnNode, ply: number, forceNumber: boolean): void {
  for (const c of node.startingComments ?? []) t.comment(c);
  const white = ply % 2 === 0;
  const number = Math.floor(ply / 2) + 1;
  // A move number and its move stay on one line.
  if (white) t.push(`${number}. ${node.san}`);
  else if (forceNumber || node.startingComments?.length) t.push(`${number}... ${node.san}`);
  else t.push(node.san);
  for (const nag of node.nags) t.push(`$${nag}`);
  for (const c of node.comments) t.comment(c);
}

/** The line from `parent`'s children on; `ply` is the ply of those children. */
function writeLine(t: Lines, parent: PgnNode | PgnRoot, ply: number, forceNumber: boolean): void {
  let node = parent.children[0];
  let siblings = parent.children;
  let force = forceNumber;
  while (node) {
    writeMove(t, node, ply, force);
    force = node.comments.length > 0;
    for (const alt of siblings.slice(1)) {
      t.push('(');
      writeMove(t, alt, ply, true);
      writeLine(t, alt, ply + 1, alt.comments.length > 0);
      t.push(')');
      force = true;
    }
    siblings = node.children;
    node = node.children[0];
    ply++;
  }
}

/** The game in PGN export format, ending with a newline. */
export function writePgn(game: PgnGameData, options: WritePgnOptions = {}): string {
  const maxWidth = options.maxWidth ?? 80;
  if (!Number.isInteger(maxWidth) || maxWidth < 1) throw new RangeError('maxWidth must be a positive integer');
  const t = new Lines(maxWidth);
  for (const c of game.root.comments) t.comment(c);
  writeLine(t, game.root, startPly(game.headers), true);
  t.push(game.result);
  const tags = tagLines(game.headers);
  return (tags.length ? tags.join('\n') + '\n\n' : '') + t.text() + '\n';
}
