// `chess-native pgn <file>`: counts games, plies and errors of a PGN file,
// or converts it (--to), with a progress bar on a terminal and the speed in
// games/s. The file's errors go to stderr as file:line:column in every mode,
// and the exit status says whether there were any.
import { parseArgs } from 'node:util';

import { EXIT_FAILED, fail, inputFile } from './process';

import { PGN_MAX_THREADS, Position, readPgn, writePgn, type Game, type PgnError, type PgnMode, type PgnProgress } from '../index';

export const PGN_HELP = `  pgn <file>         read a PGN file: games, plies, games/s; each error in the file
                     on stderr as file:line:column (exit 1 if any)
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
  if (file === undefined || extra.length) fail('pgn needs exactly one file');
  const to = values.to as Format | undefined;
  if (to !== undefined && !FORMATS.includes(to)) fail(`--to must be one of ${FORMATS.join(', ')}`);
  const threads = values.threads === undefined ? 1 : Number(values.threads);
  if (!Number.isInteger(threads) || threads < 1 || threads > PGN_MAX_THREADS)
    fail(`--threads must be an integer from 1 to ${PGN_MAX_THREADS}`);
  return { file: inputFile(file), to, headersOnly: values['headers-only'] === true, json: values.json === true, threads };
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
  else if (to === 'epd') value = new Position(game.finalFen, { chess960: game.chess960 }).epd();
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

interface LocatedError extends PgnError {
  file: string;
  game: number;
}

const errorLine = (e: LocatedError) => `${e.file}:${e.line}:${e.column}: ${e.message} (game ${e.game}, ply ${e.ply})\n`;

export async function commandPgn(args: string[], signal: AbortSignal): Promise<number> {
  const o = options(args);
  const mode: PgnMode = o.headersOnly ? 'headers' : o.to === 'pgn' ? 'tree' : 'mainline';
  const perGame = o.to !== undefined || o.headersOnly;
  const bar = perGame ? undefined : progressLine();
  const start = performance.now();
  let games = 0;
  let plies = 0;
  let errorCount = 0;
  // Kept only for the JSON summary: the other modes print each error once read.
  const errors: LocatedError[] = [];
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
    if (game.errors.length) {
      // A game's errors follow its output on a terminal showing both.
      flush();
      bar?.clear();
    }
    for (const e of game.errors) {
      const located = { file: o.file, game: games, ...e };
      errorCount++;
      if (o.json && !perGame) errors.push(located);
      process.stderr.write(errorLine(located));
    }
    if (out.length >= 1000) flush();
  }
  flush();
  bar?.clear();
  const status = errorCount ? EXIT_FAILED : 0;
  if (perGame) return status;
  const seconds = (performance.now() - start) / 1000;
  if (o.json) process.stdout.write(JSON.stringify({ file: o.file, games, plies, errors, seconds }) + '\n');
  else
    process.stdout.write(
      `${games} games, ${plies} plies, ${errorCount} errors in ${seconds.toFixed(2)} s (${(games / seconds).toFixed(0)} games/s)\n`,
    );
  return status;
}
