#!/usr/bin/env node
// chess-native command line: perft, EPD suites, a benchmark, PGN files.
//
// Arguments are parsed with node:util's parseArgs (strict mode: unknown flags
// and missing values are errors): it is part of Node, so the CLI adds no
// dependency, and the commands need nothing more than flags and positionals.
import { readFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';

import { AbortError, EngineError, FenError } from './errors';
import { engineInfo } from './index';
import { perftAsync, type PerftAsyncOptions, type PerftProgress } from './perft';
import { commandPgn, PGN_HELP } from './cli-pgn';
import { START_FEN } from './fen';
import { native } from './native';

const { maxDepth: MAX_DEPTH, maxThreads: MAX_THREADS } = native.limits;

const EXIT_MISMATCH = 1;
const EXIT_USAGE = 2;
const EXIT_INTERRUPTED = 130;

const HELP = `Usage: chess-native <command> [options]

Commands:
  perft <depth>      count the leaves of the move tree
      --fen FEN        position (default: the start position)
      --divide         also print the count below each root move
      --chess960       parse the FEN as Chess960
      --threads N      native threads (default: ${os.availableParallelism()})
      --hash MB        transposition table size, 0 for none (default: by depth)
      --json           print one JSON object on stdout
  suite <file.epd>   check an EPD perft suite ("FEN ;D1 n ;D2 n ...")
      --max-nodes N    skip counts above N (default: 100000000)
      --depth D        check depths up to D only
      --chess960       the FENs are Chess960
      --threads N, --hash MB   as for perft
  bench              the six CPW positions at fixed depths, Mnps each and in total
      --threads N, --hash MB   as for perft (default table: none)
${PGN_HELP}

  -h, --help         this help
  -v, --version      package, engine and code path versions

Exit status: 0 on success, 1 when a suite count mismatches, 2 on bad input, 130 on Ctrl-C.`;

/** An error the user caused: printed as one line, exit status 2. */
class UsageError extends Error {}

function fail(message: string): never {
  throw new UsageError(message);
}

function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8')) as { version: string };
  return pkg.version;
}

function parseInteger(text: string, what: string, min: number, max: number): number {
  if (!/^\d+$/.test(text)) fail(`${what} must be an integer from ${min} to ${max}, got ${JSON.stringify(text)}`);
  const value = Number(text);
  if (value < min || value > max) fail(`${what} must be an integer from ${min} to ${max}, got ${text}`);
  return value;
}

function parseHash(text: string): number {
  if (!/^\d+(\.\d+)?$/.test(text)) fail(`--hash must be a size in MiB (0 for none), got ${JSON.stringify(text)}`);
  return Number(text);
}

/** JSON with bigints written as exact integer literals (valid JSON at any size). */
function toJson(value: unknown): string {
  if (typeof value === 'bigint') return value.toString();
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  const entries = Object.entries(value as Record<string, unknown>).map(([k, v]) => `${JSON.stringify(k)}: ${toJson(v)}`);
  return `{ ${entries.join(', ')} }`;
}

