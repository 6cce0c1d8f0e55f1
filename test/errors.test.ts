// Errors, never crashes: TypeError for wrong types, FenError naming the field,
// IllegalMoveError with the move, and the position unchanged after every failure.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { api, ROOT } from './helpers';

const { Position, FenError, IllegalMoveError, EngineError, START_FEN } = api;
const require = createRequire(import.meta.url);
type Pos = InstanceType<typeof Position>;

function snapshot(pos: Pos) {
  return { fen: pos.fen(), history: pos.history(), moves: pos.legalMoves(), turn: pos.turn() };
}

describe('error classes', () => {
  it('are Error subclasses with names and fields', () => {
    const fe = new FenError('board', 'bad board');
    expect(fe).toBeInstanceOf(Error);
    expect(fe.name).toBe('FenError');
    expect(fe.field).toBe('board');
    const me = new IllegalMoveError('e2e5', 'illegal');
    expect(me).toBeInstanceOf(Error);
    expect(me.name).toBe('IllegalMoveError');
    expect(me.move).toBe('e2e5');
    const ee = new EngineError('CN_ERR_INIT', 'no tables');
    expect(ee).toBeInstanceOf(Error);
    expect(ee.name).toBe('EngineError');
    expect(ee.code).toBe('CN_ERR_INIT');
  });

  it('an engine that cannot start is an EngineError when the package loads', () => {
    const script = `
      try { require(${JSON.stringify(path.join(ROOT, 'dist', 'index.js'))}); console.log('loaded'); }
      catch (e) { console.log(JSON.stringify({ name: e.name, code: e.code, message: e.message })); }`;
    for (const sliders of ['bogus', 'pext']) {
      const r = spawnSync(process.execPath, ['-e', script], {
        encoding: 'utf8',
        // Hiding BMI2 makes a forced pext path unsupported on any CPU.
        env: { ...process.env, CHESS_NATIVE_SLIDERS: sliders, CHESS_NATIVE_CPU: 'no-bmi2' },
      });
      const thrown = JSON.parse(r.stdout) as { name: string; code: string; message: string };
      expect(thrown.name).toBe('EngineError');
      expect(thrown.code).toBe('CN_ERR_UNSUPPORTED');
      expect(thrown.message).toContain('CHESS_NATIVE_SLIDERS');
    }
  });
});

