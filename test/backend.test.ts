// Which engine backs the API, and the wasm backend's own machinery: the
// addon by default, the WebAssembly build when forced (CHESS_NATIVE_BACKEND,
// chess-native/wasm) or when no addon binary loads; a trap inside the module
// becomes an engine error and the engine carries on; both backends answer
// every binding call alike.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { provideModule } from '../src/core/wasm/instance';
import { generatePgn } from '../bench/pgn-corpus.mjs';
import type { PgnParts } from '../src/core/boundary';
import { gameTextEnds } from '../src/pgn/records';
import { readEpd, rng, ROOT } from './helpers';

const require = createRequire(import.meta.url);
type NativeModule = typeof import('../src/core/boundary');
type InstanceModule = typeof import('../src/core/wasm/instance');

/** Runs `script` in a new node process with env (CHESS_NATIVE_BACKEND unset unless given); returns its stdout's JSON. */
function run(script: string, env: Record<string, string> = {}, cwd = ROOT): unknown {
  const clean = { ...process.env };
  delete clean['CHESS_NATIVE_BACKEND'];
  const r = spawnSync(process.execPath, ['-e', script], { cwd, env: { ...clean, ...env }, encoding: 'utf8' });
  expect(r.stderr).toBe('');
  return JSON.parse(r.stdout) as unknown;
}

const REPORT = `const r = (f) => { try { return f(); } catch (e) { return { error: e.name, message: e.message }; } };`;

