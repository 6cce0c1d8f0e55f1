// The boundary's tables (csrc/engine/include/boundary.h): one JSON text from
// the engine, the same from the addon and from the WebAssembly build, every
// key TypeScript reads present in it, and frozen.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { WasmEngine } from '../wasm/loader.mjs';
import { ROOT } from './helpers';

const require = createRequire(import.meta.url);
const boundary = require('../dist/core/boundary.js') as typeof import('../src/core/boundary');
const { backend, TABLES } = boundary;

type Json = { [key: string]: Json } | number | string;

/** The names src/ reads the tables by, and the table each stands for. */
const ROOTS: Record<string, string[]> = {
  TABLES: [],
  SLOTS: ['slots'],
  SLOT_LENGTHS: ['slotLengths'],
  LIMITS: ['limits'],
  PGN: ['pgn'],
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return sourceFiles(file);
    return name.endsWith('.ts') ? [file] : [];
  });
}

function lookup(tables: Json, keys: readonly string[]): Json | undefined {
  let node: Json | undefined = tables;
  for (const key of keys) {
    if (typeof node !== 'object' || !Object.hasOwn(node, key)) return undefined;
    node = node[key];
  }
  return node;
}

/**
 * Every table path one TypeScript text reads: `ROOT.a.b`, through aliases
 * (`const C = PGN; C.op.game`) and destructuring (`const { a: X } = SLOTS.t`).
 */
function tablePaths(text: string): string[][] {
  const bases = new Map(Object.entries(ROOTS));
  const chain = (name: string, rest: string): string[] | undefined => {
    const base = bases.get(name);
    return base && [...base, ...rest.split('.').filter(Boolean)];
  };
  // Aliases first, in order: `const NAME = ROOT.path;` or `const NAME: Type = ROOT.path;`.
  for (const m of text.matchAll(/\bconst (\w+)(?::[^=]+)? = (\w+)((?:\.\w+)*);/g)) {
    const resolved = chain(m[2]!, m[3]!);
    if (resolved) bases.set(m[1]!, resolved);
  }
  const paths: string[][] = [];
  for (const m of text.matchAll(/\bconst \{([^}]*)\} = (\w+)((?:\.\w+)*);/g)) {
    const base = chain(m[2]!, m[3]!);
    if (!base) continue;
    for (const entry of m[1]!.split(',')) {
      const key = entry.split(':')[0]!.trim();
      if (key) paths.push([...base, key]);
    }
  }
  for (const m of text.matchAll(/(?<![\w.])(\w+)((?:\.\w+)+)/g)) {
    if (m[1] === 'this') continue;
    const resolved = chain(m[1]!, m[2]!);
    if (resolved && resolved.length) paths.push(resolved);
  }
  return paths;
}

/** The first key of `path` that the tables lack; undefined when all are there. */
function missingKey(tables: Json, keys: string[]): string | undefined {
  for (let i = 1; i <= keys.length; i++) {
    const node = lookup(tables, keys.slice(0, i));
    if (node === undefined) return keys.slice(0, i).join('.');
    // A member of a number or string (`.toString`) is not a table key.
    if (typeof node !== 'object') return undefined;
  }
  return undefined;
}

