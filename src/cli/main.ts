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

import {
  AbortError,
  engineInfo,
  EngineError,
  FenError,
  JournalError,
  mergeUnits,
  PERFT_MAX_DEPTH as MAX_DEPTH,
  PERFT_MAX_THREADS as MAX_THREADS,
  perftAsync,
  PerftVerifyError,
  readPartFile,
  readUnitsFile,
  runUnits,
  splitPerft,
  START_FEN,
  UnitsError,
  writePartFile,
  writeUnitsFile,
  type PerftAsyncOptions,
  type PerftProgress,
  type Shard,
} from '../index';
import { commandPgn, PGN_HELP } from './pgn';
import {
  commandSignal,
  EXIT_FAILED,
  EXIT_INTERRUPTED,
  EXIT_USAGE,
  fail,
  inputFile,
  outputFile,
  outputStatus,
  UsageError,
  watchOutput,
} from './process';

const HELP = `Usage: chess-native <command> [options]

Commands:
  perft <depth>      count the leaves of the move tree
      --fen FEN        position (default: the start position)
      --divide         also print the count below each root move
      --chess960       parse the FEN as Chess960
      --threads N      native threads (default: ${os.availableParallelism()})
      --hash MB        transposition table size, 0 for none, auto for 3/4 of the
                       memory available (default: by depth); more than the memory
                       available is an error
      --verify         count twice with different hash key sets; exit 1 if they differ
      --json           print one JSON object on stdout
      --checkpoint FILE  journal finished work units in FILE; the same command
                       run again with FILE resumes (an absent FILE starts afresh)
  suite <file.epd>   check an EPD perft suite ("FEN ;D1 n ;D2 n ...")
      --max-nodes N    skip counts above N (default: 100000000)
      --depth D        check depths up to D only
      --chess960       the FENs are Chess960
      --threads N, --hash MB   as for perft
  bench              the six CPW positions at fixed depths, Mnps each and in total
      --threads N, --hash MB   as for perft (default table: none)
  split              split a perft into work units for a batch cluster
      --fen FEN, --depth D, --ply K, --out units.jsonl  (--chess960)
  run-units <units.jsonl>  count one shard of the units
      --shard I/N      shard I (0 .. N-1) of N; or --shards N and I from
                       JOB_COMPLETION_INDEX, else SLURM_ARRAY_TASK_ID, else
                       AWS_BATCH_JOB_ARRAY_INDEX (the first one set)
      --out FILE       the part file to write ("{shard}" becomes I)
      --threads N, --hash MB, --checkpoint FILE ("{shard}" becomes I)   as for perft
  merge <units.jsonl> <part files...>   sum the parts: the perft count
      --json           print one JSON object on stdout
${PGN_HELP}

  -h, --help         this help
  -v, --version      package, engine and code path versions

Exit status: 0 on success; 1 when a suite count mismatches, units / parts
are refused or do not add up, or a PGN file has errors; 2 on bad arguments,
a file that cannot be read or written (a journal of another run too); 130 on
Ctrl-C; 141 when stdout is closed early (as by | head): the command then
stops quietly. Errors are printed on stderr.`;

function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8')) as { version: string };
  return pkg.version;
}

function parseInteger(text: string, what: string, min: number, max: number): number {
  if (!/^\d+$/.test(text)) fail(`${what} must be an integer from ${min} to ${max}, got ${JSON.stringify(text)}`);
  const value = Number(text);
  if (value < min || value > max) fail(`${what} must be an integer from ${min} to ${max}, got ${text}`);
  return value;
}

