// The commands embedded in PGN comments ([%clk], [%emt], [%eval], [%csl],
// [%cal]) as typed fields. The comment text itself is kept as written.

/** An engine evaluation from `[%eval ...]`: pawns from White's view, or mate in N (negative: Black mates). */
export type PgnEval = { pawns: number; depth?: number } | { mate: number; depth?: number };

/** A square or arrow highlight from `[%csl ...]` / `[%cal ...]`; `to` equals `from` for a square. */
export interface PgnShape {
  color: 'green' | 'red' | 'yellow' | 'blue';
  from: string;
  to: string;
}

/** What the commands of a move's comments say (undefined where none says it). */
export interface CommentCommands {
  clock?: number | undefined;
  emt?: number | undefined;
  eval?: PgnEval | undefined;
  shapes?: PgnShape[] | undefined;
}

/** The commands of all `comments`, later ones winning (shapes add up). */
export function commandsOf(comments: readonly string[]): CommentCommands {
  const into: CommentCommands = {};
  for (const c of comments) readCommands(c, into);
  return into;
}

const COLORS: Record<string, PgnShape['color']> = { G: 'green', R: 'red', Y: 'yellow', B: 'blue' };

/** Seconds in "h:mm:ss(.f)", "m:ss" or "ss"; undefined when it is not a time. */
function parseClock(text: string): number | undefined {
  const parts = text.split(':');
  if (parts.length > 3) return undefined;
  let seconds = 0;
  for (let i = 0; i < parts.length; i++) {
    // Every part is digits (at most 2 after the first); only the last may have a fraction.
    const last = i === parts.length - 1;
    if (!isDigits(parts[i] as string, i > 0 ? 2 : Infinity, last)) return undefined;
    seconds = seconds * 60 + Number(parts[i]);
  }
  return seconds;
}

/** Digits, maxWhole at most before a '.' (allowed when `fraction`, not first or last). */
function isDigits(s: string, maxWhole: number, fraction: boolean): boolean {
  const dot = fraction ? s.indexOf('.') : -1;
  const whole = dot < 0 ? s.length : dot;
  if (whole === 0 || whole > maxWhole || dot === s.length - 1) return false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if ((c < 48 || c > 57) && i !== dot) return false;
  }
  return true;
}

function parseEval(text: string): PgnEval | undefined {
  const m = /^(#)?([+-]?\d+(?:\.\d+)?)(?:,(\d+))?$/.exec(text);
  if (!m) return undefined;
  const value = Number(m[2]);
  const result: PgnEval = m[1] ? { mate: value } : { pawns: value };
  if (m[3] !== undefined) result.depth = Number(m[3]);
  return m[1] && !Number.isInteger(value) ? undefined : result;
}

function parseShapes(text: string, out: PgnShape[]): void {
  for (const item of text.split(/[,\s]+/)) {
    const m = /^([GRYB])([a-h][1-8])([a-h][1-8])?$/.exec(item);
    if (m) out.push({ color: COLORS[m[1] as string] as PgnShape['color'], from: m[2] as string, to: m[3] ?? (m[2] as string) });
  }
}

/** Adds what `comment`'s commands say to `into` (later commands win; shapes add up). */
function readCommands(comment: string, into: CommentCommands): void {
  for (let at = comment.indexOf('[%'); at >= 0; at = comment.indexOf('[%', at + 2)) {
    const close = comment.indexOf(']', at);
    if (close < 0) return;
    const body = comment.slice(at + 2, close);
    const space = body.search(/\s/);
    if (space < 0) continue;
    const name = body.slice(0, space);
    const arg = body.slice(space + 1).trim();
    if (name === 'clk' || name === 'emt') {
      const seconds = parseClock(arg);
      if (seconds !== undefined) into[name === 'clk' ? 'clock' : 'emt'] = seconds;
    } else if (name === 'eval') {
      const value = parseEval(arg);
      if (value !== undefined) into.eval = value;
    } else if (name === 'csl' || name === 'cal') {
      parseShapes(arg, (into.shapes ??= []));
    }
  }
}