describe('FEN errors', () => {
  it.each([123, null, {}, [], true, 1n, Symbol('fen')])('a non-string FEN (%s) is a TypeError', (fen) => {
    expect(() => new Position(fen as unknown as string)).toThrow(TypeError);
  });

  it.each([
    ['fields', ''],
    ['fields', 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR'],
    ['fields', 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra'],
    ['board', 'rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1'],
    ['board', 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1'],
    ['board', 'rnbqkbnr/ppppxppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1'],
    ['board', '8/8/8/8/8/8/8/8 w - - 0 1'],
    ['turn', 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1'],
    ['castling', 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkx - 0 1'],
    ['enPassant', 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1'],
    ['halfmove', 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1'],
    ['fullmove', 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 x'],
  ] as const)('field %s: %j', (field, fen) => {
    let error: unknown;
    try {
      new Position(fen);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(FenError);
    expect(error).toBeInstanceOf(Error);
    const fe = error as InstanceType<typeof FenError>;
    expect(fe.field).toBe(field);
    expect(fe.name).toBe('FenError');
    // The message names the field ("en passant" may be spelled with a space).
    const words = fe.message.toLowerCase().replace(/[\s_-]/g, '');
    expect(words).toContain(field === 'fields' ? 'field' : field.toLowerCase());
  });

  it('rejects very long strings as FEN errors, not crashes', () => {
    expect(() => new Position('8'.repeat(100_000))).toThrow(FenError);
    expect(() => new Position(`${START_FEN}${' '.repeat(10_000)}x`)).toThrow(FenError);
    // Long strings ending in a multi-byte character around the binding's buffer
    // size: a cut-off tail must never let the valid prefix through.
    for (let pad = 150; pad < 260; pad++) {
      expect(() => new Position(`${START_FEN}${' '.repeat(pad)}\u20ac`), `pad ${pad}`).toThrow(FenError);
      expect(() => new Position(`${START_FEN}${' '.repeat(pad)}\u{1f600}`), `pad ${pad}`).toThrow(FenError);
    }
    const pos = new Position();
    for (let pad = 0; pad < 20; pad++) expect(pos.isLegal(`e2e4${' '.repeat(pad)}\u20ac`)).toBe(false);
  });

  it('rejects a character outside ASCII whose low byte is a FEN character, at every place', () => {
    const boardLength = START_FEN.indexOf(' ');
    for (let i = 0; i < START_FEN.length; i++) {
      const fen = `${START_FEN.slice(0, i)}${String.fromCharCode(0x100 + START_FEN.charCodeAt(i))}${START_FEN.slice(i + 1)}`;
      let error: unknown;
      try {
        new Position(fen);
      } catch (e) {
        error = e;
      }
      expect(error, fen).toBeInstanceOf(FenError);
      if (i < boardLength) expect((error as InstanceType<typeof FenError>).field, fen).toBe('board');
    }
  });

  it('rejects bad options with a TypeError', () => {
    expect(() => new Position(START_FEN, null as never)).toThrow(TypeError);
    expect(() => new Position(START_FEN, 'yes' as never)).toThrow(TypeError);
    expect(() => new Position(START_FEN, { chess960: 1 } as never)).toThrow(TypeError);
  });
});

describe('move errors', () => {
  it.each([undefined, null, 1, {}, ['e2e4'], 1n])('a non-string move (%s) is a TypeError and changes nothing', (move) => {
    const pos = new Position().play('e2e4');
    const before = snapshot(pos);
    expect(() => pos.play(move as unknown as string)).toThrow(TypeError);
    expect(() => pos.isLegal(move as unknown as string)).toThrow(TypeError);
    expect(snapshot(pos)).toEqual(before);
  });

  const malformed = [
    '',
    'e2',
    'e2e',
    'e2e4e',
    'e2e4 ',
    ' e2e4',
    'E2E4',
    'e2-e4',
    'i2i4',
    'e0e1',
    'e7e8k',
    'e7e8Q',
    'e2e4\u0000',
    'e2e4q',
    'O-O',
    '0000',
    'e2e4'.repeat(100),
    '\u00e9\u00e9\u00e9\u00e9',
  ];
  const illegal = ['e2e5', 'e1e2', 'a1a2', 'e7e5', 'g1g3', 'e1g1', 'b1d2'];

  it('isLegal is false for malformed and illegal strings', () => {
    const pos = new Position();
    for (const m of [...malformed, ...illegal]) expect(pos.isLegal(m), JSON.stringify(m)).toBe(false);
    expect(pos.isLegal('e2e4')).toBe(true);
  });

  // After 1. d4 it is Black's move: White moves and impossible ones are illegal.
  const illegalForBlack = ['e2e4', 'd7d4', 'e8e7', 'a8a6', 'e1g1', 'e8g8', 'b8d7', 'd4d5'];

  it('play throws IllegalMoveError with the move, position and history unchanged', () => {
    const pos = new Position().play('d2d4');
    const before = snapshot(pos);
    for (const m of [...malformed, ...illegalForBlack]) {
      let error: unknown;
      try {
        pos.play(m);
      } catch (e) {
        error = e;
      }
      expect(error, JSON.stringify(m)).toBeInstanceOf(IllegalMoveError);
      const me = error as InstanceType<typeof IllegalMoveError>;
      expect(me.move).toBe(m);
      expect(me.name).toBe('IllegalMoveError');
      expect(me.message.length).toBeGreaterThan(0);
      expect(snapshot(pos)).toEqual(before);
    }
    expect(pos.undo()).toBe('d2d4');
    expect(pos.fen()).toBe(START_FEN);
  });

  it('moves into check and moves of pinned pieces are illegal', () => {
    // White king e1 in check from an unprotected rook on e2.
    const check = new Position('4k3/8/8/8/8/8/4r3/4K3 w - - 0 1');
    expect(check.legalMoves()).toEqual(['e1d1', 'e1e2', 'e1f1']);
    expect(check.isLegal('e1d2')).toBe(false);
    expect(() => check.play('e1f2')).toThrow(IllegalMoveError);
    // The e2 bishop is pinned by the e7 rook.
    const pin = new Position('4k3/4r3/8/8/8/8/4B3/4K3 w - - 0 1');
    expect(pin.isLegal('e2d3')).toBe(false);
    expect(pin.legalMoves().filter((m) => m.startsWith('e2'))).toEqual([]);
  });

  it('errors after failed perft/divide calls leave the position unchanged', () => {
    const pos = new Position().play('g1f3');
    const before = snapshot(pos);
    expect(() => pos.perft(-1)).toThrow(RangeError);
    expect(() => pos.divide(99)).toThrow(RangeError);
    expect(snapshot(pos)).toEqual(before);
  });
});

describe('one error model on the sync and async paths', () => {
  it('a PGN read out of memory is a RangeError with code CN_ERR_NO_MEMORY from parsePgn and readPgn alike', async () => {
    // Memory cannot run out on purpose, so the addon's two reads are replaced with ones that
    // fail as the addon does: the sync read throws, the async one calls back with, an Error
    // whose code is the engine status.
    type Boundary = typeof import('../src/core/boundary');
    const nativeModule = require('../dist/core/boundary.js') as { backend: Boundary['backend']; TABLES: Boundary['TABLES'] };
    const native = nativeModule.backend;
    const outOfMemory = () => Object.assign(new Error('out of memory reading PGN'), { code: nativeModule.TABLES.errorCodes.noMemory });
    const pgnRead: typeof native.pgnRead = () => {
      throw outOfMemory();
    };
    const pgnReadAsync: typeof native.pgnReadAsync = (_text, _state, done) => {
      setImmediate(() => done(outOfMemory(), []));
    };
    // The wasm engine reads a string through its own pgnReadText.
    const pgnReadText: typeof native.pgnReadText =
      native.pgnReadText &&
      (() => {
        throw outOfMemory();
      });
    nativeModule.backend = Object.create(native, {
      pgnRead: { value: pgnRead },
      pgnReadAsync: { value: pgnReadAsync },
      pgnReadText: { value: pgnReadText },
    }) as typeof native;
    const errors: unknown[] = [];
    try {
      try {
        api.parsePgn('1. e4 e5 *');
      } catch (e) {
        errors.push(e);
      }
      try {
        for await (const game of api.readPgn(new TextEncoder().encode('1. e4 e5 *'))) expect(game).toBeUndefined();
      } catch (e) {
        errors.push(e);
      }
    } finally {
      nativeModule.backend = native;
    }
    expect(errors).toHaveLength(2);
    for (const error of errors) {
      expect(error).toBeInstanceOf(RangeError);
      expect((error as RangeError & { code?: string }).code).toBe('CN_ERR_NO_MEMORY');
      expect((error as Error).message).toBe('out of memory reading PGN');
    }
  });

  it('PerftVerifyError carries its own code and both counts, and is no EngineError', () => {
    const error = new api.PerftVerifyError([1n, 2n], 'differ');
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(EngineError);
    expect(error.name).toBe('PerftVerifyError');
    expect(error.code).toBe('ERR_PERFT_VERIFY');
    expect(error.nodes).toEqual([1n, 2n]);
  });
});