describe('boundary tables', () => {
  let wasm: WasmEngine;
  beforeAll(async () => {
    wasm = await WasmEngine.load(readFileSync(path.join(ROOT, 'wasm', 'chess-native.wasm')));
  });

  it('are one JSON text of the engine, frozen all the way down', () => {
    expect(typeof backend.boundaryTables).toBe('string');
    expect(TABLES).toEqual(JSON.parse(backend.boundaryTables));
    const unfrozen: string[] = [];
    const walk = (node: Json, at: string): void => {
      if (typeof node !== 'object') return;
      if (!Object.isFrozen(node)) unfrozen.push(at);
      for (const [key, child] of Object.entries(node)) walk(child, `${at}.${key}`);
    };
    walk(TABLES as unknown as Json, 'TABLES');
    expect(unfrozen).toEqual([]);
    expect(Object.isFrozen(boundary.PGN.op)).toBe(true);
  });

  it('are the same from the addon and from the WebAssembly build (but for the address-space limit)', () => {
    const fromWasm = JSON.parse(wasm.readCString(Number(wasm.call('cn_boundary_tables')))) as typeof TABLES;
    const withoutHash = (t: typeof TABLES) => ({ ...t, limits: { ...t.limits, maxHashBytes: 0 } });
    expect(withoutHash(fromWasm)).toEqual(withoutHash(TABLES));
    // wasm32 has half of a 4 GiB address space at most.
    expect(fromWasm.limits.maxHashBytes).toBeLessThan(2 ** 32);
  });

  it("are what the wasm backend's restated struct constants say (src/core/wasm/layout.ts)", () => {
    const L = require('../dist/core/wasm/layout.js') as typeof import('../src/core/wasm/layout');
    const t = JSON.parse(wasm.readCString(Number(wasm.call('cn_boundary_tables')))) as typeof TABLES;
    expect({
      maxDepth: L.MAX_DEPTH,
      maxThreads: L.JOB_MAX_THREADS,
      maxUnits: L.JOB_MAX_UNITS,
      maxHashBytes: L.MAX_HASH_BYTES,
      fenMaxLength: L.FEN_MAX_LENGTH,
      uciMaxLength: L.UCI_MAX,
      sanMaxLength: L.SAN_LINE_MAX,
      lineMaxMoves: L.LINE_MAX_MOVES,
      sanLineMoves: L.SAN_LINE_MOVES,
      uciRecordBytes: L.UCI_RECORD_BYTES,
      noSquare: L.NO_SQUARE,
    }).toEqual(t.limits);
  });

  it('give each slot of an array its own index, below the array length', () => {
    for (const [name, slots] of Object.entries(TABLES.slots)) {
      const indices = Object.values(slots as Record<string, number>);
      expect(new Set(indices).size, name).toBe(indices.length);
      const length = (TABLES.slotLengths as Record<string, number>)[name] ?? TABLES.pgn.recordInts;
      for (const index of indices) expect(index >= 0 && index < length, `${name}: ${index}`).toBe(true);
    }
    expect(TABLES.slotLengths.pgnState).toBe(TABLES.pgn.stateLength);
    expect(TABLES.slotLengths.pgnRecord).toBe(TABLES.pgn.recordInts);
  });

  it('hold every table key src/ reads', () => {
    const files = sourceFiles(path.join(ROOT, 'src'));
    const missing: string[] = [];
    let uses = 0;
    for (const file of files) {
      for (const keys of tablePaths(readFileSync(file, 'utf8'))) {
        uses++;
        const key = missingKey(TABLES as unknown as Json, keys);
        if (key) missing.push(`${path.relative(ROOT, file)}: ${key}`);
      }
    }
    expect(missing).toEqual([]);
    // The scan sees the uses: every slot table and code table is read somewhere.
    expect(uses).toBeGreaterThan(60);
  });

  it('the scan catches a key the tables lack, through an alias and a destructuring', () => {
    const text = [
      'const STATE = SLOTS.pgnState;',
      'state[STATE.consumd] = 1;',
      'const { status: S, bogus } = SLOTS.lineState;',
      'const C = PGN;',
      'if (op === C.op.gam) {}',
      'LIMITS.maxDepth.toString();',
    ].join('\n');
    const missing = tablePaths(text)
      .map((keys) => missingKey(TABLES as unknown as Json, keys))
      .filter(Boolean);
    expect(missing.sort()).toEqual(['pgn.op.gam', 'slots.lineState.bogus', 'slots.pgnState.consumd']);
  });

  it('name the board codes of every piece and the empty square as board() writes them', () => {
    const pos = new Uint8Array(backend.positionBytes);
    backend.fenParse(pos, 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', 0);
    const board = new Uint8Array(64);
    backend.board(pos, board);
    const B = TABLES.board;
    expect([...board.subarray(0, 8)]).toEqual([
      B.whiteRook,
      B.whiteKnight,
      B.whiteBishop,
      B.whiteQueen,
      B.whiteKing,
      B.whiteBishop,
      B.whiteKnight,
      B.whiteRook,
    ]);
    expect(board[8]).toBe(B.whitePawn);
    expect(board[32]).toBe(B.empty);
    expect(board[52]).toBe(B.blackPawn);
    expect([...board.subarray(56, 64)]).toEqual([
      B.blackRook,
      B.blackKnight,
      B.blackBishop,
      B.blackQueen,
      B.blackKing,
      B.blackBishop,
      B.blackKnight,
      B.blackRook,
    ]);
    expect(backend.turn(pos)).toBe(TABLES.colors.white);
  });
});