function parseHash(text: string): number | 'auto' {
  if (text === 'auto') return text;
  if (!/^\d+(\.\d+)?$/.test(text)) fail(`--hash must be a size in MiB (0 for none) or auto, got ${JSON.stringify(text)}`);
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
      const units = p.unitsTotal === undefined ? '' : `${p.unitsDone}/${p.unitsTotal} units, `;
      const line =
        `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${p.rootMovesDone}/${p.rootMovesTotal} root moves, ${units}` +
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
    options: {
      ...SHARED_OPTIONS,
      fen: { type: 'string' },
      divide: { type: 'boolean' },
      json: { type: 'boolean' },
      verify: { type: 'boolean' },
      checkpoint: { type: 'string' },
    },
  });
  if (positionals.length !== 1) fail('perft needs exactly one depth: chess-native perft <depth> [options]');
  const depth = parseInteger(positionals[0] as string, 'depth', 0, MAX_DEPTH);
  const options = perftOptions(values);
  options.divide = values.divide === true;
  options.chess960 = values.chess960 === true;
  options.verify = values.verify === true;
  options.signal = commandSignal();
  if (values.checkpoint !== undefined) options.checkpoint = outputFile(values.checkpoint);
  const bar = values.json ? undefined : progressBar();
  if (bar) options.onProgress = bar.update;
  let result;
  try {
    result = await perftAsync(values.fen ?? START_FEN, depth, options);
  } finally {
    bar?.clear();
  }
  if (result.checkpoint && !values.json) {
    const { ply, units, unitsResumed } = result.checkpoint;
    process.stderr.write(`checkpoint: ${units} units at ply ${ply}, ${unitsResumed} recorded by earlier runs\n`);
  }
  if (values.json) {
    const out: Record<string, unknown> = { nodes: result.nodes, seconds: result.seconds, nps: Math.round(result.nps) };
    if (result.divide) out.divide = result.divide;
    if (result.hash.reason) out.hash = result.hash;
    if (result.verified) out.verified = true;
    if (result.checkpoint) out.checkpoint = result.checkpoint;
    process.stdout.write(`${toJson(out)}\n`);
    return 0;
  }
  if (result.divide) {
    for (const move of Object.keys(result.divide).sort()) process.stdout.write(`${move}: ${result.divide[move]}\n`);
    process.stdout.write('\n');
  }
  process.stdout.write(`nodes ${result.nodes}\ntime  ${result.seconds.toFixed(3)} s\nspeed ${(result.nps / 1e6).toFixed(1)} Mnps\n`);
  if (result.hash.reason) process.stdout.write(`hash  auto: ${result.hash.reason}\n`);
  if (result.verified) process.stdout.write(`verified: the same count with two hash key sets\n`);
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
  options.signal = commandSignal();
  const entries = readSuite(inputFile(file));
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
  return failed > 0 ? EXIT_FAILED : 0;
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
  options.signal = commandSignal();
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
  return wrong > 0 ? EXIT_FAILED : 0;
}

async function commandSplit(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      fen: { type: 'string' },
      depth: { type: 'string' },
      ply: { type: 'string' },
      out: { type: 'string' },
      chess960: { type: 'boolean' },
    },
  });
  if (positionals.length) fail('split takes no positional arguments: chess-native split --depth D --ply K --out FILE');
  if (values.depth === undefined || values.ply === undefined || values.out === undefined) fail('split needs --depth, --ply and --out');
  const depth = parseInteger(values.depth, '--depth', 0, MAX_DEPTH);
  const ply = parseInteger(values.ply, '--ply', 0, depth);
  outputFile(values.out);
  const set = splitPerft(values.fen ?? START_FEN, depth, ply, { chess960: values.chess960 === true });
  writeUnitsFile(values.out, set);
  const m = set.manifest;
  process.stdout.write(
    `${m.units} units at ply ${m.ply} (multiplicity ${m.multiplicity}), remaining depth ${m.remainingDepth}, ` +
      `checksum ${m.checksum.slice(0, 16)}: ${values.out}\n`,
  );
  return 0;
}

/** Environment variables that batch systems set to an array job's index, first wins. */
const SHARD_INDEX_VARIABLES = ['JOB_COMPLETION_INDEX', 'SLURM_ARRAY_TASK_ID', 'AWS_BATCH_JOB_ARRAY_INDEX'];

function shardArgument(shard: string | undefined, shards: string | undefined): Shard {
  if (shard !== undefined) {
    if (shards !== undefined) fail('give --shard I/N or --shards N, not both');
    const match = /^(\d+)\/(\d+)$/.exec(shard);
    if (!match) fail(`--shard must be I/N (e.g. 0/4), got ${JSON.stringify(shard)}`);
    const count = parseInteger(match[2] as string, 'the shard count N', 1, Number.MAX_SAFE_INTEGER);
    return { index: parseInteger(match[1] as string, 'the shard index I', 0, count - 1), count };
  }
  if (shards === undefined) fail('run-units needs --shard I/N, or --shards N with the index in the environment');
  const count = parseInteger(shards, '--shards', 1, Number.MAX_SAFE_INTEGER);
  const variable = SHARD_INDEX_VARIABLES.find((name) => (process.env[name] ?? '') !== '');
  if (!variable) fail(`--shards needs the shard index in one of ${SHARD_INDEX_VARIABLES.join(', ')}`);
  return { index: parseInteger(process.env[variable] as string, variable, 0, count - 1), count };
}

