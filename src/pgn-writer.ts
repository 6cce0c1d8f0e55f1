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
import type { PgnGameData, PgnNode, PgnRoot } from './pgn-game';

/** Options of writePgn. */
export interface WritePgnOptions {
  /** Longest line (a token or comment word longer than it gets a line of its own); default 80. */
  maxWidth?: number;
}

const ROSTER = ['Event', 'Site', 'Date', 'Round', 'White', 'Black', 'Result'];

function escapeTag(value: string): string {
  return value.replace(/[\\"]/g, (c) => '\\' + c).replace(/[\r\n]+/g, ' ');
}

function tagLines(headers: Record<string, string>): string[] {
  const names = ROSTER.filter((name) => name in headers);
  for (const name of Object.keys(headers)) if (!ROSTER.includes(name)) names.push(name);
  return names.map((name) => `[${name} "${escapeTag(headers[name] as string)}"]`);
}

/**
 * Whether a comment's `word` stays on the line of the text before it: a word
 * that must not start a line (see the top), an empty one (of a doubled
 * space), or one inside a command such as [%clk 0:01:00].
 */
const gluedWord = (before: string, word: string) =>
  word === '' || /^(\[\w|%)/.test(word) || before.lastIndexOf('[%') > before.lastIndexOf(']');

/** Which ply a game starts at: 0 for White to move at move 1. */
function startPly(headers: Record<string, string>): number {
  const fen = headers['FEN'];
  if (!fen) return 0;
  const f = fen.trim().split(/\s+/);
  const fullmove = Math.max(1, Number.parseInt(f[5] ?? '1', 10) || 1);
  return (fullmove - 1) * 2 + (f[1] === 'b' ? 1 : 0);
}

class Tokens {
  readonly out: string[] = [];
  /** Indices of the tokens that start a line: after a line break in a comment, after a ';' comment (it runs to the end of its line). */
  readonly lineStarts = new Set<number>();
  push(token: string): void {
    this.out.push(token);
  }

  /**
   * A comment: its braces and words are tokens, so that it wraps like the
   * movetext around it (a reader trims a comment, so a brace may end or
   * start a line).
   */
  comment(text: string): void {
    if (text.includes('}')) {
      this.push('; ' + text.replace(/[\r\n]+/g, ' '));
      this.lineStarts.add(this.out.length);
      return;
    }
    this.push('{');
    text.split('\n').forEach((line, i) => {
      const [first, ...words] = line.split(' ');
      if (i > 0) this.lineStarts.add(this.out.length);
      if (i === 0) words.unshift(first as string);
      else this.push(first as string);
      for (const word of words) {
        if (gluedWord(this.out[this.out.length - 1] as string, word)) this.out[this.out.length - 1] += ' ' + word;
        else this.push(word);
      }
    });
    this.push('}');
  }
}

/** Writes `node`'s move (with a number where one is due) and what follows it. */
function writeMove(t: Tokens, node: PgnNode, ply: number, forceNumber: boolean): void {
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
function writeLine(t: Tokens, parent: PgnNode | PgnRoot, ply: number, forceNumber: boolean): void {
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

function wrap({ out: tokens, lineStarts }: Tokens, maxWidth: number): string {
  const lines: string[] = [];
  let line: string | undefined; // undefined before the first token: a comment's line may be empty
  for (const [i, token] of tokens.entries()) {
    if (line !== undefined && (lineStarts.has(i) || line.length + 1 + token.length > maxWidth)) {
      lines.push(line);
      line = token;
    } else {
      line = line === undefined ? token : line + ' ' + token;
    }
  }
  if (line !== undefined) lines.push(line);
  return lines.join('\n');
}

/** The game in PGN export format, ending with a newline. */
export function writePgn(game: PgnGameData, options: WritePgnOptions = {}): string {
  const maxWidth = options.maxWidth ?? 80;
  if (!Number.isInteger(maxWidth) || maxWidth < 1) throw new RangeError('maxWidth must be a positive integer');
  const t = new Tokens();
  for (const c of game.root.comments) t.comment(c);
  writeLine(t, game.root, startPly(game.headers), true);
  t.push(game.result);
  const tags = tagLines(game.headers);
  return (tags.length ? tags.join('\n') + '\n\n' : '') + wrap(t, maxWidth) + '\n';
}
