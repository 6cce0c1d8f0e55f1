// The one reader of the PGN reader's records (pgn.h; their slots and codes
// are the boundary's tables): visitRecords walks a range of them and calls a
// visitor, in the manner of rust-pgn-reader's Visitor. Nothing else in
// TypeScript knows a record's layout.
import * as buffer from 'node:buffer';

import { asciiOnly } from '../core/ascii';
import { PGN, type PgnParts, SLOTS } from '../core/boundary';
import { uciFromRecord, uciNames, UNNAMED } from '../core/uci-names';

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
  /** A Buffer (typed as Uint8Array so the shipped types need no Node types). */
  strings: Uint8Array;
  /** The whole string table as text when it is ASCII (byte offsets are then string offsets). */
  ascii: string | undefined;
  /** Added to the records' line numbers for the text's (see cn_pgn_part). */
  lineOffset: number;
}

/** One game's records in a batch: [first, end], START at `start`. */
export interface GameRecords {
  first: number;
  start: number;
  end: number;
}

/**
 * What a reader of records does with them; a method it lacks is skipped,
 * and its arguments are then not decoded. Records come in text order.
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

// Module constants: the per-record loop compares with them as literals.
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
const OP_WHERE: number = PGN.op.where;
const OP_END: number = PGN.op.end;
const OP_GAME: number = PGN.op.game;
const OP_TOKEN: number = PGN.op.token;
const TAG = SLOTS.pgnTag;
const START = SLOTS.pgnStart;
const MOVE_AT: number = SLOTS.pgnMove.move;
const SAN_AT: number = SLOTS.pgnMove.san;
const SAN_LENGTH_AT: number = SLOTS.pgnMove.sanLength;
const COMMENT = SLOTS.pgnComment;
const NAG_AT: number = SLOTS.pgnNag.nag;
const ERROR = SLOTS.pgnError;
const WHERE = SLOTS.pgnWhere;
const END = SLOTS.pgnEnd;
const TOKEN = SLOTS.pgnToken;
const CHESS960: number = PGN.startFlags.chess960;

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

/** The batches of a pgnRead result. */
export function batchesOf(parts: PgnParts): PgnBatch[] {
  const batches: PgnBatch[] = [];
  for (let k = 0; k < parts.length; k += 3) {
    const bytes = parts[k] as Uint8Array;
    const strings = parts[k + 1] as Buffer;
    batches.push({
      records: new Int32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4),
      strings,
      // One string for an ASCII table: its slices cost no call into Node's buffer code.
      ascii: isAscii(strings) ? strings.toString('latin1') : undefined,
      lineOffset: parts[k + 2] as number,
    });
  }
  return batches;
}

/** The games of a batch, as record indices. */
export function gamesIn(batch: PgnBatch): GameRecords[] {
  const r = batch.records;
  const games: GameRecords[] = [];
  let first = 0;
  let start = 0;
  for (let i = 0; i < r.length; i += INTS) {
    const op = r[i + OP_AT];
    if (op === OP_GAME) first = i / INTS;
    else if (op === OP_START) start = i / INTS;
    else if (op === OP_END) games.push({ first, start, end: i / INTS });
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

function text(batch: PgnBatch, offset: number, length: number): string {
  const ascii = batch.ascii;
  if (ascii !== undefined) return ascii.slice(offset, offset + length);
  return decode(batch.strings as Buffer, offset, offset + length);
}

/** The SAN (ASCII) at strings[at, at + n). */
function asciiAt(strings: Uint8Array, at: number, n: number): string {
  let s = '';
  for (let i = 0; i < n; i++) s += String.fromCharCode(strings[at + i] as number);
  return s;
}

/**
 * Calls `visitor` for the records [from, to) of `batch`. A range with moves
 * starts at or before their game's START record (which says how its moves
 * are named).
 */
export function visitRecords(batch: PgnBatch, from: number, to: number, visitor: PgnVisitor): void {
  const { records: r, ascii, strings } = batch;
  let names = uciNames(false);
  let error: PgnError | undefined;
  for (let k = from * INTS, end = to * INTS; k < end; k += INTS) {
    const op = r[k + OP_AT] as number;
    if (op === OP_MOVE) {
      const at = r[k + SAN_AT] as number;
      const n = r[k + SAN_LENGTH_AT] as number;
      const move = r[k + MOVE_AT] as number;
      let uci = names[move] as string;
      if (uci === UNNAMED) uci = names[move] = uciFromRecord(strings, at + n);
      visitor.move?.(ascii !== undefined ? ascii.slice(at, at + n) : asciiAt(strings, at, n), uci);
    } else if (op === OP_COMMENT) visitor.comment?.(text(batch, r[k + COMMENT.text] as number, r[k + COMMENT.length] as number));
    else if (op === OP_NAG) visitor.nag?.(r[k + NAG_AT] as number);
    else if (op === OP_VAR_START) visitor.beginVariation?.();
    else if (op === OP_VAR_END) visitor.endVariation?.();
    else if (op === OP_TAG) {
      const at = r[k + TAG.name] as number;
      const n = r[k + TAG.nameLength] as number;
      visitor.tag?.(text(batch, at, n), text(batch, at + n, r[k + TAG.valueLength] as number));
    } else if (op === OP_START) {
      const chess960 = ((r[k + START.flags] as number) & CHESS960) !== 0;
      names = uciNames(chess960);
      const n = r[k + START.fenLength] as number;
      visitor.start?.(n > 0 ? text(batch, r[k + START.fen] as number, n) : '', chess960);
    } else if (op === OP_ERROR) {
      if (visitor.error) {
        const message = text(batch, r[k + ERROR.message] as number, r[k + ERROR.length] as number);
        error = { line: 0, column: 0, ply: r[k + ERROR.ply] as number, message };
      }
    } else if (op === OP_WHERE) {
      if (error) {
        // | 0: the sum wraps as the reader's int32 records do.
        error.line = ((r[k + WHERE.line] as number) + batch.lineOffset) | 0;
        error.column = r[k + WHERE.column] as number;
        visitor.error?.(error);
        error = undefined;
      }
    } else if (op === OP_END) {
      visitor.endGame?.(RESULTS[r[k + END.result] as number], text(batch, r[k + END.fen] as number, r[k + END.fenLength] as number));
    } else if (op === OP_TOKEN) {
      visitor.token?.(text(batch, r[k + TOKEN.text] as number, r[k + TOKEN.length] as number));
    }
  }
}
