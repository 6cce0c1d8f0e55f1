// The one reader of the PGN reader's records (pgn.h; their slots and codes
// are the boundary's tables): the batches and games of a read, and a reader
// of each kind of record by its index. Nothing else in TypeScript knows a
// record's layout; the game's readers (game.ts) walk the records by op.
import * as buffer from 'node:buffer';

import { asciiOnly } from '../core/ascii';
import { LIMITS, PGN, type PgnParts, SLOTS } from '../core/boundary';
import { uciFromRecord, uciFromText, uciNames, UNNAMED } from '../core/uci-names';
import { DecodedTable } from './decoded-table';

/** A problem in the PGN text: where, on which ply (1-based along its line; 0: none) and what. */
export interface PgnError {
  line: number;
  column: number;
  ply: number;
  message: string;
}

/** Records and string table of one batch of games. */
export interface PgnBatch {
  records: Int32Array;
  /** A Buffer (typed as Uint8Array so the shipped types need no Node types); empty when `table` holds the strings. */
  strings: Uint8Array;
  /** The string table, where the backend decoded it (ASCII). */
  table: DecodedTable | undefined;
  /** The whole string table is ASCII (byte offsets are then string offsets). */
  ascii: boolean;
  /** Added to the records' line numbers for the text's (see cn_pgn_part). */
  lineOffset: number;
  /**
   * Its games' ASCII strings are read from one string of the whole table
   * (`text`, made when first needed), not one a game: for a batch whose
   * games are all kept at once (parsePgn), where a string a game would
   * outlive minor collections and be copied by each. Never with `table`,
   * which holds a string a game already.
   */
  shared: boolean;
  text: string | undefined;
}

/**
 * One game's records in a batch: [first, end], START at `start`; `errors`:
 * its ERROR records. Its strings are strings[textFrom, textTo): in an ASCII
 * table they are read as one string, made when first needed. A string per
 * game, unless the batch is shared: it is small, so it is made in the young
 * generation and dies there with its game (a batch's would be a large
 * object, on pages of its own, kept until a full collection).
 */
export interface GameRecords {
  batch: PgnBatch;
  first: number;
  start: number;
  end: number;
  errors: number;
  textFrom: number;
  textTo: number;
  text: string | undefined;
}

/**
 * What a reader of records does with them (visitRecords); a method it lacks
 * is skipped, and its arguments are then not decoded. Records come in text
 * order.
 */
export interface PgnVisitor {
  tag?(name: string, value: string): void;
  /** The start position: the FEN tag's FEN, or '' for the standard start. */
  start?(fen: string, chess960: boolean): void;
  /** A move: its canonical SAN and its UCI ("--" and "0000" for a null move). */
  move?(san: string, uci: string): void;
  comment?(text: string): void;
  nag?(nag: number): void;
  beginVariation?(): void;
  endVariation?(): void;
  error?(error: PgnError): void;
  /** A move as written, not played (the chess.js grammar mode reads no moves). */
  token?(text: string): void;
  /** The result token (undefined without one) and the FEN at the end of the mainline. */
  endGame?(result: string | undefined, fen: string): void;
}

// Module constants: the loops compare with them as literals.
const INTS: number = PGN.recordInts;
const OP_AT: number = SLOTS.pgnRecord.op;
const OP_TAG: number = PGN.op.tag;
const OP_START: number = PGN.op.start;
const OP_MOVE: number = PGN.op.move;
const OP_COMMENT: number = PGN.op.comment;
const OP_NAG: number = PGN.op.nag;
const OP_VAR_START: number = PGN.op.varStart;
const OP_VAR_END: number = PGN.op.varEnd;
const OP_ERROR: number = PGN.op.error;
const OP_END: number = PGN.op.end;
const OP_GAME: number = PGN.op.game;
const OP_TOKEN: number = PGN.op.token;
const TAG = SLOTS.pgnTag;
const TOKEN = SLOTS.pgnToken;
const START = SLOTS.pgnStart;
const MOVE_AT: number = SLOTS.pgnMove.move;
const SAN_AT: number = SLOTS.pgnMove.san;
const SAN_LENGTH_AT: number = SLOTS.pgnMove.sanLength;
const COMMENT = SLOTS.pgnComment;
const NAG_AT: number = SLOTS.pgnNag.nag;
const ERROR = SLOTS.pgnError;
const WHERE = SLOTS.pgnWhere;
const END = SLOTS.pgnEnd;
const CHESS960: number = PGN.startFlags.chess960;
const UCI_RECORD_BYTES: number = LIMITS.uciRecordBytes;

// The text of each result code; none has no text.
const RESULT_TEXT: Readonly<Record<keyof typeof PGN.result, string | undefined>> = {
  none: undefined,
  white: '1-0',
  black: '0-1',
  draw: '1/2-1/2',
  unknown: '*',
};
const RESULTS: (string | undefined)[] = [];
for (const [name, code] of Object.entries(PGN.result)) RESULTS[code] = RESULT_TEXT[name as keyof typeof PGN.result];

