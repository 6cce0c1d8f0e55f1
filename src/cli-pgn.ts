// `chess-native pgn <file>`: counts games, plies and errors of a PGN file
// (errors as file:line:column), or converts it (--to), with a progress bar
// on a terminal and the speed in games/s.
import { statSync } from 'node:fs';
import { parseArgs } from 'node:util';

import type { Game } from './pgn-game';
import { PGN_MAX_THREADS, readPgn, type PgnMode, type PgnProgress } from './pgn';
import { writePgn } from './pgn-writer';

export const PGN_HELP = `  pgn <file>         read a PGN file: games, plies, errors (file:line:column), games/s
      --to FORMAT      print each game instead: uci | san (mainline moves, one game a line),
                       fen | epd (final position), pgn (export format)
      --headers-only   read tags only (with --json: one object a game)
      --json           JSON: a summary object, or one object a game with --to / --headers-only
      --threads N      native threads reading the file (1 to ${PGN_MAX_THREADS}; default 1)`;

const FORMATS = ['uci', 'san', 'fen', 'epd', 'pgn'] as const;
type Format = (typeof FORMATS)[number];

interface PgnCliOptions {
  file: string;
  to: Format | undefined;
  headersOnly: boolean;
  json: boolean;
  threads: number;
}

function options(args: string[]): PgnCliOptions {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    strict: true,
    options: { to: { type: 'string' }, 'headers-only': { type: 'boolean' }, json: { type: 'boolean' }, threads: { type: 'string' } },
  });
  const [file, ...extra] = positionals;
  if (file === undefined || extra.length) throw new RangeError('pgn needs exactly one file');
  const to = values.to as Format | undefined;
  if (to !== undefined && !FORMATS.includes(to)) throw new RangeError(`--to must be one of ${FORMATS.join(', ')}`);
  const threads = values.threads === undefined ? 1 : Number(values.threads);
  if (!Number.isInteger(threads) || threads < 1 || threads > PGN_MAX_THREADS)
    throw new RangeError(`--threads must be an integer from 1 to ${PGN_MAX_THREADS}`);
  try {
    statSync(file);
  } catch (e) {
    throw new RangeError(`cannot read ${file}: ${(e as Error).message}`, { cause: e });
  }
  return { file, to, headersOnly: values['headers-only'] === true, json: values.json === true, threads };
}

function progressLine(): { update: (p: PgnProgress) => void; clear: () => void } {
  const stream = process.stderr;
  if (!stream.isTTY) return { update: () => {}, clear: () => {} };
  const start = performance.now();
  return {
    update(p) {
      const width = 30;
      const fraction = p.totalBytes ? p.bytes / p.totalBytes : 0;
      const filled = Math.round(fraction * width);
      const rate = p.games / Math.max(1e-3, (performance.now() - start) / 1000);
      stream.write(`\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${p.games} games, ${rate.toFixed(0)} games/s\x1b[K`);
    },
    clear() {
      stream.write('\r\x1b[K');
    },
  };
}

/** One game as the line(s) --to asks for. */
function converted(game: Game, to: Format, json: boolean): string {
  const moves = () => game.moves();
  let value: string;
  if (to === 'uci')
    value = moves()
      .map((m) => m.uci)
      .join(' ');
  else if (to === 'san')
    value = moves()
      .map((m) => m.san)
      .join(' ');
  else if (to === 'fen') value = game.finalFen;
  else if (to === 'epd') value = game.finalFen.split(' ').slice(0, 4).join(' ');
  else value = writePgn(game);
  return json ? JSON.stringify({ headers: game.headers, [to]: value, errors: game.errors }) : value;
}

function headersText(game: Game, json: boolean): string {
  if (json) return JSON.stringify({ headers: game.headers, errors: game.errors });
  return (
    Object.entries(game.headers)
      .map(([k, v]) => `[${k} "${v.replace(/[\\"]/g, (c) => '\\' + c)}"]`)
      .join('\n') + '\n'
  );
}

export async function commandPgn(args: string[], signal: AbortSignal): Promise<number> {
  const o = options(args);
  const mode: PgnMode = o.headersOnly ? 'headers' : o.to === 'pgn' ? 'tree' : 'mainline';
  const bar = o.to || o.headersOnly ? undefined : progressLine();
  const start = performance.now();
  let games = 0;
  let plies = 0;
  const errors: { file: string; line: number; column: number; game: number; ply: number; message: string }[] = [];
  const out: string[] = [];
  const flush = () => {
    if (out.length) process.stdout.write(out.join('\n') + '\n');
    out.length = 0;
  };
  for await (const game of readPgn(o.file, { mode, signal, threads: o.threads, ...(bar ? { onProgress: bar.update } : {}) })) {
    games++;
    if (o.headersOnly) out.push(headersText(game, o.json));
    else if (o.to) out.push(converted(game, o.to, o.json));
    else plies += game.moves().length;
    for (const e of game.errors) errors.push({ file: o.file, game: games, ...e });
    if (out.length >= 1000) flush();
  }
  flush();
  bar?.clear();
  if (o.to || o.headersOnly) return 0;
  const seconds = (performance.now() - start) / 1000;
  if (o.json) {
    process.stdout.write(JSON.stringify({ file: o.file, games, plies, errors, seconds }) + '\n');
    return 0;
  }
  for (const e of errors) process.stdout.write(`${e.file}:${e.line}:${e.column}: ${e.message} (game ${e.game}, ply ${e.ply})\n`);
  process.stdout.write(
    `${games} games, ${plies} plies, ${errors.length} errors in ${seconds.toFixed(2)} s (${(games / seconds).toFixed(0)} games/s)\n`,
  );
  return 0;
}
