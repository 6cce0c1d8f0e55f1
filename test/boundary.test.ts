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
const { layoutOf } = require('../dist/core/wasm/layout.js') as typeof import('../src/core/wasm/layout');

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

/** The layout's struct tables and the table of the module each is read from. */
const STRUCTS = {
  Reader: 'lineReader',
  PgnInput: 'pgnInput',
  PgnPart: 'pgnPart',
  PgnParts: 'pgnParts',
  JobOptions: 'jobOptions',
  Split: 'split',
  FenError: 'fenError',
} as const;

/**
 * Every layout path one wasm backend text reads: `L.Name` and `L.Name.field`
 * after `const L = <...>.layout;`, and the names of `const { A, B } = <...>.layout;`.
 */
function layoutPaths(text: string): string[][] {
  const paths: string[][] = [];
  for (const m of text.matchAll(/\bconst \{([^}]*)\} = [\w.#]+\.layout;/g)) {
    for (const entry of m[1]!.split(',')) if (entry.trim()) paths.push([entry.split(':')[0]!.trim()]);
  }
  if (/\bconst L = [\w.#]+\.layout;/.test(text)) {
    for (const m of text.matchAll(/(?<![\w.])L((?:\.\w+)+)/g)) paths.push(m[1]!.split('.').filter(Boolean));
  }
  return paths;
}

describe('boundary tables', () => {
  let wasm: WasmEngine;
  beforeAll(async () => {
    wasm = await WasmEngine.load(readFileSync(path.join(ROOT, 'wasm', 'chess-native.wasm')));
  });
  const wasmTables = () => JSON.parse(wasm.readCString(Number(wasm.call('cn_boundary_tables')))) as typeof TABLES;

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

  it('are the same from the addon and from the WebAssembly build (but for the address space and the struct layout)', () => {
    const fromWasm = wasmTables();
    const portable = ({ layout: _l, ...t }: typeof TABLES) => ({ ...t, limits: { ...t.limits, maxHashBytes: 0 } });
    expect(portable(fromWasm)).toEqual(portable(TABLES));
    // wasm32 has half of a 4 GiB address space at most.
    expect(fromWasm.limits.maxHashBytes).toBeLessThan(2 ** 32);
    expect(fromWasm.layout.sizeBytes).toBe(4);
    // Each build gives its own layout: the addon's is the one it copies positions with.
    expect(TABLES.layout.position['bytes']).toBe(backend.positionBytes);
    expect(TABLES.layout.position['key']).toBe(backend.keyOffset);
    expect(TABLES.layout.maxMoves).toBe(backend.maxMoves);
    expect(BigInt(TABLES.keySeeds.perftVerify)).toBe(backend.perftVerifyKeySeed);
  });

  it("give the wasm backend its layout: each struct's offsets and size, the limits and statuses, from the module", () => {
    const t = wasmTables();
    const L = layoutOf(t);
    for (const [name, table] of Object.entries(STRUCTS)) {
      const fields = L[name as keyof typeof STRUCTS] as Record<string, number>;
      const expected = Object.fromEntries(Object.keys(fields).map((key) => [key, t.layout[table][key]]));
      expect(fields, name).toEqual(expected);
    }
    expect(L.POSITION_BYTES).toBe(t.layout.position['bytes']);
    expect([L.KEY_OFFSET, L.FULLMOVE_OFFSET, L.SIDE_OFFSET]).toEqual(['key', 'fullmove', 'side'].map((k) => t.layout.position[k]));
    expect(L.Status).toEqual(t.status);
    expect([L.MAX_DEPTH, L.JOB_MAX_UNITS, L.FEN_MAX_LENGTH, L.MAX_HASH_BYTES, L.NO_SQUARE]).toEqual([
      t.limits.maxDepth,
      t.limits.maxUnits,
      t.limits.fenMaxLength,
      t.limits.maxHashBytes,
      t.limits.noSquare,
    ]);
    expect(L.PERFT_VERIFY_KEY_SEED).toBe(backend.perftVerifyKeySeed);
    expect(Object.isFrozen(L) && Object.isFrozen(L.PgnInput) && Object.isFrozen(L.Slot) && Object.isFrozen(L.Status)).toBe(true);
  });

  it("lay the wasm scratch block's slots out from the struct sizes: 8-aligned, in order, each as large as what it holds", () => {
    const t = wasmTables();
    const L = layoutOf(t);
    const slots = Object.entries(L.Slot).sort((a, b) => a[1] - b[1]);
    expect(slots[0]).toEqual(['pos', 0]);
    expect(slots.at(-1)![0]).toBe('end');
    const room = (name: keyof typeof L.Slot) => slots[slots.findIndex(([n]) => n === name) + 1]![1] - L.Slot[name];
    for (const [name, at] of slots) expect(at % 8, name).toBe(0);
    expect(room('pos')).toBeGreaterThanOrEqual(L.POSITION_BYTES);
    expect(room('out')).toBeGreaterThanOrEqual(L.POSITION_BYTES);
    expect(room('fenError')).toBeGreaterThanOrEqual(t.layout.fenError['bytes']!);
    expect(room('moves')).toBeGreaterThanOrEqual(2 * L.MAX_MOVES);
    expect(room('counts')).toBeGreaterThanOrEqual(8 * L.MAX_MOVES);
    expect(room('text')).toBeGreaterThanOrEqual(Math.max(L.FEN_MAX_LENGTH + 2, L.FEN_BYTES, L.KEY_SET_NAME_MAX));
    expect(room('sans')).toBeGreaterThanOrEqual(L.SAN_MAX * Math.max(L.MAX_MOVES, L.SAN_LINE_MOVES));
    expect(room('reader')).toBeGreaterThanOrEqual(L.Reader.bytes);
    expect(room('options')).toBeGreaterThanOrEqual(L.JobOptions.bytes);
    expect(room('pgnInput')).toBeGreaterThanOrEqual(L.PgnInput.bytes);
    expect(room('pgnParts')).toBeGreaterThanOrEqual(L.PgnParts.bytes);
    expect(room('undo')).toBeGreaterThanOrEqual(t.layout.undo['bytes']!);
  });

  it('name every layout value the wasm backend reads (a scan of src/core/wasm*), with a self-test of the scan', () => {
    const L = layoutOf(wasmTables());
    const files = [path.join(ROOT, 'src', 'core', 'wasm-backend.ts'), ...sourceFiles(path.join(ROOT, 'src', 'core', 'wasm'))];
    const missing: string[] = [];
    let uses = 0;
    for (const file of files) {
      for (const keys of layoutPaths(readFileSync(file, 'utf8'))) {
        uses++;
        if (lookup(L as unknown as Json, keys) === undefined) missing.push(`${path.relative(ROOT, file)}: ${keys.join('.')}`);
      }
    }
    expect(missing).toEqual([]);
    expect(uses).toBeGreaterThan(100);
    const wrong = 'const L = w.layout;\nview.setUint32(at + L.PgnInput.consumedLines, 1);\nconst { Slot, JobOption } = engine.layout;';
    expect(layoutPaths(wrong).filter((keys) => lookup(L as unknown as Json, keys) === undefined)).toEqual([
      ['JobOption'],
      ['PgnInput', 'consumedLines'],
    ]);
  });

  it('refuse, at instantiate, a layout with a field missing, out of its struct or on another field, or not wasm32', () => {
    const t = wasmTables();
    const changed = (struct: 'pgnInput' | 'split' | 'position', field: string, value: number | undefined) => {
      const copy = JSON.parse(JSON.stringify(t)) as typeof TABLES;
      (copy.layout[struct] as Record<string, number | undefined>)[field] = value;
      return copy;
    };
    expect(() => layoutOf(t)).not.toThrow();
    expect(() => layoutOf(changed('pgnInput', 'consumedLine', undefined))).toThrow(/lack pgnInput.consumedLine/);
    expect(() => layoutOf(changed('pgnInput', 'line', t.layout.pgnInput['column']))).toThrow(/pgnInput.column .* not a field of its own/);
    expect(() => layoutOf(changed('split', 'rootMoves', t.layout.split['bytes']))).toThrow(/split.rootMoves .* not a field of its own/);
    expect(() => layoutOf(changed('position', 'key', -8))).toThrow(/lack position.key/);
    // The addon's tables on a 64-bit host: 8-byte size_t and pointers.
    if (TABLES.layout.sizeBytes !== 4) expect(() => layoutOf(TABLES)).toThrow(/needs a wasm32 module/);
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