// buffer.isAscii is missing from Node 18 before 18.15 and from browsers
// (decoding each string on its own made a browser's parsePgn of a tree
// about twice as slow); buffer.isUtf8 before 18.14: there a string is UTF-8
// when it encodes back to its bytes.
const isAscii = (buffer as { isAscii?: (b: Uint8Array) => boolean }).isAscii ?? asciiOnly;
const isUtf8 =
  (buffer as { isUtf8?: (b: Uint8Array) => boolean }).isUtf8 ??
  ((b: Uint8Array) => Buffer.from(Buffer.from(b.buffer, b.byteOffset, b.length).toString('utf8')).equals(b));

const NO_STRINGS = new Uint8Array(0);

/** The batches of a pgnRead result; `shared`: see PgnBatch. */
export function batchesOf(parts: PgnParts, shared = false): PgnBatch[] {
  const batches: PgnBatch[] = [];
  for (let k = 0; k < parts.length; k += 3) {
    const bytes = parts[k] as Uint8Array;
    const strings = parts[k + 1] as Buffer | string[];
    const decoded = Array.isArray(strings);
    batches.push({
      records: new Int32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4),
      strings: decoded ? NO_STRINGS : strings,
      table: decoded ? new DecodedTable(strings) : undefined,
      ascii: decoded || isAscii(strings),
      lineOffset: parts[k + 2] as number,
      shared: shared && !decoded,
      text: undefined,
    });
  }
  return batches;
}

// A game's strings end with the FEN of its END record, and the next game's
// start there.

/** Where the strings of the game ending at END record `i` end. */
function endTextTo(r: Int32Array, i: number): number {
  return (r[i + END.fen] as number) + (r[i + END.fenLength] as number);
}

/** Where the strings of each game of `records` end: where a backend cuts a string table it decodes itself (pgnReadText). */
export function gameTextEnds(records: Int32Array): number[] {
  const ends: number[] = [];
  for (let i = 0; i < records.length; i += INTS) if (records[i + OP_AT] === OP_END) ends.push(endTextTo(records, i));
  return ends;
}

/** The games of a batch, as record indices; their strings already decoded where the backend did so. */
export function gamesIn(batch: PgnBatch): GameRecords[] {
  const r = batch.records;
  const games: GameRecords[] = [];
  let first = 0;
  let start = 0;
  let errors = 0;
  let textFrom = 0;
  for (let i = 0; i < r.length; i += INTS) {
    const op = r[i + OP_AT];
    if (op === OP_GAME) {
      first = i / INTS;
      errors = 0;
    } else if (op === OP_START) start = i / INTS;
    else if (op === OP_ERROR) errors++;
    else if (op === OP_END) {
      const textTo = batch.shared ? batch.strings.length : endTextTo(r, i);
      games.push({ batch, first, start, end: i / INTS, errors, textFrom, textTo, text: batch.table?.texts[games.length] });
      if (!batch.shared) textFrom = textTo;
    }
  }
  return games;
}

/**
 * The string at strings[start, end): UTF-8, or, where those bytes are not
 * UTF-8 (the reader reports it), Latin-1, which keeps them byte for byte.
 * Each string on its own: one bad byte changes no other string.
 */
function decode(strings: Buffer, start: number, end: number): string {
  const text = strings.toString('utf8', start, end);
  // Invalid bytes decode as U+FFFD; so does a U+FFFD written in the text.
  return text.includes('\uFFFD') && !isUtf8(strings.subarray(start, end)) ? strings.toString('latin1', start, end) : text;
}

/** The game's strings as one string, when its table is ASCII and they hold strings[offset, offset + length); else undefined. */
function asciiText(g: GameRecords, offset: number, length: number): string | undefined {
  const batch = g.batch;
  if (!batch.ascii || offset < g.textFrom || offset + length > g.textTo) return undefined;
  if (batch.shared) return (batch.text ??= (batch.strings as Buffer).toString('latin1'));
  const table = batch.table;
  return (g.text ??= table ? table.slice(g.textFrom, g.textTo) : (batch.strings as Buffer).toString('latin1', g.textFrom, g.textTo));
}

function text(g: GameRecords, offset: number, length: number): string {
  const ascii = asciiText(g, offset, length);
  if (ascii !== undefined) return ascii.slice(offset - g.textFrom, offset - g.textFrom + length);
  if (g.batch.table) return g.batch.table.slice(offset, offset + length);
  return decode(g.batch.strings as Buffer, offset, offset + length);
}

/** The ASCII at strings[at, at + n). */
function asciiAt(strings: Uint8Array, at: number, n: number): string {
  let s = '';
  for (let i = 0; i < n; i++) s += String.fromCharCode(strings[at + i] as number);
  return s;
}

