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

/** What the commands of a move's comments say. */
export interface CommentCommands {
  clock?: number;
  emt?: number;
  eval?: PgnEval;
  shapes?: PgnShape[];
}

const COMMAND = /\[%(clk|emt|eval|csl|cal)\s+([^\]]*)\]/g;
const COLORS: Record<string, PgnShape['color']> = { G: 'green', R: 'red', Y: 'yellow', B: 'blue' };

/** Seconds in "h:mm:ss(.f)", "m:ss" or "ss"; undefined when it is not a time. */
export function parseClock(text: string): number | undefined {
  if (!/^\d+(:\d{1,2}){0,2}(\.\d+)?$/.test(text)) return undefined;
  let seconds = 0;
  for (const part of text.split(':')) seconds = seconds * 60 + Number(part);
  return seconds;
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
export function readCommands(comment: string, into: CommentCommands): void {
  if (!comment.includes('[%')) return;
  for (const m of comment.matchAll(COMMAND)) {
    const name = m[1] as string;
    const arg = (m[2] as string).trim();
    if (name === 'clk' || name === 'emt') {
      const seconds = parseClock(arg);
      if (seconds !== undefined) into[name === 'clk' ? 'clock' : 'emt'] = seconds;
    } else if (name === 'eval') {
      const value = parseEval(arg);
      if (value !== undefined) into.eval = value;
    } else {
      parseShapes(arg, (into.shapes ??= []));
    }
  }
}
