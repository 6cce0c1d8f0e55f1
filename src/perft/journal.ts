// The checkpoint journal: an append-only text file recording each finished
// work unit of one run, so that the run can resume after a crash.
//
//   line 1   chess-native-journal 1 <header JSON> <SHA-256 of the two before>
//   then     <unit index> <count> <check>        one line per finished unit
//
// The header names the run (position, depth, Chess960 flag, split, engine key
// set, ...): a journal whose header differs from the run's is refused. A
// record's check is the first 64 bits of the SHA-256 of the header's digest,
// the index and the count, so a damaged record, or one copied from another
// journal, fails it. The header is written to a temporary file, flushed and
// renamed into place: a journal either does not exist or has a whole header.
// Records are written as soon as their units finish (a killed process loses
// none of them) and flushed to the disk (fsync) at least every
// SYNC_INTERVAL_MS and on close (a power loss loses at most those seconds).
//
// Reading back: a last line without its newline, or invalid lines after the
// last valid record, are what a crash mid-write leaves: they are dropped (the
// file is cut back to the last valid record) and their units are counted
// again. An invalid line followed by a valid one is corruption, not a torn
// write: the journal is refused. So is a unit recorded twice with different counts.
import * as fs from 'node:fs';
import * as path from 'node:path';

import { recordCheck, sha256 } from './digest';
import { JournalError } from '../core/errors';

const MAGIC = 'chess-native-journal 1 ';
/** fsync at least this often while records are being written. */
const SYNC_INTERVAL_MS = 2000;

/** The facts a journal is bound to; compared field by field when it is opened again. */
export type JournalHeader = Record<string, string | number | boolean>;

/** An open journal and what it already held. */
export interface OpenedJournal {
  journal: Journal;
  /** Units recorded before: index -> count. */
  counted: Map<number, bigint>;
  /** Bytes of a torn tail dropped from the end (0 when there was none). */
  droppedBytes: number;
}

function headerLine(header: JournalHeader): { line: string; digest: string } {
  const body = `${MAGIC}${JSON.stringify(header)}`;
  const digest = sha256(body);
  return { line: `${body} ${digest}\n`, digest };
}

