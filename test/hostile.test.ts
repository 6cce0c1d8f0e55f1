// Hostile input through the public API: every FEN field malformed in each way
// the parser rejects, oversized strings, NUL bytes, non-ASCII, wrong JS types
// for every method, and bad depths. Each must throw the documented error
// class with a message that says what is wrong, within milliseconds, and
// leave the position exactly as it was.
import { describe, expect, it } from 'vitest';
import { api } from './helpers';
import { BAD_FENS } from './bad-fens';

const { Position, FenError, IllegalMoveError, AbortError, perftAsync, START_FEN } = api;
type Pos = InstanceType<typeof Position>;

// Generous for CI machines; the real figures are microseconds.
const FAST_MS = 200;

/** Everything observable about a position, to compare before and after. */
function snapshot(pos: Pos) {
  return {
    fen: pos.fen(),
    history: pos.history(),
    moves: pos.legalMoves(),
    turn: pos.turn(),
    check: pos.inCheck(),
  };
}

/** Runs fn, expecting it to throw an instance of one of `classes`; returns the error and the time taken. */
function expectThrow(fn: () => unknown, classes: (new (...args: never[]) => Error)[], label: string): Error {
  const start = performance.now();
  let error: unknown;
  try {
    fn();
  } catch (e) {
    error = e;
  }
  const ms = performance.now() - start;
  expect(error, `${label}: should throw`).toBeInstanceOf(Error);
  expect(
    classes.some((c) => error instanceof c),
    `${label}: threw ${(error as Error).name}: ${(error as Error).message}`,
  ).toBe(true);
  expect((error as Error).message.length, `${label}: empty message`).toBeGreaterThan(10);
  expect(ms, `${label}: took ${ms.toFixed(1)} ms`).toBeLessThan(FAST_MS);
  return error as Error;
}

const MB_STRING = 'a'.repeat(1 << 20);

describe('hostile FEN strings', () => {
  it.each(BAD_FENS)('field %s: %j', (field, fen) => {
    for (const chess960 of [false, true]) {
      const e = expectThrow(() => new Position(fen, { chess960 }), [FenError], `${JSON.stringify(fen)} 960=${chess960}`);
      expect((e as InstanceType<typeof FenError>).field).toBe(field);
      expect(e.message.toLowerCase().replace(/[\s_-]/g, '')).toContain(field === 'fields' ? 'field' : field.toLowerCase());
    }
  });

  it('oversized FENs (1 MB, 1 MB of spaces after a good FEN, a million fields) fail fast with FenError', () => {
    for (const fen of [MB_STRING, `${START_FEN}${' '.repeat(1 << 20)}x`, 'a '.repeat(1 << 19), '/'.repeat(1 << 20)]) {
      expectThrow(() => new Position(fen), [FenError], `${fen.length}-char FEN`);
    }
  });

  it('lone surrogates and astral characters in every field are FenErrors', () => {
    const fields = START_FEN.split(' ');
    for (let f = 0; f < fields.length; f++) {
      for (const junk of ['\uD800', '\uDFFF', '\u{1F600}', '\uFFFD', '\u0000']) {
        const parts = [...fields];
        parts[f] = parts[f] + junk;
        expectThrow(() => new Position(parts.join(' ')), [FenError], `field ${f} + U+${junk.codePointAt(0)!.toString(16)}`);
      }
    }
  });

  it('a FEN that is the prefix of a good one up to a NUL is still rejected', () => {
    expectThrow(() => new Position(`${START_FEN}\0`), [FenError], 'trailing NUL');
    expectThrow(() => new Position(`${START_FEN}\0${START_FEN}`), [FenError], 'NUL then more');
  });
});

