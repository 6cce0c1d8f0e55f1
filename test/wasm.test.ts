// The engine built as WebAssembly (wasm/chess-native.wasm, from the same
// csrc/engine sources as the addon) through wasm/loader.mjs: perft counts
// exact, move lists and FEN errors identical to the native addon's, the
// single-thread paths of perft jobs and parallel PGN reads, and recovery
// from a trap.
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import * as path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { WasmEngine, WasmTrapError } from '../wasm/loader.mjs';
import { generatePgn } from '../bench/pgn-corpus.mjs';
import { api, PERFT_DIR, readEpd, rng, ROOT } from './helpers';

const { Position, FenError } = api;

/** Counts up to this many leaves are checked (the C tests and the native suites go deeper). */
const LIMIT = 2_000_000n;

let engine: WasmEngine;

beforeAll(async () => {
  engine = await WasmEngine.load(readFileSync(path.join(ROOT, 'wasm', 'chess-native.wasm')));
});

function parsed(fen: string, chess960 = false): Uint8Array {
  const result = engine.parseFen(fen, chess960);
  if (result.status !== 0) throw new Error(`${fen}: ${result.message}`);
  return result.position as Uint8Array;
}

function checkCounts(file: string, every: number) {
  const lines = readEpd(file).filter((_, i) => i % every === 0);
  let checked = 0;
  for (const { line, fen, counts } of lines) {
    const position = parsed(fen);
    for (const [depth, expected] of counts) {
      if (expected > LIMIT) continue;
      expect(engine.perft(position, depth), `${file}:${line} depth ${depth}`).toBe(expected);
      checked++;
    }
  }
  return checked;
}

