// Reading PGN text as chess.js's loadPgn does: its grammar (tag pairs
// without escapes, one comment after a move, NAGs, suffix annotations,
// variations that are read and dropped, an optional result with one
// comment) and its syntax errors, whose messages list what was expected at
// the furthest point the reading reached, as chess.js's generated parser
// words them.

/** A mainline move and the comment after it. */
interface PgnMoveText {
  san: string;
  comment: string | undefined;
}

export interface ParsedPgn {
  headers: Record<string, string>;
  /** The comment before the first move. */
  rootComment: string | undefined;
  moves: PgnMoveText[];
  result: string | undefined;
}

/** The error chess.js's parser throws: an Error named SyntaxError. */
class PgnSyntaxError extends Error {
  override name = 'SyntaxError';
}

const RESULTS = ['1-0', '0-1', '1/2-1/2', '*'];

function isSpace(c: string | undefined): boolean {
  return c === ' ' || c === '\t' || c === '\r' || c === '\n';
}

function isLetter(c: string | undefined): boolean {
  return c !== undefined && ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'));
}

function isSanChar(c: string | undefined): boolean {
  return isLetter(c) || (c !== undefined && ((c >= '1' && c <= '8') || c === '-' || c === '='));
}

/** A character as chess.js's parser quotes the one it found. */
function quote(c: string): string {
  const named: Record<string, string> = { '\\': '\\\\', '"': '\\"', '\0': '\\0', '\t': '\\t', '\n': '\\n', '\r': '\\r' };
  const code = c.charCodeAt(0);
  let text = named[c] ?? c;
  if (named[c] === undefined && (code < 0x20 || (code >= 0x7f && code <= 0x9f)))
    text = '\\x' + code.toString(16).toUpperCase().padStart(2, '0');
  return `"${text}"`;
}

class Reader {
  i = 0;
  #silent = 0;
  #failAt = 0;
  #expected: string[] = [];

  constructor(readonly s: string) {}

  #record(at: number, what: string): void {
    if (this.#silent > 0 || at < this.#failAt) return;
    if (at > this.#failAt) {
      this.#failAt = at;
      this.#expected = [];
    }
    this.#expected.push(what);
  }

  /** A rule with a name: its inner failures are not reported, its own is. */
  named<T>(name: string, rule: () => T | undefined): T | undefined {
    const start = this.i;
    this.#silent++;
    const result = rule();
    this.#silent--;
    if (result === undefined) {
      this.i = start;
      this.#record(start, name);
    }
    return result;
  }

  ws(): void {
    while (isSpace(this.s[this.i])) this.i++;
    this.#record(this.i, 'whitespace');
  }

  literal(text: string): boolean {
    if (!this.s.startsWith(text, this.i)) return false;
    this.i += text.length;
    return true;
  }

