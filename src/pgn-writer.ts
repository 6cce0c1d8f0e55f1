// PGN export format: the Seven Tag Roster first, then the other tags in
// their order; movetext with move numbers (and "N..." after comments and
// variations), comments, NAGs as $n, variations, the result; lines wrapped
// at maxWidth between tokens (a comment is never split, so reading the text
// back gives the same comments). A brace comment cannot hold '}': such a
// comment is written as a ';' comment, which runs to the end of its line
// and is read back the same (trimmed alike); its line breaks, if it has
// any, become spaces, as a ';' comment cannot hold them either.
import type { PgnGameData, PgnNode, PgnRoot } from './pgn-game';

/** Options of writePgn. */
export interface WritePgnOptions {
  /** Longest line (tokens longer than it get a line of their own); default 80. */
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

function commentToken(text: string): string {
  if (!text.includes('}')) return '{ ' + text + ' }';
  return '; ' + text.replace(/[\r\n]+/g, ' ');
}

/** A ';' comment runs to the end of its line: nothing may follow it there. */
const endsLine = (token: string) => token.startsWith(';');

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
  push(token: string): void {
    this.out.push(token);
  }
}

/** Writes `node`'s move (with a number where one is due) and what follows it. */
function writeMove(t: Tokens, node: PgnNode, ply: number, forceNumber: boolean): void {
  for (const c of node.startingComments ?? []) t.push(commentToken(c));
  const white = ply % 2 === 0;
  const number = Math.floor(ply / 2) + 1;
  // A move number and its move stay on one line.
  if (white) t.push(`${number}. ${node.san}`);
  else if (forceNumber || node.startingComments?.length) t.push(`${number}... ${node.san}`);
  else t.push(node.san);
  for (const nag of node.nags) t.push(`$${nag}`);
  for (const c of node.comments) t.push(commentToken(c));
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

function wrap(tokens: string[], maxWidth: number): string {
  const lines: string[] = [];
  let line = '';
  let ended = false;
  for (const token of tokens) {
    if (line && (ended || line.length + 1 + token.length > maxWidth)) {
      lines.push(line);
      line = token;
    } else {
      line = line ? line + ' ' + token : token;
    }
    ended = endsLine(token);
  }
  if (line) lines.push(line);
  return lines.join('\n');
}

/** The game in PGN export format, ending with a newline. */
export function writePgn(game: PgnGameData, options: WritePgnOptions = {}): string {
  const maxWidth = options.maxWidth ?? 80;
  if (!Number.isInteger(maxWidth) || maxWidth < 1) throw new RangeError('maxWidth must be a positive integer');
  const t = new Tokens();
  for (const c of game.root.comments) t.push(commentToken(c));
  writeLine(t, game.root, startPly(game.headers), true);
  t.push(game.result);
  const tags = tagLines(game.headers);
  return (tags.length ? tags.join('\n') + '\n\n' : '') + wrap(t.out, maxWidth) + '\n';
}