/** Whether `s` is the ASCII at strings[at, at + n). */
function isAsciiAt(s: string, strings: Uint8Array, at: number, n: number): boolean {
  if (s.length !== n) return false;
  for (let i = 0; i < n; i++) if (s.charCodeAt(i) !== strings[at + i]) return false;
  return true;
}

/** Whether `s` is text[at, at + n). */
function isTextAt(s: string, text: string, at: number, n: number): boolean {
  if (s.length !== n) return false;
  for (let i = 0; i < n; i++) if (s.charCodeAt(i) !== text.charCodeAt(at + i)) return false;
  return true;
}

// SAN strings by a hash of their bytes, shared by every game: SAN comes in
// a few thousand spellings, so a move's string is most often found here
// (compared with its bytes, at most 7) and reused rather than made again
// for each node, which a tree keeps alive.
const SAN_BITS = 14;
const SANS: string[] = new Array<string>(1 << SAN_BITS).fill('');

// Tag names the same way: a file repeats a few names in every game, and a
// name found here is the string that keyed the headers before, which a
// header object's store then finds without looking it up again.
const TAG_NAME_BITS = 8;
const TAG_NAMES: string[] = new Array<string>(1 << TAG_NAME_BITS).fill('');

/** A string's hash with its next character `c` (a string of n characters starts from n). */
function hashStep(hash: number, c: number): number {
  return (Math.imul(hash, 31) + c) | 0;
}

/** The slot for `hash` in a table of 2^bits strings. */
function slotOf(hash: number, bits: number): number {
  return (hash ^ (hash >>> bits)) & ((1 << bits) - 1);
}

/**
 * The ASCII string at strings[at, at + n), from `cache` (2^bits slots) when
 * it holds it, else made and kept there; undefined when a byte is not ASCII.
 */
function cachedAscii(cache: string[], bits: number, strings: Uint8Array, at: number, n: number): string | undefined {
  let hash = n;
  let bytes = 0; // the bytes ORed: 0x80 set for a string that is not ASCII
  for (let k = 0; k < n; k++) {
    const b = strings[at + k] as number;
    hash = hashStep(hash, b);
    bytes |= b;
  }
  if (bytes > 0x7f) return undefined;
  const slot = slotOf(hash, bits);
  const known = cache[slot] as string;
  if (isAsciiAt(known, strings, at, n)) return known;
  return (cache[slot] = asciiAt(strings, at, n));
}

/** The SAN at text[at, at + n) of a game's decoded strings, from SANS as cachedAscii reads its bytes (the same hash and slots). */
function sanOfText(text: string, at: number, n: number): string {
  let hash = n;
  for (let k = 0; k < n; k++) hash = hashStep(hash, text.charCodeAt(at + k));
  const slot = slotOf(hash, SAN_BITS);
  const known = SANS[slot] as string;
  if (isTextAt(known, text, at, n)) return known;
  return (SANS[slot] = text.slice(at, at + n));
}

// The readers of one record each, by its index in the batch: small, so that
// the loops of the game's readers (game.ts) inline them and walk the
// records with no call a record.

/** The op of record `i` (PGN.op). */
export function recordOp(g: GameRecords, i: number): number {
  return g.batch.records[i * INTS + OP_AT] as number;
}

/** The canonical SAN of MOVE record `i`. */
export function moveSan(g: GameRecords, i: number): string {
  const r = g.batch.records;
  const at = r[i * INTS + SAN_AT] as number;
  const n = r[i * INTS + SAN_LENGTH_AT] as number;
  const table = g.batch.table;
  // The engine writes SAN in ASCII.
  if (table === undefined) return cachedAscii(SANS, SAN_BITS, g.batch.strings, at, n) as string;
  // A table the backend decoded has no bytes: the game's string holds the SAN.
  const game = asciiText(g, at, n);
  return game === undefined ? sanOfText(table.slice(at, at + n), 0, n) : sanOfText(game, at - g.textFrom, n);
}

/** The UCI of MOVE record `i`; `names` is startNames of its game's START. */
export function moveUci(g: GameRecords, i: number, names: string[]): string {
  const r = g.batch.records;
  const move = r[i * INTS + MOVE_AT] as number;
  const uci = names[move] as string;
  if (uci !== UNNAMED) return uci;
  const at = (r[i * INTS + SAN_AT] as number) + (r[i * INTS + SAN_LENGTH_AT] as number);
  const table = g.batch.table;
  if (table === undefined) return (names[move] = uciFromRecord(g.batch.strings, at));
  const game = asciiText(g, at, UCI_RECORD_BYTES);
  return (names[move] = game === undefined ? uciFromText(table.slice(at, at + UCI_RECORD_BYTES), 0) : uciFromText(game, at - g.textFrom));
}