/** Creates `file` holding only the header, atomically (temporary file, fsync, rename). */
function createJournal(file: string, header: JournalHeader): void {
  const temporary = `${file}.${process.pid}.tmp`;
  const fd = fs.openSync(temporary, 'w');
  try {
    fs.writeSync(fd, headerLine(header).line);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(temporary, file);
  syncDirectory(path.dirname(path.resolve(file)));
}

/** Makes a rename durable where the platform allows (a directory cannot be opened on Windows). */
function syncDirectory(directory: string): void {
  let fd: number | undefined;
  try {
    fd = fs.openSync(directory, 'r');
    fs.fsyncSync(fd);
  } catch {
    // Not supported here: the rename is still atomic, only its durability is the platform's.
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

function describeValue(value: unknown): string {
  return value === undefined ? 'missing' : JSON.stringify(value);
}

/** The header of an existing journal, checked against the run's; returns its digest and length. */
function checkHeader(file: string, text: string, expected: JournalHeader): { digest: string; end: number } {
  const newline = text.indexOf('\n');
  const first = newline === -1 ? text : text.slice(0, newline);
  const space = first.lastIndexOf(' ');
  const body = first.slice(0, space);
  let found: JournalHeader | undefined;
  if (newline !== -1 && first.startsWith(MAGIC) && sha256(body) === first.slice(space + 1)) {
    try {
      found = JSON.parse(body.slice(MAGIC.length)) as JournalHeader;
    } catch {
      found = undefined;
    }
  }
  if (!found || typeof found !== 'object') {
    throw new JournalError(file, `${file} is not a chess-native checkpoint journal, or its header is damaged: refusing to use it`);
  }
  const keys = new Set([...Object.keys(expected), ...Object.keys(found)]);
  for (const key of keys) {
    if (found[key] !== expected[key]) {
      throw new JournalError(
        file,
        `${file} is the journal of another run: its ${key} is ${describeValue(found[key])}, this run's is ` +
          `${describeValue(expected[key])} (use another file, or delete it to start afresh)`,
      );
    }
  }
  return { digest: sha256(body), end: newline + 1 };
}

/** A record line's unit and count, or undefined when it is not a valid record of this journal. */
function parseRecord(line: string, digest: string, unitCount: number): [number, bigint] | undefined {
  const match = /^(0|[1-9]\d*) (0|[1-9]\d*) ([0-9a-f]{16})$/.exec(line);
  if (!match) return undefined;
  const index = Number(match[1]);
  if (index >= unitCount || recordCheck(digest, match[1] as string, match[2] as string) !== match[3]) return undefined;
  return [index, BigInt(match[2] as string)];
}

/** The valid records after the header, and where the last one ends; refuses corruption. */
function readRecords(file: string, text: string, start: number, digest: string, unitCount: number) {
  const counted = new Map<number, bigint>();
  let validEnd = start;
  let firstBad: number | undefined; // line number of the first invalid line
  let line = 2;
  for (let at = start; at < text.length; line++) {
    const newline = text.indexOf('\n', at);
    const record = newline === -1 ? undefined : parseRecord(text.slice(at, newline), digest, unitCount);
    if (!record) {
      firstBad ??= line;
      if (newline === -1) break;
    } else {
      if (firstBad !== undefined) {
        throw new JournalError(file, `${file}: line ${firstBad} is corrupted and valid records follow it: refusing the journal`);
      }
      const [index, count] = record;
      const before = counted.get(index);
      if (before !== undefined && before !== count) {
        throw new JournalError(file, `${file}: unit ${index} is recorded twice with different counts (${before}, ${count})`);
      }
      counted.set(index, count);
      validEnd = newline + 1;
    }
    at = newline + 1;
  }
  return { counted, validEnd };
}

/** An open journal, appending records. */
export class Journal {
  private fd: number | undefined;
  private offset: number;
  private dirty = false;
  private readonly digest: string;
  private readonly timer: NodeJS.Timeout;
  private syncError: { error: unknown } | undefined;

  private constructor(fd: number, offset: number, digest: string) {
    this.fd = fd;
    this.offset = offset;
    this.digest = digest;
    this.timer = setInterval(() => {
      try {
        this.sync();
      } catch (error) {
        this.syncError ??= { error }; // thrown by the next append or close
      }
    }, SYNC_INTERVAL_MS);
    this.timer.unref();
  }

  /**
   * Opens the journal `file` of the run that `header` describes, with `unitCount` units: creates
   * it when absent; else checks it belongs to this run (a {@link JournalError} if not), drops a
   * torn tail and returns the units already recorded.
   */
  static open(file: string, header: JournalHeader, unitCount: number): OpenedJournal {
    if (!fs.existsSync(file)) createJournal(file, header);
    const text = fs.readFileSync(file, 'latin1'); // one byte per character: offsets are byte offsets
    const { digest, end } = checkHeader(file, text, header);
    const { counted, validEnd } = readRecords(file, text, end, digest, unitCount);
    const fd = fs.openSync(file, 'r+');
    if (validEnd < text.length) {
      fs.ftruncateSync(fd, validEnd);
      fs.fsyncSync(fd);
    }
    return { journal: new Journal(fd, validEnd, digest), counted, droppedBytes: text.length - validEnd };
  }

  /** Appends a record per unit (written at once; flushed to the disk within SYNC_INTERVAL_MS). */
  append(records: ReadonlyArray<readonly [number, bigint]>): void {
    if (this.fd === undefined) throw new Error('the journal is closed');
    if (this.syncError) throw this.syncError.error;
    const text = records.map(([index, count]) => `${index} ${count} ${recordCheck(this.digest, index, count)}\n`).join('');
    const bytes = Buffer.from(text, 'latin1');
    let written = 0;
    while (written < bytes.length) written += fs.writeSync(this.fd, bytes, written, bytes.length - written, this.offset + written);
    this.offset += bytes.length;
    this.dirty = true;
  }

  /** Flushes written records to the disk. */
  sync(): void {
    if (this.syncError) throw this.syncError.error;
    if (this.fd === undefined || !this.dirty) return;
    fs.fsyncSync(this.fd);
    this.dirty = false;
  }

  /** Flushes and closes. Idempotent. */
  close(): void {
    clearInterval(this.timer);
    if (this.fd === undefined) return;
    try {
      this.sync();
    } finally {
      fs.closeSync(this.fd);
      this.fd = undefined;
    }
  }
}