// Values of the wrong type for string and number arguments.
const NOT_STRINGS: unknown[] = [123, 0, NaN, null, undefined, {}, [], ['e2e4'], true, 1n, Symbol('x'), () => 'e2e4', new String('e2e4')];
const BAD_DEPTHS: unknown[] = [
  NaN,
  Infinity,
  -Infinity,
  1.5,
  -1,
  -0.5,
  21,
  2 ** 31,
  2 ** 53,
  Number.MAX_VALUE,
  -(2 ** 31),
  '3',
  null,
  undefined,
  {},
  [3],
  3n,
  true,
  Symbol('d'),
  () => 3,
];
// Strings that are not moves: NUL bytes, non-ASCII, oversized.
const HOSTILE_MOVES = [
  '',
  '\0',
  'e2e4\0',
  '\0e2e4',
  'e2\0e4',
  'e2e4 ',
  ' e2e4',
  'E2E4',
  'e2e4q',
  'e7e8k',
  'e2e9',
  'i2i4',
  '0000',
  'ｅ２ｅ４',
  'e2e4\u00e9',
  '\uD800\uDC00',
  '\uD800',
  'O-O-O-O',
  'Nf3\0',
  'Qxh8=Q#!!??',
  MB_STRING,
  `e2e4${' '.repeat(1 << 20)}`,
];

describe('wrong JS types and hostile strings, method by method', () => {
  const positions = (): [string, Pos][] => {
    const played = new Position().play('e2e4').play('c7c5');
    return [
      ['start', new Position()],
      ['after moves', played],
      ['chess960', new Position('bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9', { chess960: true })],
    ];
  };

  it('string-argument methods: TypeError for non-strings', () => {
    for (const [label, pos] of positions()) {
      const before = snapshot(pos);
      const methods: [string, (v: unknown) => unknown][] = [
        ['isLegal', (v) => pos.isLegal(v as string)],
        ['play', (v) => pos.play(v as string)],
        ['san', (v) => pos.san(v as string)],
        ['parseSan', (v) => pos.parseSan(v as string)],
        ['playSan', (v) => pos.playSan(v as string)],
        ['pieceAt', (v) => pos.pieceAt(v as string)],
        ['movesFrom', (v) => pos.movesFrom(v as string)],
        ['attackers', (v) => pos.attackers(v as string)],
      ];
      for (const [name, call] of methods) {
        for (const value of NOT_STRINGS) {
          expectThrow(() => call(value), [TypeError], `${label}: ${name}(${String(typeof value)})`);
        }
      }
      expectThrow(() => pos.attackers('e4', 'white' as never), [TypeError, RangeError], `${label}: attackers colour`);
      expectThrow(() => pos.attackers('e4', 0 as never), [TypeError, RangeError], `${label}: attackers colour 0`);
      expect(snapshot(pos)).toEqual(before);
    }
  });

  it('move methods: IllegalMoveError (or false) for malformed, NUL, non-ASCII and 1 MB strings', () => {
    for (const [label, pos] of positions()) {
      const before = snapshot(pos);
      for (const move of HOSTILE_MOVES) {
        const what = `${label}: ${JSON.stringify(move.slice(0, 20))}${move.length > 20 ? `... (${move.length})` : ''}`;
        let start = performance.now();
        expect(pos.isLegal(move), what).toBe(false);
        expect(performance.now() - start, `${what}: isLegal time`).toBeLessThan(FAST_MS);
        for (const [name, call] of [
          ['play', () => pos.play(move)],
          ['san', () => pos.san(move)],
          ['parseSan', () => pos.parseSan(move)],
          ['playSan', () => pos.playSan(move)],
        ] as const) {
          const e = expectThrow(call, [IllegalMoveError], `${what} ${name}`);
          expect((e as InstanceType<typeof IllegalMoveError>).move).toBe(move);
        }
        start = performance.now();
        expect(snapshot(pos), what).toEqual(before);
        expect(performance.now() - start).toBeLessThan(FAST_MS);
      }
    }
  });

  it('square methods: RangeError for strings that are not squares', () => {
    const pos = new Position();
    const before = snapshot(pos);
    for (const square of ['', 'e', 'e44', 'i1', 'a0', 'a9', 'E4', '\0\0', 'é4', '\uD800a', MB_STRING]) {
      for (const [name, call] of [
        ['pieceAt', () => pos.pieceAt(square)],
        ['movesFrom', () => pos.movesFrom(square)],
        ['attackers', () => pos.attackers(square)],
      ] as const) {
        expectThrow(call, [RangeError], `${name}(${JSON.stringify(square.slice(0, 8))})`);
      }
    }
    expect(snapshot(pos)).toEqual(before);
  });

  it('depth methods: RangeError for NaN, infinities, fractions, negatives, huge and non-numbers', () => {
    for (const [label, pos] of positions()) {
      const before = snapshot(pos);
      for (const depth of BAD_DEPTHS) {
        for (const [name, call] of [
          ['perft', () => pos.perft(depth as number)],
          ['perftBig', () => pos.perftBig(depth as number)],
          ['divide', () => pos.divide(depth as number)],
          ['divideBig', () => pos.divideBig(depth as number)],
        ] as const) {
          const e = expectThrow(
            call,
            [RangeError, TypeError],
            `${label}: ${name}(${typeof depth === 'symbol' ? 'symbol' : String(depth)})`,
          );
          expect(e.message).toMatch(/depth/);
        }
      }
      expect(snapshot(pos)).toEqual(before);
    }
  });

  it('the constructor: TypeError for non-string FENs and bad options', () => {
    for (const fen of NOT_STRINGS.filter((v) => v !== undefined)) {
      expectThrow(() => new Position(fen as string), [TypeError], `new Position(${typeof fen})`);
    }
    for (const options of [null, 1, 'chess960', true, Symbol('o'), { chess960: 1 }, { chess960: 'true' }, { chess960: null }]) {
      expectThrow(() => new Position(START_FEN, options as never), [TypeError], `options ${String(typeof options)}`);
    }
  });

  it('an error in the middle of a game leaves history and undo working', () => {
    const pos = new Position().play('e2e4').play('e7e5');
    for (const move of HOSTILE_MOVES) expect(() => pos.play(move)).toThrow(IllegalMoveError);
    for (const depth of BAD_DEPTHS) expect(() => pos.perft(depth as number)).toThrow();
    expect(pos.history()).toEqual(['e2e4', 'e7e5']);
    expect(pos.undo()).toBe('e7e5');
    expect(pos.undo()).toBe('e2e4');
    expect(pos.fen()).toBe(START_FEN);
  });
});