function formatCount(n: bigint): string {
  return n.toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** A one-line progress bar on stderr, redrawn in place; only on a TTY. */
function progressBar(): { update: (p: PerftProgress) => void; clear: () => void } {
  const stream = process.stderr;
  if (!stream.isTTY) return { update: () => {}, clear: () => {} };
  let drawn = false;
  return {
    update(p) {
      const width = 30;
      const fraction = p.rootMovesTotal > 0 ? p.rootMovesDone / p.rootMovesTotal : 1;
      const filled = Math.round(fraction * width);
      const seconds = p.elapsedMs / 1000;
      const mnps = seconds > 0 ? Number(p.nodes) / seconds / 1e6 : 0;
      const line =
        `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${p.rootMovesDone}/${p.rootMovesTotal} root moves, ` +
        `${formatCount(p.nodes)} nodes, ${seconds.toFixed(1)} s, ${mnps.toFixed(0)} Mnps`;
      stream.write(`\r${line.slice(0, Math.max(20, (stream.columns || 100) - 1))}\x1b[K`);
      drawn = true;
    },
    clear() {
      if (drawn) stream.write('\r\x1b[K');
      drawn = false;
    },
  };
}

/** Ctrl-C aborts the running perft instead of killing the process mid-write. */
function interruptSignal(): AbortSignal {
  const controller = new AbortController();
  process.once('SIGINT', () => controller.abort());
  return controller.signal;
}

const SHARED_OPTIONS = {
  threads: { type: 'string' },
  hash: { type: 'string' },
  chess960: { type: 'boolean' },
} as const;

function perftOptions(values: { threads?: string | undefined; hash?: string | undefined }): PerftAsyncOptions {
  const options: PerftAsyncOptions = {};
  if (values.threads !== undefined) options.threads = parseInteger(values.threads, '--threads', 1, MAX_THREADS);
  if (values.hash !== undefined) options.hashMb = parseHash(values.hash);
  return options;
}

async function commandPerft(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { ...SHARED_OPTIONS, fen: { type: 'string' }, divide: { type: 'boolean' }, json: { type: 'boolean' } },
  });
  if (positionals.length !== 1) fail('perft needs exactly one depth: chess-native perft <depth> [options]');
  const depth = parseInteger(positionals[0] as string, 'depth', 0, MAX_DEPTH);
  const options = perftOptions(values);
  options.divide = values.divide === true;
  options.chess960 = values.chess960 === true;
  options.signal = interruptSignal();
  const bar = values.json ? undefined : progressBar();
  if (bar) options.onProgress = bar.update;
  let result;
  try {
    result = await perftAsync(values.fen ?? START_FEN, depth, options);
  } finally {
    bar?.clear();
  }
  if (values.json) {
    const out: Record<string, unknown> = { nodes: result.nodes, seconds: result.seconds, nps: Math.round(result.nps) };
    if (result.divide) out.divide = result.divide;
    process.stdout.write(`${toJson(out)}\n`);
    return 0;
  }
  if (result.divide) {
    for (const move of Object.keys(result.divide).sort()) process.stdout.write(`${move}: ${result.divide[move]}\n`);
    process.stdout.write('\n');
  }
  process.stdout.write(`nodes ${result.nodes}\ntime  ${result.seconds.toFixed(3)} s\nspeed ${(result.nps / 1e6).toFixed(1)} Mnps\n`);
  return 0;
}

interface SuiteEntry {
  line: number;
  fen: string;
  counts: Array<[number, bigint]>;
}

/** "FEN ;D1 n ;D2 n ...", with a 4- or 6-field FEN; blank lines and # comments are skipped. */
function readSuite(file: string): SuiteEntry[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    fail(`cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`);
  }
  const entries: SuiteEntry[] = [];
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const [fen, ...fields] = line.split(';');
    const counts: Array<[number, bigint]> = [];
    for (const field of fields) {
      const match = /^\s*D(\d+)\s+(\d+)\s*$/.exec(field);
      if (!match) fail(`${file}:${index + 1}: expected ";D<depth> <count>", got ${JSON.stringify(field.trim())}`);
      counts.push([Number(match[1]), BigInt(match[2] as string)]);
    }
    entries.push({ line: index + 1, fen: (fen as string).trim(), counts });
  });
  return entries;
}

async function commandSuite(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { ...SHARED_OPTIONS, 'max-nodes': { type: 'string' }, depth: { type: 'string' } },
  });
  if (positionals.length !== 1) fail('suite needs exactly one file: chess-native suite <file.epd> [options]');
  const file = positionals[0] as string;
  const maxNodes =
    values['max-nodes'] === undefined ? 100_000_000n : BigInt(parseInteger(values['max-nodes'], '--max-nodes', 0, Number.MAX_SAFE_INTEGER));
  const maxDepth = values.depth === undefined ? MAX_DEPTH : parseInteger(values.depth, '--depth', 0, MAX_DEPTH);
  const options = perftOptions(values);
  options.chess960 = values.chess960 === true;
  options.signal = interruptSignal();
  const entries = readSuite(file);
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  let nodes = 0n;
  const start = performance.now();
  for (const entry of entries) {
    for (const [depth, expected] of entry.counts) {
      if (depth > maxDepth || expected > maxNodes) {
        skipped++;
        continue;
      }
      let got: bigint;
      try {
        got = (await perftAsync(entry.fen, depth, options)).nodes;
      } catch (e) {
        if (e instanceof FenError) {
          failed++;
          process.stdout.write(`FAIL line ${entry.line} bad FEN (${e.message}): ${entry.fen}\n`);
          break;
        }
        throw e;
      }
      nodes += got;
      if (got === expected) {
        passed++;
        process.stdout.write(`ok   line ${entry.line} D${depth} ${expected}  ${entry.fen}\n`);
      } else {
        failed++;
        process.stdout.write(`FAIL line ${entry.line} D${depth} expected ${expected}, got ${got}  ${entry.fen}\n`);
      }
    }
  }
  const seconds = (performance.now() - start) / 1000;
  process.stdout.write(
    `\n${passed} passed, ${failed} failed, ${skipped} skipped (above --max-nodes or --depth); ` +
      `${formatCount(nodes)} nodes in ${seconds.toFixed(2)} s\n`,
  );
  return failed > 0 ? EXIT_MISMATCH : 0;
}

