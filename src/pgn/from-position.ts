// A position's history as a PGN game: the one place the core's Position
// meets the PGN writer, so the core imports nothing of PGN.
import { Position, START_FEN } from '../core/position';
import type { PgnNode, PgnRoot } from './game';
import { ROSTER_DEFAULTS, writePgn, type WritePgnOptions } from './writer';

/** Options of {@link toPgn}: writePgn's, and tags to add or override. */
export interface ToPgnOptions extends WritePgnOptions {
  headers?: Record<string, string>;
}

/**
 * The history of `position` as a PGN game in export format: the Seven Tag
 * Roster ("?" where `headers` gives no value), SetUp/FEN for a start other
 * than the standard one, Variant for Chess960, then the other `headers`.
 */
export function toPgn(position: Position, options: ToPgnOptions = {}): string {
  const start = position.startFen();
  const chess960 = position.chess960;
  const headers: Record<string, string> = { ...ROSTER_DEFAULTS };
  if (chess960) headers['Variant'] = 'Chess960';
  if (start !== START_FEN || chess960) Object.assign(headers, { SetUp: '1', FEN: start });
  Object.assign(headers, options.headers ?? {});
  const ucis = position.history();
  const sans = new Position(start, { chess960 }).sanLine(ucis);
  // Built from the last move back: each node is made with its one child.
  let children: PgnNode[] = [];
  for (let i = sans.length - 1; i >= 0; i--)
    children = [{ san: sans[i] as string, uci: ucis[i] as string, comments: [], nags: [], children }];
  const root: PgnRoot = { comments: [], children };
  return writePgn({ headers, result: headers['Result'] ?? '*', root }, options);
}