describe('perftAsync hostile arguments reject before any work', () => {
  async function rejection(p: () => Promise<unknown>): Promise<{ error: unknown; ms: number }> {
    const start = performance.now();
    try {
      await p();
    } catch (error) {
      return { error, ms: performance.now() - start };
    }
    return { error: undefined, ms: performance.now() - start };
  }

  it('bad FENs and non-strings', async () => {
    for (const [field, fen] of BAD_FENS.slice(0, 12)) {
      const { error, ms } = await rejection(() => perftAsync(fen, 3));
      expect(error).toBeInstanceOf(FenError);
      expect((error as InstanceType<typeof FenError>).field).toBe(field);
      expect(ms).toBeLessThan(FAST_MS);
    }
    for (const fen of [...NOT_STRINGS.filter((v) => v !== undefined), MB_STRING]) {
      const { error } = await rejection(() => perftAsync(fen as string, 3));
      expect(error instanceof TypeError || error instanceof FenError, String(typeof fen)).toBe(true);
    }
  });

  it('bad depths', async () => {
    for (const depth of BAD_DEPTHS) {
      const { error, ms } = await rejection(() => perftAsync(START_FEN, depth as number));
      expect(error instanceof RangeError || error instanceof TypeError, String(typeof depth)).toBe(true);
      expect(ms).toBeLessThan(FAST_MS);
    }
  });

  it('bad options', async () => {
    const bad: unknown[] = [
      null,
      1,
      'x',
      { threads: 0 },
      { threads: 1.5 },
      { threads: NaN },
      { threads: Infinity },
      { threads: -1 },
      { threads: 1e9 },
      { threads: '2' },
      { hashMb: -1 },
      { hashMb: NaN },
      { hashMb: Infinity },
      { hashMb: 1e12 },
      { hashMb: '16' },
      { divide: 'yes' },
      { chess960: 1 },
      { signal: {} },
      { signal: 'abort' },
      { onProgress: 42 },
    ];
    for (const options of bad) {
      const { error, ms } = await rejection(() => perftAsync(START_FEN, 3, options as never));
      expect(error instanceof TypeError || error instanceof RangeError, JSON.stringify(options)).toBe(true);
      expect(ms).toBeLessThan(FAST_MS);
    }
  });

  it('an already-aborted signal rejects with AbortError', async () => {
    const { error } = await rejection(() => perftAsync(START_FEN, 5, { signal: AbortSignal.abort() }));
    expect(error).toBeInstanceOf(AbortError);
  });
});