/** The six positions of the Chess Programming Wiki's perft page, with their published counts. */
const BENCH_POSITIONS: Array<{ name: string; fen: string; depth: number; nodes: bigint }> = [
  { name: 'start', fen: START_FEN, depth: 6, nodes: 119060324n },
  { name: 'kiwipete', fen: 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1', depth: 5, nodes: 193690690n },
  { name: 'position 3', fen: '8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1', depth: 7, nodes: 178633661n },
  { name: 'position 4', fen: 'r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1', depth: 6, nodes: 706045033n },
  { name: 'position 5', fen: 'rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8', depth: 5, nodes: 89941194n },
  { name: 'position 6', fen: 'r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10', depth: 5, nodes: 164075551n },
];

async function commandBench(args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: { threads: SHARED_OPTIONS.threads, hash: SHARED_OPTIONS.hash } });
  const options = perftOptions(values);
  options.hashMb ??= 0;
  options.signal = interruptSignal();
  const info = engineInfo();
  process.stdout.write(
    `chess-native ${packageVersion()}, engine ${info.version}, code path ${info.impl}, ` +
      `${options.threads ?? os.availableParallelism()} thread(s), hash ${options.hashMb} MiB\n\n`,
  );
  let nodes = 0n;
  let seconds = 0;
  let wrong = 0;
  for (const p of BENCH_POSITIONS) {
    const result = await perftAsync(p.fen, p.depth, options);
    const ok = result.nodes === p.nodes;
    if (!ok) wrong++;
    nodes += result.nodes;
    seconds += result.seconds;
    process.stdout.write(
      `${p.name.padEnd(11)} D${p.depth} ${formatCount(result.nodes).padStart(13)} ${result.seconds.toFixed(3).padStart(7)} s ` +
        `${(result.nps / 1e6).toFixed(1).padStart(8)} Mnps${ok ? '' : `  WRONG, expected ${p.nodes}`}\n`,
    );
  }
  process.stdout.write(
    `${'total'.padEnd(14)} ${formatCount(nodes).padStart(13)} ${seconds.toFixed(3).padStart(7)} s ` +
      `${(Number(nodes) / seconds / 1e6).toFixed(1).padStart(8)} Mnps\n`,
  );
  return wrong > 0 ? EXIT_MISMATCH : 0;
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'perft':
      return commandPerft(rest);
    case 'suite':
      return commandSuite(rest);
    case 'bench':
      return commandBench(rest);
    case 'pgn':
      return commandPgn(rest, interruptSignal());
    case undefined:
    case '-h':
    case '--help':
    case 'help':
      process.stdout.write(`${HELP}\n`);
      return command === undefined ? EXIT_USAGE : 0;
    case '-v':
    case '--version': {
      const info = engineInfo();
      process.stdout.write(`chess-native ${packageVersion()} (engine ${info.version}, ${info.impl})\n`);
      return 0;
    }
    default:
      return fail(`unknown command ${JSON.stringify(command)} (try --help)`);
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    let code = EXIT_USAGE;
    if (error instanceof AbortError) {
      process.stderr.write('chess-native: interrupted\n');
      code = EXIT_INTERRUPTED;
    } else if (
      error instanceof UsageError ||
      error instanceof FenError ||
      error instanceof RangeError ||
      error instanceof TypeError ||
      (error as { code?: string })?.code?.startsWith('ERR_PARSE_ARGS')
    ) {
      const prefix = error instanceof FenError ? 'invalid FEN: ' : '';
      // One line, even for parseArgs' multi-line messages.
      const message = (error as Error).message
        .split('\n')
        .map((l) => l.trim())
        .filter(Boolean)
        .join(' ');
      process.stderr.write(`chess-native: ${prefix}${message}\n`);
    } else if (error instanceof EngineError) {
      process.stderr.write(`chess-native: engine error (${error.code}): ${error.message}\n`);
      code = 1;
    } else {
      // Not the user's fault: still one line, but say what it was.
      process.stderr.write(`chess-native: internal error: ${error instanceof Error ? error.message : String(error)}\n`);
      code = 1;
    }
    process.exitCode = code;
  },
);
