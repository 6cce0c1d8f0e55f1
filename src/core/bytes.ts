// Where position bytes live.
//
// A position is positionBytes bytes that the engine reads and writes (a
// cn_position struct). The rule everything here relies on: **position bytes
// are never written after the call that creates them.** Every native call
// writes only into bytes reserved for it here (the addon never writes a
// position it reads), so a Position, its history entries and its clones can
// share bytes freely; test/immutability.test.ts checks the rule across the
// whole API. (The wasm engine writes a parsed position's bytes after the
// parse, but before anything can read them: see parsedView in ./fen.)
import { backend } from './boundary';

const BYTES = backend.positionBytes;
const KEY_OFFSET = backend.keyOffset;

// Single positions are views into shared slabs: a typed array over 96 bytes
// gets its own off-heap backing store (about 300 ns to allocate), a view into
// an existing ArrayBuffer about 40 ns. A slab is never reused, so views start
// zeroed; it is freed when no view into it remains. 16 KiB (170 positions):
// each ArrayBuffer's allocation, free and GC sweep were about 7% of
// `new Position(fen).legalMoves()` with 4 KiB slabs; the price is that one
// position kept alive can keep up to 16 KiB alive (a line slab, 64 KiB).
const SLAB_BYTES = BYTES * Math.max(1, Math.floor(16384 / BYTES));
let slab = new ArrayBuffer(SLAB_BYTES);
let slabUsed = 0;

/** The slab of a position whose bytes are not in the current slab's reservation (see Position). */
export const NO_SLAB = new ArrayBuffer(0);

/** The offset of a new position's bytes in {@link currentSlab} (which may be replaced first). */
export function reserveBytes(): number {
  if (slabUsed === SLAB_BYTES) {
    slab = new ArrayBuffer(SLAB_BYTES);
    slabUsed = 0;
  }
  const at = slabUsed;
  slabUsed += BYTES;
  return at;
}

/** The slab the last {@link reserveBytes} reserved in. */
export function currentSlab(): ArrayBuffer {
  return slab;
}

/** A view of new, zeroed bytes for one position. */
export function allocBytes(): Uint8Array {
  const at = reserveBytes();
  return new Uint8Array(slab, at, BYTES);
}

/** A new position holding a copy of `src`. */
export function copyBytes(src: Uint8Array): Uint8Array {
  const view = allocBytes();
  view.set(src);
  return view;
}

// The positions a line's moves lead to are written into views of shared
// 64 KiB slabs (one view per chunk of moves): far fewer ArrayBuffers for the
// GC to track. A slab is never reused and is freed once no history entry
// points into it. Slabs are not zero-filled (Buffer.allocUnsafeSlow): the
// native call writes every position a history entry or a Position will point
// to, and nothing else of a slab is ever read.
const LINE_SLAB_BYTES = 65536;
let lineSlab = Buffer.allocUnsafeSlow(LINE_SLAB_BYTES).buffer;
let lineSlabUsed = 0;

/** Room for `count` consecutive positions, for a line's moves to be played into. */
export function allocPositions(count: number): Uint8Array {
  const size = count * BYTES;
  if (size > LINE_SLAB_BYTES - lineSlabUsed) {
    if (size > LINE_SLAB_BYTES / 2) return new Uint8Array(size);
    lineSlab = Buffer.allocUnsafeSlow(LINE_SLAB_BYTES).buffer;
    lineSlabUsed = 0;
  }
  const view = new Uint8Array(lineSlab, lineSlabUsed, size);
  lineSlabUsed += size;
  return view;
}

/** A view of exactly the position at bytes[at] (the array itself when it is one position). */
export function positionView(bytes: Uint8Array, at: number): Uint8Array {
  return bytes.length === BYTES ? bytes : bytes.subarray(at, at + BYTES);
}

/**
 * A position a move was played from: bytes[at, at + positionBytes). A line's
 * entries share the buffer their chunk was played into; the view of one
 * position is made only when it is needed again (undo).
 */
export interface HistoryEntry {
  readonly bytes: Uint8Array;
  readonly at: number;
  /** The move played from it, in UCI. */
  readonly uci: string;
}

/** Whether the position at byte `at` of `a` and the position view `b` hold the same Polyglot key. */
export function sameKey(a: Uint8Array, at: number, b: Uint8Array): boolean {
  for (let i = KEY_OFFSET; i < KEY_OFFSET + 8; i++) if (a[at + i] !== b[i]) return false;
  return true;
}