  error(): PgnSyntaxError {
    if (this.i < this.s.length) this.#record(this.i, 'end of input');
    const expected = [...new Set(this.#expected)].sort();
    const last = expected.length > 1 ? expected.pop() : undefined;
    let text = expected.join(', ');
    if (last !== undefined) text += expected.length > 1 ? `, or ${last}` : ` or ${last}`;
    const found = this.#failAt < this.s.length ? quote(this.s[this.#failAt] as string) : 'end of input';
    return new PgnSyntaxError(`Expected ${text} but ${found} found.`);
  }
}

/** A sequence: runs `rule`, and on failure puts the position back. */
function seq<T>(r: Reader, rule: () => T | undefined): T | undefined {
  const start = r.i;
  const result = rule();
  if (result === undefined) r.i = start;
  return result;
}

function tagPair(r: Reader): [string, string] | undefined {
  return r.named('tag pair', () => {
    r.ws();
    if (!r.literal('[')) return undefined;
    r.ws();
    const name = r.named('tag name', () => {
      const start = r.i;
      while (isLetter(r.s[r.i])) r.i++;
      return r.i > start ? r.s.slice(start, r.i) : undefined;
    });
    if (name === undefined) return undefined;
    r.ws();
    if (!r.literal('"')) return undefined;
    const start = r.i;
    while (r.i < r.s.length && r.s[r.i] !== '"') r.i++;
    const value = r.s.slice(start, r.i);
    if (!r.literal('"')) return undefined;
    r.ws();
    return r.literal(']') ? [name, value] : undefined;
  });
}

function comment(r: Reader): string | undefined {
  const brace = r.named('brace comment', () => {
    if (!r.literal('{')) return undefined;
    const end = r.s.indexOf('}', r.i);
    if (end < 0) return undefined;
    const text = r.s.slice(r.i, end);
    r.i = end + 1;
    return text.replace(/[\r\n]+/g, ' ');
  });
  if (brace !== undefined) return brace;
  return r.named('rest of line comment', () => {
    if (!r.literal(';')) return undefined;
    const start = r.i;
    while (r.i < r.s.length && r.s[r.i] !== '\r' && r.s[r.i] !== '\n') r.i++;
    return r.s.slice(start, r.i).trim();
  });
}

function moveNumber(r: Reader): true | undefined {
  return r.named('move number', () => {
    while (r.s[r.i]! >= '0' && r.s[r.i]! <= '9') r.i++;
    if (!r.literal('.')) return undefined;
    r.ws();
    while (r.s[r.i] === '.') r.i++;
    return true;
  });
}

function san(r: Reader): string | undefined {
  return r.named('standard algebraic notation', () => {
    const start = r.i;
    if (!['O-O-O', 'O-O', '0-0-0', '0-0'].some((castle) => r.literal(castle))) {
      if (!isLetter(r.s[r.i]) || !isSanChar(r.s[r.i + 1])) return undefined;
      r.i += 2;
      while (isSanChar(r.s[r.i])) r.i++;
    }
    if (r.s[r.i] === '+' || r.s[r.i] === '#') r.i++;
    return r.s.slice(start, r.i);
  });
}

function annotations(r: Reader): void {
  r.named('suffix annotation', () => {
    const start = r.i;
    while (r.i - start < 2 && (r.s[r.i] === '!' || r.s[r.i] === '?')) r.i++;
    return r.i > start ? true : undefined;
  });
  while (
    r.named('NAG', () => {
      r.ws();
      if (!r.literal('$')) return undefined;
      const start = r.i;
      while (r.s[r.i]! >= '0' && r.s[r.i]! <= '9') r.i++;
      return r.i > start ? true : undefined;
    })
  );
}

function variation(r: Reader): true | undefined {
  return r.named('variation', () => {
    r.ws();
    if (!r.literal('(')) return undefined;
    line(r);
    r.ws();
    return r.literal(')') ? true : undefined;
  });
}

function move(r: Reader): PgnMoveText | undefined {
  return seq(r, () => {
    r.ws();
    moveNumber(r);
    r.ws();
    const text = san(r);
    if (text === undefined) return undefined;
    annotations(r);
    r.ws();
    const after = comment(r);
    while (variation(r));
    return { san: text, comment: after };
  });
}

function line(r: Reader): { comment: string | undefined; moves: PgnMoveText[] } {
  const first = comment(r);
  const moves: PgnMoveText[] = [];
  for (let m = move(r); m !== undefined; m = move(r)) moves.push(m);
  return { comment: first, moves };
}

function marker(r: Reader): { result: string; comment: string | undefined } | undefined {
  return r.named('game termination marker', () => {
    const result = RESULTS.find((token) => r.literal(token));
    if (result === undefined) return undefined;
    r.ws();
    return { result, comment: comment(r) };
  });
}

/** The headers and mainline of PGN text; a PgnSyntaxError where chess.js's parser throws one. */
export function readPgnText(text: string): ParsedPgn {
  const r = new Reader(text);
  const pairs: [string, string][] = [];
  for (let pair = tagPair(r); pair !== undefined; pair = tagPair(r)) pairs.push(pair);
  r.ws();
  const main = line(r);
  r.ws();
  const end = marker(r);
  r.ws();
  if (r.i < text.length) throw r.error();
  let rootComment = main.comment;
  const moves = main.moves;
  if (end?.comment) {
    const last = moves[moves.length - 1];
    if (last !== undefined) last.comment = end.comment;
    else rootComment = end.comment;
  }
  return { headers: Object.fromEntries(pairs), rootComment, moves, result: end?.result };
}
