// Lines of moves (Position.playLine, playSanLine, sanLine): many moves per
// native call.
//
// A line crosses the boundary as UTF-8 bytes: a string as given (moves
// separated by whitespace), an array joined with '\n' after every element
// (lineFormat.list: each element is exactly one move). Moves are played in
// chunks of at most LINE_CHUNK per native call, each chunk into new bytes
// from allocPositions whose slices become the history entries' positions.
import { allocBytes, allocPositions, positionView, type HistoryEntry } from './bytes';
import { describe, rejectedMove, type IllegalMoveError, type Notation } from './errors';
import { backend, LIMITS, SLOT_LENGTHS, SLOTS, TABLES } from './boundary';
import { uciFromRecord, UNNAMED as UNNAMED_NAME } from './uci-names';

// Module-level consts for the per-move loop (see position.ts on why).
const BYTES = backend.positionBytes;
const UCI_RECORD = LIMITS.uciRecordBytes;
const UNNAMED = UNNAMED_NAME;
const FORMAT = TABLES.lineFormat;
const STATUS = TABLES.lineStatus;
// Moves per playLine call, as many as one sanLine call converts.
const LINE_CHUNK = LIMITS.sanLineMoves;
const LINE_MOVES = new Uint16Array(LINE_CHUNK);
const LINE_UCIS = new Uint8Array(LINE_CHUNK * UCI_RECORD);
// Slots: status, offset to continue from, failing move's start, its length.
const LINE_STATE = new Float64Array(SLOT_LENGTHS.lineState);
const { status: STATE_STATUS, offset: STATE_OFFSET, badStart: STATE_BAD_START, badLength: STATE_BAD_LENGTH } = SLOTS.lineState;
const ENCODER = new TextEncoder();
const DECODER = new TextDecoder();

interface LineInput {
  readonly text: Uint8Array;
  readonly format: number;
  readonly notation: Notation;
  /** The array form's elements (null for a string). */
  readonly list: readonly string[] | null;
}

// An all-ASCII array line up to this size is written straight into a reused
// scratch buffer (no joined string, no new buffer); anything else goes
// through TextEncoder.
const LINE_TEXT = new Uint8Array(16384);

function lineInput(line: unknown, notation: Notation, what: string): LineInput {
  const format = notation === 'SAN' ? FORMAT.san : FORMAT.uci;
  if (typeof line === 'string') return { text: ENCODER.encode(line), format, notation, list: null };
  if (!Array.isArray(line)) {
    throw new TypeError(`${what} must be a string or an array of strings, got ${describe(line)}`);
  }
  const list = line as readonly unknown[];
  const scratch = LINE_TEXT;
  let n = 0;
  let fits = true;
  for (let i = 0; i < list.length; i++) {
    const move = list[i];
    if (typeof move !== 'string') throw new TypeError(`${what}[${i}] must be a string, got ${describe(move)}`);
    if (!fits) continue;
    const length = move.length;
    if (n + length + 1 > scratch.length) {
      fits = false;
      continue;
    }
    for (let j = 0; j < length; j++) {
      const code = move.charCodeAt(j);
      if (code >= 0x80) fits = false;
      scratch[n++] = code;
    }
    scratch[n++] = 10; // '\n'
  }
  const strings = list as readonly string[];
  const text = fits ? scratch.subarray(0, n) : ENCODER.encode(strings.join('\n') + '\n');
  return { text, format: format | FORMAT.list, notation, list: strings };
}

/**
 * In the array form an element holding '\n' reads as more than one move: the
 * error for the first such element, if it is at or before `index`.
 */
function splitElementError(input: LineInput, index: number): IllegalMoveError | null {
  if (input.list === null) return null;
  const split = input.list.findIndex((move) => move.includes('\n'));
  if (split === -1 || split > index) return null;
  return rejectedMove(input.list[split] as string, input.notation, false, () => '', split);
}

/**
 * The error for the move the last native call stopped at (LINE_STATE), the
 * `index`-th of the line; `fen` gives the position before it.
 */
function failedMove(input: LineInput, index: number, fen: () => string): IllegalMoveError {
  const split = splitElementError(input, index);
  if (split !== null) return split;
  const start = LINE_STATE[STATE_BAD_START] as number;
  const move =
    input.list !== null
      ? (input.list[index] as string)
      : DECODER.decode(input.text.subarray(start, start + (LINE_STATE[STATE_BAD_LENGTH] as number)));
  return rejectedMove(move, input.notation, LINE_STATE[STATE_STATUS] === STATUS.illegal, fen, index);
}

/** An array line that played another number of moves than it has elements had an element holding '\n'. */
function checkElementCount(input: LineInput, played: number): void {
  if (input.list === null || played === input.list.length) return;
  throw splitElementError(input, Infinity) ?? rejectedMove(String(input.list[played]), input.notation, false, () => '', played);
}

/**
 * Plays `line` from the position `start`, pushing one history entry per move
 * onto `history`, and returns the view of the position after the last move.
 * All or nothing: on any failure `history` is cut back to its length on entry.
 * `names` is the UCI name cache of the position's mode.
 */
export function playLine(
  start: Uint8Array,
  line: unknown,
  notation: Notation,
  what: string,
  names: string[],
  history: HistoryEntry[],
): Uint8Array {
  const input = lineInput(line, notation, what);
  const { text, list } = input;
  const base = history.length;
  // The position before the next move: bytes[at, at + BYTES).
  let bytes = start;
  let at = 0;
  let offset = 0;
  try {
    while (offset < text.length) {
      // Room for as many moves as can be left (SAN moves take >= 3 bytes with
      // their separator, UCI >= 5), at most one chunk.
      const left =
        list !== null ? list.length - (history.length - base) : Math.ceil((text.length - offset + 1) / (notation === 'SAN' ? 3 : 5));
      const room = Math.max(1, Math.min(LINE_CHUNK, left));
      const buffer = allocPositions(room);
      const n = backend.playLine(positionView(bytes, at), text, offset, input.format, buffer, LINE_MOVES, LINE_UCIS, LINE_STATE);
      for (let i = 0; i < n; i++) {
        const move = LINE_MOVES[i] as number;
        let uci = names[move] as string;
        if (uci === UNNAMED) uci = names[move] = uciFromRecord(LINE_UCIS, i * UCI_RECORD);
        history.push({ bytes, at, uci });
        bytes = buffer;
        at = i * BYTES;
      }
      offset = LINE_STATE[STATE_OFFSET] as number;
      if (LINE_STATE[STATE_STATUS] !== STATUS.ok) {
        const failed = positionView(bytes, at);
        throw failedMove(input, history.length - base, () => backend.fen(failed));
      }
    }
    checkElementCount(input, history.length - base);
  } catch (e) {
    history.length = base;
    throw e;
  }
  return positionView(bytes, at);
}

/** The SAN of each move of a UCI line played from `start`, which is not written. */
export function sanLine(start: Uint8Array, line: unknown): string[] {
  const input = lineInput(line, 'UCI', 'ucis');
  const { text } = input;
  const out: string[] = [];
  let pos = start;
  let offset = 0;
  while (offset < text.length) {
    // New bytes for each chunk's end: no position is written after it is read.
    const end = allocBytes();
    const sans = backend.sanLine(pos, text, offset, input.format, end, LINE_STATE);
    if (sans !== '') for (const san of sans.split(' ')) out.push(san);
    pos = end;
    offset = LINE_STATE[STATE_OFFSET] as number;
    if (LINE_STATE[STATE_STATUS] !== STATUS.ok) throw failedMove(input, out.length, () => backend.fen(end));
  }
  checkElementCount(input, out.length);
  return out;
}
