// Position bytes are never written after the call that creates them
// (src/core/bytes.ts): a Position, its history entries and its clones share bytes,
// so one write into them would change other positions. This test wraps every
// function of the addon the package calls and records the bytes of every
// position the engine reads or creates; every call must leave the positions
// it reads as they were and write only where no recorded position lies, and
// after each batch of API calls every recorded position must still hold the
// bytes it held when first seen. The batches run every position-creating
// method of the API on many positions.
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { api, readEpd, rng } from './helpers';

type Native = import('../src/core/boundary').Backend;
type AnyFunction = (...args: unknown[]) => unknown;

const require = createRequire(import.meta.url);
// The package reads `native` from this module object on every call.
const nativeModule = require('../dist/core/boundary.js') as { backend: Native };
const original = nativeModule.backend;
const SIZE = original.positionBytes;

interface Recorded {
  buffer: ArrayBufferLike;
  offset: number;
  length: number;
  bytes: Uint8Array;
  what: string;
}

/** Records position bytes and reports any that changed or were written over. */
class Ledger {
  readonly records: Recorded[] = [];
  readonly violations: string[] = [];
  /** Calls seen, by function name. */
  readonly calls = new Map<string, number>();
  private readonly seen = new Map<ArrayBufferLike, Map<number, Recorded>>();

  private find(buffer: ArrayBufferLike, offset: number): Recorded | undefined {
    return this.seen.get(buffer)?.get(offset);
  }

  /** Remembers the bytes of the region as they are now (once per region). */
  record(buffer: ArrayBufferLike, offset: number, length: number, what: string): void {
    if (this.find(buffer, offset)) return;
    const bytes = new Uint8Array(buffer, offset, length).slice();
    const entry = { buffer, offset, length, bytes, what };
    let byOffset = this.seen.get(buffer);
    if (!byOffset) this.seen.set(buffer, (byOffset = new Map()));
    byOffset.set(offset, entry);
    this.records.push(entry);
  }

  /** A region about to be written must not hold a recorded position. */
  fresh(buffer: ArrayBufferLike, offset: number, length: number, what: string): void {
    const byOffset = this.seen.get(buffer);
    if (!byOffset) return;
    for (const entry of byOffset.values()) {
      if (entry.offset < offset + length && offset < entry.offset + entry.length) {
        this.violations.push(`${what} writes over a position recorded by ${entry.what}`);
      }
    }
  }

  private check(entry: Recorded, after: string): void {
    const now = new Uint8Array(entry.buffer, entry.offset, entry.length);
    if (!now.every((b, i) => b === entry.bytes[i])) {
      this.violations.push(`position recorded by ${entry.what} changed after ${after}`);
      entry.bytes = now.slice(); // report each change once
    }
  }

  /** The recorded position at the region still holds its bytes. */
  verifyOne(buffer: ArrayBufferLike, offset: number, after: string): void {
    const entry = this.find(buffer, offset);
    if (entry) this.check(entry, after);
  }

  /** Every recorded position still holds its bytes. */
  verify(after: string): void {
    for (const entry of this.records) this.check(entry, after);
  }
}

function isPosition(value: unknown): value is ArrayBufferView {
  return ArrayBuffer.isView(value) && value.byteLength === SIZE;
}

// Which arguments each call writes positions into; every other position-sized view is read.
const OUTPUTS: Record<string, number> = { fenParse: 0, play: 2, playSan: 2, sanLine: 4, playLine: 4 };

/** The addon with every function wrapped to keep `ledger`. */
function watched(ledger: Ledger): Native {
  const wrapped: Record<string, unknown> = { ...original };
  for (const [name, value] of Object.entries(original)) {
    if (typeof value !== 'function') continue;
    const fn = value as AnyFunction;
    wrapped[name] = (...args: unknown[]): unknown => {
      ledger.calls.set(name, (ledger.calls.get(name) ?? 0) + 1);
      const out = OUTPUTS[name];
      const inputs = args.filter((arg, i): arg is ArrayBufferView => i !== out && isPosition(arg));
      for (const input of inputs) ledger.record(input.buffer, input.byteOffset, SIZE, `${name} (read)`);
      const target = out === undefined ? undefined : (args[out] as ArrayBufferView);
      if (target) ledger.fresh(target.buffer, target.byteOffset, target.byteLength, name);
      if (name === 'fenParseList') ledger.fresh(args[0] as ArrayBuffer, args[1] as number, SIZE, name);
      const result = fn(...args);
      for (const input of inputs) ledger.verifyOne(input.buffer, input.byteOffset, name);
      if (name === 'fenParseList') {
        // The bytes are there once settled (the wasm engine defers them), which a newest position always is.
        if (original.settleParsed?.(args[0] as ArrayBuffer, args[1] as number) === false) throw new Error('fenParseList: not settled');
        ledger.record(args[0] as ArrayBuffer, args[1] as number, SIZE, name);
      } else if (name === 'playLine') {
        for (let i = 0; i < (result as number); i++) ledger.record(target!.buffer, target!.byteOffset + i * SIZE, SIZE, name);
      } else if (target) ledger.record(target.buffer, target.byteOffset, SIZE, name);
      return result;
    };
  }
  return wrapped as unknown as Native;
}

