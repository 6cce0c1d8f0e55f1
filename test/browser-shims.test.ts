// The browser bundle's stand-in for Node's Buffer (wasm/browser-shims.mjs)
// answers as Node's own does, and where buffer.isAscii is missing (browsers,
// early Node 18) the PGN reader still takes an ASCII string table as one
// string rather than decoding it string by string.
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { Buffer as ShimBuffer } from '../wasm/browser-shims.mjs';
import { rng } from '../bench/pgn-corpus.mjs';

const require = createRequire(import.meta.url);
const { asciiOnly } = require('../dist/core/ascii.js') as typeof import('../src/core/ascii');
const { backend, PGN, SLOTS } = require('../dist/core/boundary.js') as typeof import('../src/core/boundary');

describe('asciiOnly', () => {
  it('finds a byte of 0x80 or more at any offset, length and alignment', () => {
    const memory = new Uint8Array(64).fill(0x7f);
    for (let offset = 0; offset < 8; offset++) {
      for (let length = 0; length <= 40; length++) {
        const bytes = memory.subarray(offset, offset + length);
        expect(asciiOnly(bytes), `offset ${offset}, length ${length}`).toBe(true);
        for (let i = 0; i < length; i++) {
          for (const high of [0x80, 0xff]) {
            bytes[i] = high;
            expect(asciiOnly(bytes), `offset ${offset}, length ${length}, 0x${high.toString(16)} at ${i}`).toBe(false);
            bytes[i] = 0x7f;
          }
        }
      }
    }
  });

  it('looks at no byte outside the view', () => {
    const memory = new Uint8Array(32).fill(0xff);
    memory.fill(0x41, 5, 27);
    expect(asciiOnly(memory.subarray(5, 27))).toBe(true);
  });
});

describe("the browser bundle's Buffer", () => {
  const random = rng(7);
  const bytes = Uint8Array.from({ length: 600 }, (_, i) => (i < 256 ? i : Math.floor(random() * 256)));
  const node = Buffer.from(bytes);
  const shim = ShimBuffer.from(bytes);
  const ranges: [number, number][] = [
    [0, 600],
    [0, 128],
    [3, 77],
    [128, 256],
    [590, 9999],
    [-5, 10],
    [40, 40],
    [50, 20],
  ];

  it('decodes latin1 and utf8 as Node does, over any range', () => {
    for (const encoding of ['latin1', 'utf8'] as const) {
      for (const [start, end] of ranges) {
        expect(shim.toString(encoding, start, end), `${encoding} ${start}-${end}`).toBe(node.toString(encoding, start, end));
      }
      expect(shim.subarray(100, 300).toString(encoding)).toBe(node.subarray(100, 300).toString(encoding));
    }
  });

  it('encodes strings to UTF-8 as Node does', () => {
    for (const text of ['', 'e4 e5 Nf3', 'café', 'a\u00e9', '\u{1f600}x', 'lone \ud800 surrogate', 'end \udfff', '\u0080'.repeat(9)]) {
      expect([...ShimBuffer.from(text)], JSON.stringify(text)).toEqual([...Buffer.from(text, 'utf8')]);
    }
  });

  it('copies what from() is given', () => {
    const source = new Uint8Array([1, 2, 3]);
    const copy = ShimBuffer.from(source);
    source[0] = 9;
    expect([...copy]).toEqual([1, 2, 3]);
    expect(copy).toBeInstanceOf(ShimBuffer);
    expect([...ShimBuffer.from([1, 258, -1])]).toEqual([...Buffer.from([1, 258, -1])]);
  });
});

describe('the PGN string table without buffer.isAscii', () => {
  type Records = typeof import('../src/pgn/records');

  /** dist/pgn/records.js as a runtime without buffer.isAscii loads it. */
  function recordsWithoutIsAscii(): Records {
    const nodeBuffer = require('node:buffer') as { isAscii?: unknown };
    const file = require.resolve('../dist/pgn/records.js');
    const cached = require.cache[file];
    const saved = nodeBuffer.isAscii;
    delete require.cache[file];
    nodeBuffer.isAscii = undefined;
    try {
      return require(file) as Records;
    } finally {
      nodeBuffer.isAscii = saved;
      if (cached) require.cache[file] = cached;
      else delete require.cache[file];
    }
  }

  function batches(records: Records, text: string) {
    const state = new Float64Array(PGN.stateLength);
    state[SLOTS.pgnState.mode] = PGN.mode.tree;
    state[SLOTS.pgnState.line] = 1;
    state[SLOTS.pgnState.threads] = 1;
    state[SLOTS.pgnState.textEnd] = PGN.textEnd.final;
    return records.batchesOf(backend.pgnRead(Buffer.from(text, 'utf8'), state));
  }

  it('is known to be ASCII when it is, and decoded string by string otherwise', () => {
    const records = recordsWithoutIsAscii();
    const ascii = batches(records, '[Event "a"]\n\n1. e4 {fine} e5 *\n');
    expect(ascii.length).toBeGreaterThan(0);
    for (const batch of ascii) expect(batch.ascii).toBe(true);
    for (const batch of batches(records, '[Event "café"]\n\n1. e4 {très bien} e5 *\n')) expect(batch.ascii).toBe(false);
  });
});