async function commandRunUnits(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      threads: SHARED_OPTIONS.threads,
      hash: SHARED_OPTIONS.hash,
      shard: { type: 'string' },
      shards: { type: 'string' },
      out: { type: 'string' },
      checkpoint: { type: 'string' },
    },
  });
  if (positionals.length !== 1) fail('run-units needs exactly one units file: chess-native run-units <units.jsonl> --shard I/N --out FILE');
  if (values.out === undefined) fail('run-units needs --out FILE');
  const shard = shardArgument(values.shard, values.shards);
  const named = (file: string): string => file.split('{shard}').join(String(shard.index));
  const set = readUnitsFile(inputFile(positionals[0] as string));
  outputFile(named(values.out));
  if (values.checkpoint !== undefined) outputFile(named(values.checkpoint));
  const options = perftOptions(values);
  const bar = progressBar();
  let part;
  try {
    part = await runUnits(set, {
      ...options,
      shard,
      ...(values.checkpoint === undefined ? {} : { checkpoint: named(values.checkpoint) }),
      signal: commandSignal(),
      onProgress: (p) => bar.update({ nodes: p.nodes, rootMovesDone: p.unitsDone, rootMovesTotal: p.unitsTotal, elapsedMs: p.elapsedMs }),
    });
  } finally {
    bar.clear();
  }
  const out = named(values.out);
  writePartFile(out, part);
  process.stdout.write(`shard ${shard.index}/${shard.count}: ${part.records.length} units in ${part.seconds.toFixed(3)} s: ${out}\n`);
  return 0;
}

async function commandMerge(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { json: { type: 'boolean' } } });
  if (positionals.length < 1) fail('merge needs the units file and the part files: chess-native merge <units.jsonl> <part files...>');
  const [unitsFile, ...partFiles] = positionals as [string, ...string[]];
  const set = readUnitsFile(inputFile(unitsFile));
  const result = mergeUnits(
    set,
    partFiles.map((file) => readPartFile(inputFile(file))),
  );
  const m = set.manifest;
  if (values.json) {
    process.stdout.write(
      `${toJson({ nodes: result.nodes, fen: m.fen, depth: m.depth, units: result.units, parts: result.parts, seconds: result.seconds })}\n`,
    );
  } else {
    process.stdout.write(
      `nodes ${result.nodes}\nperft(${m.depth}) of ${m.fen}: ${result.units} units in ${result.parts} part(s), ` +
        `${result.seconds.toFixed(3)} s of shard runs\n`,
    );
  }
  return 0;
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
    case 'split':
      return commandSplit(rest);
    case 'run-units':
      return commandRunUnits(rest);
    case 'merge':
      return commandMerge(rest);
    case 'pgn':
      return commandPgn(rest, commandSignal());
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

/** Says on stderr, in one line, why the command failed; returns the exit status. */
function report(error: unknown): number {
  if (error instanceof AbortError) {
    process.stderr.write('chess-native: interrupted\n');
    return EXIT_INTERRUPTED;
  }
  if (typeof (error as NodeJS.ErrnoException)?.syscall === 'string') {
    // A file that cannot be read or written: the message names it and the reason.
    process.stderr.write(`chess-native: ${(error as Error).message}\n`);
    return EXIT_USAGE;
  }
  if (error instanceof UnitsError) {
    process.stderr.write(`chess-native: ${error.message}\n`);
    return EXIT_FAILED;
  }
  if (
    error instanceof UsageError ||
    error instanceof JournalError ||
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
    return EXIT_USAGE;
  }
  if (error instanceof PerftVerifyError) {
    process.stderr.write(`chess-native: ${error.message}\n`);
    return EXIT_FAILED;
  }
  if (error instanceof EngineError) {
    process.stderr.write(`chess-native: engine error (${error.code}): ${error.message}\n`);
    return EXIT_FAILED;
  }
  // Not the user's fault: still one line, but say what it was.
  process.stderr.write(`chess-native: internal error: ${error instanceof Error ? error.message : String(error)}\n`);
  return EXIT_FAILED;
}

watchOutput();
main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = outputStatus() ?? code;
  },
  (error: unknown) => {
    // Once stdout has failed, whatever stopped the work follows from that.
    process.exitCode = outputStatus() ?? report(error);
  },
);