describe('backend choice', () => {
  let bare: string;

  beforeAll(() => {
    // The package without any addon binary (no prebuilds/, no build/): what a platform without a prebuild or a compiler gets.
    bare = mkdtempSync(path.join(tmpdir(), 'chess-native-bare-'));
    for (const part of ['dist', 'wasm', 'package.json']) cpSync(path.join(ROOT, part), path.join(bare, part), { recursive: true });
    symlinkSync(path.join(ROOT, 'node_modules'), path.join(bare, 'node_modules'));
  });
  afterAll(() => rmSync(bare, { recursive: true, force: true }));

  it('is the addon by default, and the wasm engine when CHESS_NATIVE_BACKEND=wasm', () => {
    const script = `const { engineInfo, Position } = require('./dist/index.js');
      console.log(JSON.stringify({ backend: engineInfo().backend, perft: new Position().perft(3) }));`;
    expect(run(script)).toEqual({ backend: 'native', perft: 8902 });
    expect(run(script, { CHESS_NATIVE_BACKEND: 'native' })).toEqual({ backend: 'native', perft: 8902 });
    expect(run(script, { CHESS_NATIVE_BACKEND: 'wasm' })).toEqual({ backend: 'wasm', perft: 8902 });
  });

  it('uses a module provided before the engine loads, as the browser entry does, and reads no file for it', () => {
    const provide = provideModule.name;
    const script = `const fs = require('node:fs');
      const { ${provide}: provideModule } = require('./dist/core/wasm/instance.js');
      require('./dist/core/backend-choice.js').requestBackend('wasm');
      provideModule(new WebAssembly.Module(fs.readFileSync('wasm/chess-native.wasm')));
      fs.rmSync('wasm/chess-native.wasm');
      const { engineInfo, Position } = require('./dist/index.js');
      console.log(JSON.stringify({ backend: engineInfo().backend, perft: new Position().perft(3) }));`;
    const copy = mkdtempSync(path.join(tmpdir(), 'chess-native-provided-'));
    try {
      for (const part of ['dist', 'wasm', 'package.json']) cpSync(path.join(bare, part), path.join(copy, part), { recursive: true });
      symlinkSync(path.join(ROOT, 'node_modules'), path.join(copy, 'node_modules'));
      expect(run(script, {}, copy)).toEqual({ backend: 'wasm', perft: 8902 });
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });

  it('falls back to wasm where no addon binary loads, and says so in engineInfo', () => {
    const script = `const { engineInfo, perftAsync, START_FEN } = require('./dist/index.js');
      perftAsync(START_FEN, 3, { threads: 2 }).then(({ nodes }) => console.log(JSON.stringify({ backend: engineInfo().backend, nodes: String(nodes) })));`;
    expect(run(script, {}, bare)).toEqual({ backend: 'wasm', nodes: '8902' });
  });

  it('throws the load error when the addon is forced and does not load, and refuses an unknown backend', () => {
    const script = `${REPORT} console.log(JSON.stringify(r(() => require('./dist/index.js'))));`;
    expect(run(script, { CHESS_NATIVE_BACKEND: 'native' }, bare)).toMatchObject({
      error: 'Error',
      message: expect.stringMatching(/No native build/),
    });
    expect(run(script, { CHESS_NATIVE_BACKEND: 'gpu' })).toEqual({
      error: 'Error',
      message: "CHESS_NATIVE_BACKEND must be 'native' or 'wasm', not 'gpu'",
    });
  });

  it('chess-native/wasm forces wasm, and refuses once the addon has loaded', () => {
    const first = `const { engineInfo } = require('./dist/wasm.js'); const main = require('./dist/index.js');
      console.log(JSON.stringify({ backend: engineInfo().backend, same: main.engineInfo === engineInfo }));`;
    expect(run(first)).toEqual({ backend: 'wasm', same: true });
    const late = `${REPORT} require('./dist/index.js'); console.log(JSON.stringify(r(() => require('./dist/wasm.js'))));`;
    expect(run(late)).toEqual({
      error: 'Error',
      message: 'chess-native is already loaded with the native backend: load chess-native/wasm first, or set CHESS_NATIVE_BACKEND=wasm',
    });
  });
});

describe('wasm engine instance', () => {
  const { Engine, compileModule } = require('../dist/core/wasm/instance.js') as InstanceModule;

  it('turns a trap into a CN_ERR_WASM_TRAP error and carries on with a new instance', () => {
    const engine = new Engine(compileModule());
    const start = engine.scratch;
    // Any address past the end of the memory traps.
    expect(() => engine.call('cn_perft', 0xffff_fff0, 3)).toThrow(expect.objectContaining({ code: 'CN_ERR_WASM_TRAP' }));
    expect(engine.generation).toBe(2);
    expect(engine.scratch).toBe(start);
    expect(engine.statusName(1)).toBe('CN_ERR_FEN');
  });

  it('gives the hot paths that call an export directly the same error for a trap, and passes other errors through', () => {
    const engine = new Engine(compileModule());
    const wasm = (globalThis as unknown as { WebAssembly: { RuntimeError: new (message: string) => Error } }).WebAssembly;
    const trap = engine.trapped('cn_legal_moves_sorted', new wasm.RuntimeError('memory access out of bounds'));
    expect(trap).toMatchObject({ code: 'CN_ERR_WASM_TRAP', message: expect.stringContaining('cn_legal_moves_sorted') });
    expect(engine.generation).toBe(2);
    expect(engine.exports.cn_fen_write).toBeTypeOf('function');
    const other = new TypeError('not a trap');
    expect(engine.trapped('cn_fen_parse', other)).toBe(other);
    expect(engine.generation).toBe(2);
  });

  it('becomes an EngineError through the API', () => {
    const { publicError } = require('../dist/core/boundary.js') as NativeModule;
    const engine = new Engine(compileModule());
    let thrown: unknown;
    try {
      engine.call('cn_fen_write', 0xffff_fff0, 0, 128);
    } catch (e) {
      thrown = publicError(e);
    }
    expect(thrown).toMatchObject({ name: 'EngineError', code: 'CN_ERR_WASM_TRAP' });
  });
});

describe("the wasm backend's parsed positions", () => {
  const { Engine, compileModule } = require('../dist/core/wasm/instance.js') as InstanceModule;
  const { loadWasm } = require('../dist/core/wasm-backend.js') as typeof import('../src/core/wasm-backend');
  const fens = readEpd('perftsuite.epd').map(({ fen }) => fen);

  /** Parses fens[i] into `slab` at each (i, at) of `places` through `backend`; the moves lists it returned. */
  function parseAll(backend: ReturnType<typeof loadWasm>, slab: ArrayBuffer, places: [number, number][]): number[][] {
    const list = new Uint16Array(backend.maxMoves);
    return places.map(([i, at]) => Array.from(list.subarray(0, backend.fenParseList(slab, at, fens[i]!, 0, list.buffer))));
  }

  /** Every position of `places` holds the bytes fenParse gives its FEN, and each list is its legalMoves. */
  function expectParsed(backend: ReturnType<typeof loadWasm>, slab: ArrayBuffer, places: [number, number][], lists: number[][]): void {
    const size = backend.positionBytes;
    const want = new Uint8Array(size);
    const moves = new Uint16Array(backend.maxMoves);
    places.forEach(([i, at], k) => {
      backend.fenParse(want, fens[i]!, 0);
      expect(Array.from(new Uint8Array(slab, at, size)), `${fens[i]} at ${at}`).toEqual(Array.from(want));
      expect(lists[k], fens[i]).toEqual(Array.from(moves.subarray(0, backend.legalMoves(want, moves))));
    });
  }

  it('holds the newest positions until asked for, copies each one asked for, and no other', () => {
    const engine = new Engine(compileModule());
    const backend = loadWasm(engine);
    const size = backend.positionBytes;
    const held = engine.layout.PARSED_POSITIONS;
    const slab = new ArrayBuffer(300 * size);
    // 200 in a row (more than are held), then one out of order and an unaligned one in another slab.
    const places = Array.from({ length: 200 }, (_, i): [number, number] => [i % fens.length, i * size]);
    const lists = parseAll(backend, slab, places);
    const other = new ArrayBuffer(4 * size + 3);
    const elsewhere: [number, number][] = [[2, 3]];
    const otherLists = parseAll(backend, other, elsewhere);
    const late: [number, number][] = [[1, 250 * size]];
    const lateLists = parseAll(backend, slab, late);
    // Nothing is copied out before it is asked for.
    expect(new Uint8Array(slab).every((b) => b === 0)).toBe(true);
    // The newest are held, but for the two whose index the last two took (3 / size and 250 mod held).
    const taken = new Set([0, 250 % held]);
    const wrong = places.filter(([, at], k) => backend.settleParsed!(slab, at) === (k < 200 - held || taken.has(k % held)));
    expect(wrong).toEqual([]);
    expect(backend.settleParsed!(other, 3)).toBe(true);
    expect(backend.settleParsed!(slab, 250 * size)).toBe(true);
    const kept = places
      .map((p, k): [[number, number], number[]] => [p, lists[k]!])
      .filter((_, k) => k >= 200 - held && !taken.has(k % held));
    expectParsed(backend, slab, [...kept.map(([p]) => p), ...late], [...kept.map(([, l]) => l), ...lateLists]);
    expectParsed(backend, other, elsewhere, otherLists);
    // The others' bytes stay as they were: the caller parses them again.
    const dropped = places.filter((_, k) => k < 200 - held || taken.has(k % held));
    for (const [, at] of dropped) expect(new Uint8Array(slab, at, size).every((b) => b === 0)).toBe(true);
    // A failed parse takes the index too.
    parseAll(backend, slab, [[0, 260 * size]]);
    expect(() => backend.fenParseList(slab, 260 * size, '8/8/8/8/8/8/8/8 w - - 0 1', 0, new ArrayBuffer(2 * backend.maxMoves))).toThrow();
    expect(backend.settleParsed!(slab, 260 * size)).toBe(false);
  });

  it('holds no parsed position after a trap, and a Position made before one is parsed again', () => {
    const engine = new Engine(compileModule());
    const backend = loadWasm(engine);
    const slab = new ArrayBuffer(10 * backend.positionBytes);
    const places: [number, number][] = [0, 1, 2].map((i) => [i, i * backend.positionBytes]);
    parseAll(backend, slab, places);
    expect(() => engine.call('cn_perft', 0xffff_fff0, 3)).toThrow(expect.objectContaining({ code: 'CN_ERR_WASM_TRAP' }));
    expect(engine.generation).toBe(2);
    for (const [, at] of places) expect(backend.settleParsed!(slab, at)).toBe(false);
  });
});

describe('both backends answer every binding call alike', () => {
  const nativeModule = require('../dist/core/boundary.js') as NativeModule;
  const { loadWasm } = require('../dist/core/wasm-backend.js') as typeof import('../src/core/wasm-backend');
  const engines = { native: nativeModule.backend, wasm: loadWasm() };
  type Call = (n: NativeModule['backend']) => unknown;

  /** What a call returns or throws, with its output arguments. */
  function outcome(call: Call, n: NativeModule['backend']): unknown {
    try {
      return { value: call(n) };
    } catch (e) {
      const error = e as Error & { code?: string; field?: string };
      return { error: error.constructor.name, message: error.message, code: error.code, field: error.field };
    }
  }

  function same(call: Call): void {
    expect(outcome(call, engines.wasm)).toEqual(outcome(call, engines.native));
  }

  it('has the same constants but for napi, impl, sliders, initMs, the table limit and the struct layout', () => {
    const constants = (n: NativeModule['backend']) => {
      const {
        napi: _n,
        impl: _i,
        sliders: _s,
        initMs: _m,
        boundaryTables,
        ...rest
      } = n as unknown as Record<string, unknown> & { boundaryTables: string };
      const { layout: _l, ...tables } = JSON.parse(boundaryTables) as { limits: Record<string, number>; layout: unknown };
      const { maxHashBytes: _h, ...limits } = tables.limits;
      return { ...Object.fromEntries(Object.entries(rest).filter(([, v]) => typeof v !== 'function')), tables: { ...tables, limits } };
    };
    expect(constants(engines.wasm)).toEqual(constants(engines.native));
  });

  it('answers the position, SAN and line calls alike over random games', () => {
    const random = rng(2029);
    const fens = readEpd('perftsuite.epd').map((l) => l.fen);
    for (let i = 0; i < 60; i++) {
      const fen = fens[Math.floor(random() * fens.length)] as string;
      const pos = new Uint8Array(96);
      engines.native.fenParse(pos, fen, 0);
      const moves = new Uint16Array(512);
      const n = engines.native.legalMoves(pos, moves);
      const pick = n ? engines.native.moveToUci(pos, moves[Math.floor(random() * n)] as number) : 'e2e4';
      same((e) => {
        const list = new Uint16Array(512);
        return [e.legalMoves(pos, list), Array.from(list)];
      });
      same((e) => [e.fen(pos), e.turn(pos), e.inCheck(pos), e.hash(pos), e.gameState(pos)]);
      same((e) => {
        const out = new Uint8Array(96);
        return [e.play(pos, pick, out), Array.from(out)];
      });
      same((e) => [e.san(pos, pick), e.isLegal(pos, pick), e.isLegal(pos, 'a1a1'), e.perft(pos, 2)]);
      same((e) => e.legalMovesSan(pos, new Uint16Array(512)));
      same((e) => {
        const board = new Uint8Array(64);
        const attackers = new Uint8Array(64);
        e.board(pos, board);
        return [Array.from(board), e.attackers(pos, i % 64, (i % 2) as 0 | 1, attackers), Array.from(attackers)];
      });
      same((e) => {
        const root = new Uint16Array(512);
        const counts = new BigUint64Array(512);
        return [e.divide(pos, 2, root, counts), Array.from(root), Array.from(counts)];
      });
      const line = new TextEncoder().encode(`${pick} e7e5 g8f6 zz9 b1c3`);
      same((e) => {
        const state = new Float64Array(4);
        const positions = new Uint8Array(96 * 8);
        const played = new Uint16Array(8);
        const ucis = new Uint8Array(6 * 8);
        return [
          e.playLine(pos, line, 0, 0, positions, played, ucis, state),
          Array.from(state),
          Array.from(positions),
          Array.from(played),
          Array.from(ucis),
        ];
      });
      same((e) => {
        const state = new Float64Array(4);
        const end = new Uint8Array(96);
        return [e.sanLine(pos, line, 0, 0, end, state), Array.from(state), Array.from(end)];
      });
      for (const bad of ['e9e9', 'Qxz9', 'O-O-O-O', '', 'é2e4', 'N'.repeat(40)]) {
        same((e) => e.parseSan(pos, bad));
        same((e) => e.play(pos, bad, new Uint8Array(96)));
      }
    }
  });

  it('parses and plays relaxed positions alike (no king, crowds, castling rights as given)', () => {
    const none = 64;
    const cases: [string, number, number][] = [
      ['8/8/8/8/8/8/8/4Q3 w - - 0 1', none, none],
      ['QQQQQQQB/Q6Q/Q6Q/Q6Q/Q6Q/Q6Q/Q6Q/BQQQQQQQ w - - 0 1', none, none],
      ['4k3/8/8/8/8/8/8/4RK2 w - - 0 1', 5, 60],
      ['8/8/8/8/8/8/8/4K2n w K - 0 1', 4, none],
      ['r3N3/8/8/8/8/8/8/5K2 b q - 0 1', 5, 60],
      ['3k4/8/8/2pP4/8/8/8/3RK3 w - c6 0 1', 4, 59],
      ['nnnnknnn/pppppppp/pppppppp/8/8/PPPPPPPP/PPPPPPPP/NNNNKNNN w - - 0 1', 4, 60],
    ];
    for (const [fen, white, black] of cases) {
      same((e) => {
        const out = new Uint8Array(96);
        e.fenParseRelaxed(out, fen, white, black);
        return Array.from(out);
      });
      const pos = new Uint8Array(96);
      engines.native.fenParseRelaxed(pos, fen, white, black);
      const moves = new Uint16Array(512);
      const n = engines.native.legalMoves(pos, moves);
      const pick = engines.native.moveToUci(pos, moves[n >> 1] as number);
      same((e) => {
        const list = new Uint16Array(512);
        return [e.legalMoves(pos, list), Array.from(list), e.legalMovesSan(pos, new Uint16Array(512))];
      });
      same((e) => [e.fen(pos), e.turn(pos), e.inCheck(pos), e.hash(pos), e.gameState(pos), e.perft(pos, 2)]);
      same((e) => {
        const out = new Uint8Array(96);
        return [e.play(pos, pick, out), Array.from(out), e.san(pos, pick), e.parseSan(pos, e.san(pos, pick))];
      });
      same((e) => {
        const attackers = new Uint8Array(64);
        return [e.attackers(pos, 36, 0, attackers), Array.from(attackers)];
      });
    }
    for (const [white, black] of [
      [65, 64],
      [-1, 64],
      [4.5, 64],
      [3, 60],
    ])
      same((e) => e.fenParseRelaxed(new Uint8Array(96), '4k3/8/8/8/8/8/8/4K3 w - - 0 1', white as number, black as number));
    for (const bad of ['8/8/8/8/8/8/8/8 x - - 0 1', '8/8/8/8/8/8/8/8 w KX - 0 1', '8/8/8/8/8/8/8/9 w - - 0 1', 'x'.repeat(300)])
      same((e) => e.fenParseRelaxed(new Uint8Array(96), bad, 64, 64));
  });

  it('reads PGN alike, parts and state', () => {
    const text = new TextEncoder().encode('[White "A"]\n\n1. e4 e5 2. Nf3 {ok} (2. f4 exf4) Nc6 3. Bb5 zz 1-0\n\n[FEN "bad"]\n\n1. e4 *\n');
    for (const mode of [0, 1, 2]) {
      same((e) => {
        const state = new Float64Array([1, mode, 1, 0, 0, 0, 0, 1]);
        const parts = e.pgnRead(text, state);
        return [parts.map((p) => (typeof p === 'number' ? p : Array.from(p as Uint8Array))), Array.from(state)];
      });
    }
    same((e) => e.pgnRead(text, new Float64Array([1, 3, 1, 0, 0, 0, 0, 1])));
    // A read larger than the module's memory grows it; every call after sees the new memory.
    const big = new TextEncoder().encode('[White "A"]\n\n1. e4 e5 2. Nf3 *\n\n'.repeat(1 << 19));
    same((e) => e.pgnRead(big, new Float64Array([1, 2, 1, 0, 0, 0, 0, 1])).length);
    const pos = new Uint8Array(96);
    engines.native.fenParse(pos, 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1', 0);
    same((e) => [e.fen(pos), e.legalMovesSan(pos, new Uint16Array(512))]);
    same((e) => e.pgnRead('text' as unknown as Uint8Array, new Float64Array(8)));
  });

  it("reads a string with the wasm engine's pgnReadText as pgnRead reads its UTF-8", () => {
    const read = engines.wasm.pgnReadText!;
    // An ASCII table comes decoded (a string a game): compared as its bytes.
    const bytesOf = (x: unknown) => Array.from(Array.isArray(x) ? Buffer.from(x.join(''), 'latin1') : (x as Uint8Array));
    const parts = (p: unknown[]) => p.map((x) => (typeof x === 'number' ? x : bytesOf(x)));
    for (const text of ['', '1. e4 {ok} e5 *', '[White "Müller"]\n\n1. e4 {café \ud800} e5 *', '1. e4 { \u{1f600} } *\n'.repeat(50)]) {
      const state = () => new Float64Array([1, 0, 1, 0, 0, 0, 0, 1]);
      const viaText = state();
      const viaBytes = state();
      expect(parts(read(text, viaText, gameTextEnds)), JSON.stringify(text)).toEqual(
        parts(engines.native.pgnRead(Buffer.from(text, 'utf8'), viaBytes)),
      );
      expect(Array.from(viaText)).toEqual(Array.from(viaBytes));
    }
    const outcomes = (call: () => unknown) => outcome(() => call(), engines.wasm);
    expect(outcomes(() => read('1. e4 *', new Float64Array(8), gameTextEnds))).toEqual(
      outcomes(() => engines.wasm.pgnRead(new Uint8Array(0), new Float64Array(8))),
    );
    expect(
      outcomes(() => read(new Uint8Array(1) as unknown as string, new Float64Array([1, 0, 1, 0, 0, 0, 0, 1]), gameTextEnds)),
    ).toMatchObject({
      error: 'TypeError',
    });
  });

  it('slices a decoded table across its strings, empty ones too', () => {
    const { DecodedTable } = require('../dist/pgn/decoded-table.js') as typeof import('../src/pgn/decoded-table');
    const pieces = ['ab', '', 'cde', '', '', 'f'];
    const whole = pieces.join('');
    const table = new DecodedTable(pieces);
    expect(table.length).toBe(whole.length);
    for (let from = 0; from <= whole.length; from++) {
      for (let to = from; to <= whole.length; to++) expect(table.slice(from, to), `${from}-${to}`).toBe(whole.slice(from, to));
    }
    expect(new DecodedTable([]).slice(0, 0)).toBe('');
  });

  // ASCII texts whose tables hold every kind of string: tags with escapes,
  // FENs, comments, SAN and UCI, errors, games without strings (headers mode).
  const ASCII_TEXTS = [
    generatePgn({ seed: 3, games: 20, variations: true, comments: true }),
    '[Event "a \\"quoted\\" \\\\ tag"]\n[FEN "8/8/8/8/8/8/8/K6k w - - 0 1"]\n\n{first} 1. Kb2 {c} (1. Ka2 $300) Kh2 *\n',
    '[FEN "bad fen"]\n\n1. e4 *\n\n[Variant "crazyhouse"]\n\n1. e4 *\n\n1. e5 Nf9 {unterminated\n',
    '1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n1. e4 (1. d4 (1. c4 (1. Nf3 Kxe8))) Ke7 0-1\n\n*\n\n1. -- e5 *\n',
  ];

  it('gives the same games from an ASCII table it decoded, a string a game, as from its bytes', () => {
    const { batchesOf, gamesIn, visitRecords } = require('../dist/pgn/records.js') as typeof import('../src/pgn/records');
    const { Game } = require('../dist/pgn/game.js') as typeof import('../src/pgn/game');
    const { PGN, SLOTS } = nativeModule;
    const state = (mode: number) => {
      const s = new Float64Array(PGN.stateLength);
      s[SLOTS.pgnState.mode] = mode;
      s[SLOTS.pgnState.line] = 1;
      s[SLOTS.pgnState.threads] = 1;
      s[SLOTS.pgnState.textEnd] = PGN.textEnd.final;
      return s;
    };
    const games = (p: PgnParts) =>
      batchesOf(p).flatMap((batch) =>
        gamesIn(batch).map((records) => {
          const g = new Game(records);
          return [g.headers, g.initialFen, g.chess960, g.result, g.finalFen, g.errors, g.moves(), g.root, g.moves()];
        }),
      );
    const visits = (p: PgnParts) => {
      const seen: unknown[] = [];
      const log =
        (kind: string) =>
        (...args: unknown[]) =>
          seen.push([kind, ...args]);
      const visitor = Object.fromEntries(
        ['tag', 'start', 'move', 'comment', 'nag', 'beginVariation', 'endVariation', 'error', 'token', 'endGame'].map((k) => [k, log(k)]),
      );
      for (const batch of batchesOf(p)) visitRecords(batch, 0, batch.records.length / PGN.recordInts, visitor);
      return seen;
    };
    for (const text of ASCII_TEXTS) {
      for (const mode of Object.values(PGN.mode)) {
        const viaText = engines.wasm.pgnReadText!(text, state(mode), gameTextEnds);
        const viaBytes = engines.wasm.pgnRead(Buffer.from(text), state(mode));
        // Decoded: one string a game, and any strings after the last.
        for (let k = 1; k < viaText.length; k += 3) expect(Array.isArray(viaText[k])).toBe(true);
        expect(games(viaText), `${mode} ${text.slice(0, 40)}`).toEqual(games(viaBytes));
        expect(visits(viaText)).toEqual(visits(viaBytes));
      }
    }
  });
});