describe('wasm engine', () => {
  it('has a loader a browser can run as is: no imports at all', () => {
    const loader = readFileSync(path.join(ROOT, 'wasm', 'loader.mjs'), 'utf8');
    expect(loader).not.toMatch(/^\s*import\b|\bimport\(|\brequire\(|\bprocess\./m);
  });

  it("takes the position size and move room from the module's own tables, as the positions it returns have", () => {
    const { layout } = JSON.parse(engine.readCString(Number(engine.call('cn_boundary_tables')))) as {
      layout: { position: { bytes: number }; maxMoves: number };
    };
    expect([engine.positionBytes, engine.maxMoves]).toEqual([layout.position.bytes, layout.maxMoves]);
    expect(parsed('8/8/8/8/8/8/8/K6k w - - 0 1').length).toBe(engine.positionBytes);
  });

  it('is the engine of this package, on its wasm code path', () => {
    expect(engine.implName()).toBe('base-magic');
    expect(engine.readCString(Number(engine.call('cn_slider_path')))).toBe('magic');
  });

  it('counts every CPW position exactly', () => {
    expect(checkCounts('cpw.epd', 1)).toBeGreaterThan(20);
  });

  it('counts a sample of the perftsuite exactly', () => {
    expect(checkCounts('perftsuite.epd', 8)).toBeGreaterThan(50);
  });

  it('lists the same legal moves and writes the same FEN as the native addon', () => {
    const random = rng(29);
    const fens = new Set<string>();
    for (const { fen } of readEpd('perftsuite.epd')) fens.add(fen);
    for (let game = 0; fens.size < 500; game++) {
      const pos = new Position();
      for (let ply = 0; ply < 120 && !pos.isGameOver(); ply++) {
        const moves = pos.legalMoves();
        pos.play(moves[Math.floor(random() * moves.length)] as string);
        if (ply % 7 === game % 7) fens.add(pos.fen());
      }
    }
    for (const fen of fens) {
      const position = parsed(fen);
      const native = new Position(fen);
      expect(engine.legalMoves(position), fen).toEqual(native.legalMoves());
      expect(engine.fen(position), fen).toBe(native.fen());
    }
  });

  it('lists the same Chess960 moves as the native addon', () => {
    for (const { fen } of readEpd('fischer.epd').slice(0, 100)) {
      const native = new Position(fen, { chess960: true });
      expect(engine.legalMoves(parsed(fen, true)), fen).toEqual(native.legalMoves());
    }
  });

  it('rejects a bad FEN with the status, field and message of the native addon', () => {
    const bad = [
      '',
      'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1',
      'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1',
      'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkz - 0 1',
      'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e4 0 1',
      'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -1 1',
      'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0',
      '8/8/8/8/8/8/8/8 w - - 0 1',
      'x'.repeat(200),
    ];
    for (const fen of bad) {
      let nativeError: InstanceType<typeof FenError> | undefined;
      try {
        new Position(fen);
      } catch (error) {
        nativeError = error as InstanceType<typeof FenError>;
      }
      expect(nativeError, fen).toBeInstanceOf(FenError);
      const result = engine.parseFen(fen);
      expect(engine.statusName(result.status)).toBe('CN_ERR_FEN');
      expect(engine.readCString(Number(engine.call('cn_fen_field_name', result.field as number))), fen).toBe(nativeError?.field);
      expect(result.message, fen).toBe(nativeError?.message);
    }
  });

  it('parses a FEN longer than its scratch area (the API layer rejects those before the engine)', () => {
    const result = engine.parseFen(`${'x'.repeat(20000)} w - - 0 1`);
    expect(engine.statusName(result.status)).toBe('CN_ERR_FEN');
    expect(engine.readCString(Number(engine.call('cn_fen_field_name', result.field as number)))).toBe('board');
    expect(engine.legalMoves(parsed('8/8/8/8/8/8/8/K6k w - - 0 1'))).toEqual(['a1a2', 'a1b1', 'a1b2']);
  });
});

/** Writes little-endian int32 fields at ptr. */
function writeInts(ptr: number, values: number[]) {
  const view = new DataView(engine.bytes.buffer);
  values.forEach((value, i) => view.setInt32(ptr + 4 * i, value, true));
}

function readInts(ptr: number, count: number): number[] {
  const view = new DataView(engine.bytes.buffer);
  return Array.from({ length: count }, (_, i) => view.getInt32(ptr + 4 * i, true));
}

function malloc(bytes: number): number {
  const ptr = Number(engine.call('malloc', bytes));
  engine.bytes.fill(0, ptr, ptr + bytes);
  return ptr;
}

describe('wasm engine without threads', () => {
  // cn_perft_job_options on wasm32: depth, threads, hash_bytes, on_finish,
  // user, leaf_depth, min_queue_items (int32 each), padding, key_seed (int64).
  const OPTIONS_BYTES = 40;

  it('runs a hashed perft job on the calling thread: finished, exact, whatever threads it asks for', () => {
    const pos = malloc(engine.positionBytes);
    engine.bytes.set(parsed('r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1'), pos);
    const options = malloc(OPTIONS_BYTES);
    writeInts(options, [4, 8, 1 << 20, 0, 0, 0, 0]);
    const out = malloc(4);
    expect(engine.statusName(Number(engine.call('cn_perft_job_start', pos, options, out)))).toBe('CN_OK');
    const job = readInts(out, 1)[0] as number;
    expect(job).not.toBe(0);
    expect(engine.call('cn_perft_job_state_get', job)).toBe(1); // CN_PERFT_JOB_DONE, at once
    expect(engine.call('cn_perft_job_nodes', job)).toBe(4085603n);
    engine.call('cn_perft_job_wait', job);
    engine.call('cn_perft_job_free', job);
    for (const ptr of [pos, options, out]) engine.call('free', ptr);
  });

  // cn_pgn_input on wasm32: text, length, final, cut, mode, line, column,
  // max_games, stop, consumed, consumed_line, consumed_column, blocks;
  // cn_pgn_output: records, record_count, record_capacity, strings,
  // string_length, string_capacity, games.
  const INPUT_INTS = 13;
  const OUTPUT_INTS = 7;

  function readPgn(text: Uint8Array, threads: number) {
    const textPtr = malloc(text.length);
    engine.bytes.set(text, textPtr);
    const input = malloc(4 * INPUT_INTS);
    writeInts(input, [textPtr, text.length, 1, 0, 0, 1, 0]);
    const output = malloc(4 * OUTPUT_INTS);
    const status =
      threads === 1 ? engine.call('cn_pgn_read', input, output) : engine.call('cn_pgn_read_parallel', input, output, threads, 1024);
    const [records, recordCount, , strings, stringLength, , games] = readInts(output, OUTPUT_INTS) as number[];
    const result = {
      status,
      consumed: readInts(input, INPUT_INTS).slice(9, 12),
      blocks: readInts(input, INPUT_INTS)[12],
      records: engine.bytes.slice(records as number, (records as number) + 16 * (recordCount as number)),
      strings: engine.bytes.slice(strings as number, (strings as number) + (stringLength as number)),
      games,
    };
    engine.call('cn_pgn_output_free', output);
    for (const ptr of [textPtr, input, output]) engine.call('free', ptr);
    return result;
  }

  it('reads a PGN in parallel blocks on the calling thread, exactly as one read', () => {
    const sample = readFileSync(path.join(PERFT_DIR, 'pgn', 'pgn-standard-sample.pgn'), 'utf8');
    const text = new TextEncoder().encode(`${sample}\n${generatePgn({ seed: 29, games: 16 })}`);
    const one = readPgn(text, 1);
    const parallel = readPgn(text, 4);
    expect(one.status).toBe(0);
    expect(one.games).toBeGreaterThan(10);
    expect(parallel.blocks).toBeGreaterThan(1);
    expect(parallel).toEqual({ ...one, blocks: parallel.blocks });
  }, 30_000);
});

describe('wasm engine after a trap', () => {
  it('throws WasmTrapError on an out-of-bounds access and works again on a new instance', () => {
    const generation = engine.generation;
    const beyond = engine.bytes.length + 4096;
    expect(() => engine.call('cn_fen_parse', beyond, beyond, 90, 0, 0)).toThrow(WasmTrapError);
    expect(engine.generation).toBe(generation + 1);
    expect(engine.perft(parsed('8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1'), 5)).toBe(674624n);
  });

  it('throws WasmTrapError on a stack overflow and works again on a new instance', () => {
    // The 1 MiB stack sits below the static data, so an overflow traps at
    // once instead of first running through the engine's tables.
    expect(Number(engine.call('cn_status_name', 0))).toBeGreaterThanOrEqual(1 << 20);
    const generation = engine.generation;
    const position = parsed('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1');
    // Far deeper than the 1 MiB stack holds: the first line of moves overflows it long before the count could end.
    expect(() => engine.perft(position, 100_000)).toThrow(WasmTrapError);
    expect(engine.generation).toBe(generation + 1);
    expect(engine.legalMoves(position)).toEqual(new Position().legalMoves());
  });
});

describe('wasm module size', () => {
  it('is at most 80 KB gzipped, the budget of the browser download', () => {
    const bytes = readFileSync(path.join(ROOT, 'wasm', 'chess-native.wasm'));
    expect(gzipSync(bytes, { level: 9 }).length).toBeLessThanOrEqual(80 * 1024);
  });
});
