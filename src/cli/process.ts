// What the command line promises the shell: its exit statuses, one-line
// errors for what the user got wrong (naming the file), and a quiet end when
// stdout is closed early, as `cat | head -1` ends: no stack trace, the work
// stopped at once, status 141 (128 + SIGPIPE, what a shell reports for cat).
import { statSync } from 'node:fs';

/** A suite count or a verification differs, units are refused, a PGN file has errors. */
export const EXIT_FAILED = 1;
/** Bad arguments, a file that cannot be read or written, a journal of another run. */
export const EXIT_USAGE = 2;
export const EXIT_INTERRUPTED = 130;
const EXIT_OUTPUT_CLOSED = 141;

/** An error the user caused: printed as one line, exit status 2. */
export class UsageError extends Error {}

export function fail(message: string): never {
  throw new UsageError(message);
}

const controller = new AbortController();
let outputEnd: number | undefined;
let sigintWatched = false;

/**
 * The exit status once stdout has failed: 141 when its reader closed it
 * (nothing more is said), 2 for another write error (said once on stderr);
 * undefined while it works.
 */
export function outputStatus(): number | undefined {
  return outputEnd;
}

/**
 * Listens for stdout's end: a closed pipe (EPIPE, or a write after it) stops
 * the command's work through commandSignal(). stderr's own errors are
 * dropped: there is nowhere left to report them.
 */
export function watchOutput(): void {
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (outputEnd !== undefined) return;
    outputEnd = error.code === 'EPIPE' ? EXIT_OUTPUT_CLOSED : EXIT_USAGE;
    if (outputEnd === EXIT_USAGE) process.stderr.write(`chess-native: cannot write the output: ${error.message}\n`);
    process.exitCode = outputEnd;
    controller.abort(error);
  });
  process.stderr.on('error', () => {});
}

/** Aborted by Ctrl-C (the run stops instead of being killed mid-write) or by a closed stdout. */
export function commandSignal(): AbortSignal {
  if (!sigintWatched) process.once('SIGINT', () => controller.abort());
  sigintWatched = true;
  return controller.signal;
}

function kind(file: string): 'missing' | 'directory' | 'file' {
  try {
    return statSync(file).isDirectory() ? 'directory' : 'file';
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
    fail(`cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`);
  }
}

/** `file`, which the command reads: it must exist and not be a directory. */
export function inputFile(file: string): string {
  const k = kind(file);
  if (k === 'missing') fail(`cannot read ${file}: ENOENT (no such file)`);
  if (k === 'directory') fail(`cannot read ${file}: it is a directory`);
  return file;
}

/** `file`, which the command writes (or reads if present): it must not be a directory. */
export function outputFile(file: string): string {
  if (kind(file) === 'directory') fail(`cannot write ${file}: it is a directory`);
  return file;
}
