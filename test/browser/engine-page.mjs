// Runs in the browser page of test/browser.test.ts: the engine through
// wasm/loader.mjs, one instance per page. Every export takes and returns
// JSON (counts as decimal strings), so the test compares in Node.
import { WasmEngine } from '../../wasm/loader.mjs';

let engine;

/** Fetches, compiles and instantiates the module; returns the milliseconds from fetch to ready and the code path. */
export async function load(url) {
  const start = performance.now();
  engine = await WasmEngine.load(fetch(url));
  return { ms: performance.now() - start, impl: engine.implName() };
}

function position(fen) {
  const result = engine.parseFen(fen);
  if (result.status !== 0) throw new Error(`${fen}: ${result.message}`);
  return result.position;
}

/** Leaf counts of [{ fen, depth }]. */
export function perft(cases) {
  return cases.map(({ fen, depth }) => engine.perft(position(fen), depth).toString());
}

/** A FEN, or { before, repeat, times, after } for a string too long to send. */
function expand(input) {
  return typeof input === 'string' ? input : input.before + input.repeat.repeat(input.times) + input.after;
}

/** What parsing each FEN gives: the status's name, and the field's name and the message on an error. */
export function parse(inputs) {
  return inputs.map((input) => {
    const result = engine.parseFen(expand(input));
    const status = engine.statusName(result.status);
    if (result.status === 0) return { status };
    const field = engine.readCString(Number(engine.call('cn_fen_field_name', result.field)));
    return { status, field, message: result.message };
  });
}

/** Bytes of the module's memory. */
export function memoryBytes() {
  return engine.bytes.length;
}

/**
 * Makes the module trap, by an access beyond its memory ('bounds') or by
 * overflowing its stack ('stack'), and returns the error's name and the
 * instance generations before and after (once the new instance is ready).
 */
export async function trap(kind) {
  const before = engine.generation;
  let name = 'no error';
  try {
    if (kind === 'bounds') {
      const beyond = engine.bytes.length + 4096;
      engine.call('cn_fen_parse', beyond, beyond, 90, 0, 0);
    } else {
      engine.perft(position('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1'), 100_000);
    }
  } catch (error) {
    name = error.name;
  }
  await engine.ready;
  return { name, before, after: engine.generation };
}