/** The text of COMMENT record `i`. */
export function commentText(g: GameRecords, i: number): string {
  const r = g.batch.records;
  return text(g, r[i * INTS + COMMENT.text] as number, r[i * INTS + COMMENT.length] as number);
}

/** The NAG of NAG record `i`. */
export function nagValue(g: GameRecords, i: number): number {
  return g.batch.records[i * INTS + NAG_AT] as number;
}

/** The name of TAG record `i`. */
export function tagName(g: GameRecords, i: number): string {
  const r = g.batch.records;
  const at = r[i * INTS + TAG.name] as number;
  const n = r[i * INTS + TAG.nameLength] as number;
  // A table the backend decoded has no bytes: its game's string is made already.
  if (g.batch.table !== undefined) return text(g, at, n);
  return cachedAscii(TAG_NAMES, TAG_NAME_BITS, g.batch.strings, at, n) ?? text(g, at, n);
}

/** The value of TAG record `i` (stored after its name). */
export function tagValue(g: GameRecords, i: number): string {
  const r = g.batch.records;
  const k = i * INTS;
  return text(g, (r[k + TAG.name] as number) + (r[k + TAG.nameLength] as number), r[k + TAG.valueLength] as number);
}

/** Whether START record `i` starts a Chess960 game. */
export function startChess960(g: GameRecords, i: number): boolean {
  return ((g.batch.records[i * INTS + START.flags] as number) & CHESS960) !== 0;
}

/** The FEN of START record `i`, or '' for the standard start. */
export function startFen(g: GameRecords, i: number): string {
  const r = g.batch.records;
  const n = r[i * INTS + START.fenLength] as number;
  return n > 0 ? text(g, r[i * INTS + START.fen] as number, n) : '';
}

/** The UCI names of the moves of the game whose START record is `i` (see moveUci). */
export function startNames(g: GameRecords, i: number): string[] {
  return uciNames(startChess960(g, i));
}

/** The error of ERROR record `i` and the WHERE record after it. */
export function errorAt(g: GameRecords, i: number): PgnError {
  const r = g.batch.records;
  const k = i * INTS;
  const message = text(g, r[k + ERROR.message] as number, r[k + ERROR.length] as number);
  return {
    // | 0: the sum wraps as the reader's int32 records do.
    line: ((r[k + INTS + WHERE.line] as number) + g.batch.lineOffset) | 0,
    column: r[k + INTS + WHERE.column] as number,
    ply: r[k + ERROR.ply] as number,
    message,
  };
}

/** The text of TOKEN record `i`: a move as written. */
function tokenText(g: GameRecords, i: number): string {
  const r = g.batch.records;
  return text(g, r[i * INTS + TOKEN.text] as number, r[i * INTS + TOKEN.length] as number);
}

/** The result token of END record `i` (undefined without one). */
export function endResult(g: GameRecords, i: number): string | undefined {
  return RESULTS[g.batch.records[i * INTS + END.result] as number];
}

/** The FEN at the end of the mainline, of END record `i`. */
export function endFen(g: GameRecords, i: number): string {
  const r = g.batch.records;
  return text(g, r[i * INTS + END.fen] as number, r[i * INTS + END.fenLength] as number);
}

/**
 * Calls `visitor` for the records [from, to) of `batch`, for readers other
 * than a Game's (whose loops call the readers above directly). A range with
 * moves starts at or before their game's START record (which says how its
 * moves are named).
 */
export function visitRecords(batch: PgnBatch, from: number, to: number, visitor: PgnVisitor): void {
  // The range read as one run of the batch's strings.
  const g: GameRecords = {
    batch,
    first: from,
    start: from,
    end: to,
    errors: 0,
    textFrom: 0,
    textTo: batch.table?.length ?? batch.strings.length,
    text: undefined,
  };
  let names = uciNames(false);
  for (let i = from; i < to; i++) {
    const op = recordOp(g, i);
    if (op === OP_MOVE) visitor.move?.(moveSan(g, i), moveUci(g, i, names));
    else if (op === OP_COMMENT) visitor.comment?.(commentText(g, i));
    else if (op === OP_NAG) visitor.nag?.(nagValue(g, i));
    else if (op === OP_VAR_START) visitor.beginVariation?.();
    else if (op === OP_VAR_END) visitor.endVariation?.();
    else if (op === OP_TAG) visitor.tag?.(tagName(g, i), tagValue(g, i));
    else if (op === OP_START) {
      names = startNames(g, i);
      visitor.start?.(startFen(g, i), startChess960(g, i));
    } else if (op === OP_ERROR) visitor.error?.(errorAt(g, i));
    else if (op === OP_END) visitor.endGame?.(endResult(g, i), endFen(g, i));
    else if (op === OP_TOKEN) visitor.token?.(tokenText(g, i));
  }
}