const { Position } = api;
type Pos = InstanceType<typeof Position>;

/** Every method that creates positions (and every reader), on `start` and the positions after its moves. */
async function exercise(fen: string, chess960: boolean, random: () => number): Promise<void> {
  const root = new Position(fen, { chess960 });
  const keep: Pos[] = [root];
  for (const uci of root.legalMoves()) {
    const next = root.clone().play(uci);
    keep.push(next);
    const reply = next.legalMoves()[0];
    if (reply !== undefined) next.san(reply);
  }
  // A random game with every kind of step, all positions kept alive.
  const game = root.clone();
  const played: string[] = [];
  for (let ply = 0; ply < 40; ply++) {
    const moves = game.legalMoves();
    if (moves.length === 0) break;
    const uci = moves[Math.floor(random() * moves.length)]!;
    played.push(uci);
    const san = game.san(uci);
    expect(game.parseSan(san)).toBe(uci);
    game.legalMovesSan();
    if (ply % 3 === 0) game.playSan(san);
    else game.play(uci);
    keep.push(game.clone());
    game.isCheckmate();
    game.isDraw();
    game.isGameOver();
    game.hash();
    game.board();
    game.pieceAt('e4');
    game.attackers('e4');
    game.inCheck();
    game.fen();
    if (ply % 7 === 6) {
      game.undo();
      game.play(uci);
    }
  }
  // Failures create nothing and write nothing.
  expect(() => game.play('a1a1')).toThrow(api.IllegalMoveError);
  expect(() => game.playSan('Qxz9')).toThrow(api.IllegalMoveError);
  // Lines, as strings and arrays, in full and failing half way.
  const line = root.clone().playLine(played);
  root.clone().playLine(played.join(' '));
  const sans = root.sanLine(played);
  root.clone().playSanLine(sans);
  root.clone().playSanLine(sans.join(' '));
  expect(() => root.clone().playLine([...played.slice(0, 5), 'a1a1'])).toThrow(api.IllegalMoveError);
  expect(() => root.sanLine([...played.slice(0, 5), 'a1a1'])).toThrow(api.IllegalMoveError);
  while (line.undo() !== null) line.fen();
  root.perft(2);
  root.divide(2);
  root.divideBig(1);
  await api.perftAsync(fen, 2, { chess960, divide: true, threads: 1, hashMb: 0 });
  for (const pos of keep) pos.fen();
}

describe('position bytes are never written after creation', () => {
  it('across every position-creating method, on the perft suites', async () => {
    const ledger = new Ledger();
    nativeModule.backend = watched(ledger);
    // A write shows first as a violation; what it broke later (an error) is reported after.
    let failure: unknown = null;
    try {
      const random = rng(7);
      const standard = readEpd('perftsuite.epd').filter((_, i) => i % 8 === 0);
      const fischer = readEpd('fischer.epd').filter((_, i) => i % 60 === 0);
      for (const { fen } of standard) {
        await exercise(fen, false, random);
        ledger.verify(`the calls on ${fen}`);
      }
      for (const { fen } of fischer) {
        await exercise(fen, true, random);
        ledger.verify(`the calls on ${fen}`);
      }
    } catch (e) {
      failure = e;
    } finally {
      nativeModule.backend = original;
    }
    expect(ledger.violations).toEqual([]);
    if (failure !== null) throw failure;
    // It watched what it should: thousands of positions, made by every
    // kind of call, and every function of the addon that takes a position.
    expect(ledger.records.length).toBeGreaterThan(5000);
    const makers = new Set(ledger.records.map((r) => r.what));
    for (const maker of ['fenParseList', 'fenParse', 'play', 'playSan', 'playLine', 'sanLine']) expect(makers, maker).toContain(maker);
    const readers = [
      'fen',
      'turn',
      'inCheck',
      'legalMoves',
      'moveToUci',
      'hash',
      'gameState',
      'board',
      'attackers',
      'san',
      'legalMovesSan',
      'parseSan',
      'perft',
      'divide',
      'perftStart',
    ];
    for (const name of readers) expect(ledger.calls.get(name), name).toBeGreaterThan(0);
  });

  it('the check sees a write: a call that writes the position it reads', () => {
    const ledger = new Ledger();
    const watchedNative = watched(ledger);
    const bytes = new Uint8Array(SIZE);
    watchedNative.fenParse(bytes, api.START_FEN, 0);
    watchedNative.play(bytes, 'e2e4', new Uint8Array(SIZE));
    expect(ledger.violations).toEqual([]);
    // Playing into the position itself writes a recorded position.
    watchedNative.play(bytes, 'd2d4', bytes);
    expect(ledger.violations).toContain('play writes over a position recorded by fenParse');
    expect(ledger.violations).toContain('position recorded by fenParse changed after play');
  });
});
