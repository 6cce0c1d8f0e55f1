// One instance of wasm/chess-native.wasm (the engine of csrc/engine built by
// wasm/build.mjs), instantiated synchronously, as Node allows: the wasm
// backend keeps the API synchronous. The same stubs as wasm/loader.mjs stand
// in for the seven WASI imports wasi-libc asks for; the engine needs none.
//
// A trap (out-of-bounds access, stack overflow, unreachable) leaves the
// instance's stack pointer and heap wherever it stopped, so the instance is
// dropped and a new one made before the error is rethrown as an engine
// status error (code CN_ERR_WASM_TRAP): every call after a trap runs on a
// fresh engine, and positions, which live in JS memory, survive it.
import { readFileSync } from 'node:fs';
import * as path from 'node:path';

import type { BoundaryTables } from '../boundary';
import type { EngineEnv } from './wasi';
import { layoutOf, type Layout } from './layout';
import { wasiImports } from './wasi';

/** A compiled WebAssembly.Module (opaque here). */
export type CompiledModule = object;

/** A WebAssembly.Instance of the module. */
export interface Instance {
  exports: object;
}

/** The part of the WebAssembly global used here (its types come with the DOM lib, which this build leaves out). */
interface WasmApi {
  Module: new (bytes: Uint8Array) => CompiledModule;
  Instance: new (module: CompiledModule, imports: object) => Instance;
  RuntimeError: new (message?: string) => Error;
  Memory: new (descriptor: { initial: number }) => { buffer: ArrayBuffer };
}
export const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

/** The function exports of the module: the C API of csrc/engine/include, malloc and free. */
type Exports = Record<string, (...args: (number | bigint)[]) => number | bigint> & { memory: { buffer: ArrayBuffer } };

/** The code of the error a trap becomes. */
const TRAP_CODE = 'CN_ERR_WASM_TRAP';

let provided: CompiledModule | undefined;
let started: Instance | undefined;

/**
 * Hands over the compiled module before the engine loads: the browser entry
 * compiles it asynchronously (a page may not compile a large module
 * synchronously) and has no file system to read it from. `instance`: one
 * it has already started (startEngine), which the first engine takes over.
 */
export function provideModule(module: CompiledModule, instance?: Instance): void {
  provided = module;
  started = instance;
}

/** The started instance of `module`, once, for an engine given no variables (the entry's instance has none). */
function takeStarted(module: CompiledModule, env: EngineEnv): Instance | undefined {
  if (started === undefined || module !== provided || Object.keys(env).length > 0) return undefined;
  const instance = started;
  started = undefined;
  return instance;
}

/** The provided module, else the module's bytes: wasm/ at the package root (dist/core/wasm -> three levels up). */
export function compileModule(): CompiledModule {
  return provided ?? new wasm.Module(readFileSync(path.join(__dirname, '..', '..', '..', 'wasm', 'chess-native.wasm')));
}

export type { EngineEnv } from './wasi';

/** The variables of `env` the engine reads, from the process environment. */
export function engineEnv(env: Record<string, string | undefined>): EngineEnv {
  const out: EngineEnv = {};
  for (const name of ['CHESS_NATIVE_SLIDERS', 'CHESS_NATIVE_CPU']) {
    const value = env[name];
    if (value !== undefined) out[name] = value;
  }
  return out;
}

/** An engine status error as the addon throws it: an Error whose `code` is the C name. */
export function statusError(code: string, message: string): Error & { code: string } {
  return Object.assign(new Error(message), { code });
}

/** The engine over one compiled module; re-instantiated after a trap. */
export class Engine {
  readonly module: CompiledModule;
  /** Instances made so far (1 + traps survived). */
  generation = 0;
  #exports!: Exports;
  #u8 = new Uint8Array(0);
  #u32 = new Uint32Array(0);
  #view = new DataView(new ArrayBuffer(0));
  /** Address of the scratch block every call's fixed-size arguments and results use (layout.Slot, 8-aligned). */
  scratch = 0;
  /** The module's cn_boundary_tables() and the layout read from them, once: every instance of a module has the same. */
  #tables: BoundaryTables | undefined;
  #tablesText = '';
  #layout: Layout | undefined;
  /** A reusable block for inputs and outputs larger than the scratch (grown on demand). */
  #block = 0;
  #blockBytes = 0;

  readonly env: EngineEnv;

  /** Run after a trap, before the new instance replaces the old one, whose memory it may still read. */
  beforeRestart: () => void = () => {};

  constructor(module: CompiledModule, env: EngineEnv = {}) {
    this.module = module;
    this.env = env;
    this.#start();
  }

  #start(): void {
    const adopted = takeStarted(this.module, this.env);
    // The imports read the memory at call time: after #exports is set below.
    const instance =
      adopted ??
      new wasm.Instance(
        this.module,
        wasiImports(() => this.#exports.memory, this.env),
      );
    const api = instance.exports as unknown as Exports;
    this.#exports = api;
    this.#refresh(); // the views of a previous instance (before a trap) are not detached: replace them
    if (!adopted) (api['_initialize'] as () => void)();
    // Run once an instance (the started one has run it: this returns its status).
    const status = api['cn_init']!() as number;
    if (status !== 0) {
      throw statusError(this.statusName(status), this.readCString(api['cn_init_message']!() as number));
    }
    if (!this.#layout) {
      this.#tablesText = this.readCString(api['cn_boundary_tables']!() as number);
      this.#tables = JSON.parse(this.#tablesText) as BoundaryTables;
      this.#layout = layoutOf(this.#tables);
    }
    this.scratch = api['malloc']!(this.#layout.Slot.end) as number;
    this.#block = 0;
    this.#blockBytes = 0;
    this.generation++;
  }

  /** The module's boundary tables (JSON.parse of cn_boundary_tables()). */
  get tables(): BoundaryTables {
    return this.#tables!;
  }

  /** The text of the module's cn_boundary_tables(). */
  get tablesText(): string {
    return this.#tablesText;
  }

  /** The module's struct layout, limits and scratch slots. */
  get layout(): Layout {
    return this.#layout!;
  }

  /** The memory as bytes (a new view after any growth). */
  get u8(): Uint8Array {
    // Growth detaches the old buffer, which empties its views: cheaper to test than memory.buffer.
    if (this.#u8.length === 0) this.#refresh();
    return this.#u8;
  }

  /** The memory as 32-bit words (a new view after any growth). */
  get u32(): Uint32Array {
    if (this.#u8.length === 0) this.#refresh();
    return this.#u32;
  }

  /** The memory as a little-endian DataView (a new view after any growth). */
  get view(): DataView {
    if (this.#u8.length === 0) this.#refresh();
    return this.#view;
  }

  #refresh(): void {
    const buffer = this.#exports.memory.buffer;
    this.#u8 = new Uint8Array(buffer);
    this.#u32 = new Uint32Array(buffer);
    this.#view = new DataView(buffer);
  }

  /** Calls an export; a trap re-instantiates the engine and throws a CN_ERR_WASM_TRAP status error. */
  call(name: string, ...args: (number | bigint)[]): number {
    return this.#call(name, args) as number;
  }

  /** call() for an export returning a 64-bit value. */
  call64(name: string, ...args: (number | bigint)[]): bigint {
    return this.#call(name, args) as bigint;
  }

  #call(name: string, args: (number | bigint)[]): number | bigint {
    try {
      return this.#exports[name]!(...args);
    } catch (error) {
      throw this.trapped(name, error);
    }
  }

  /**
   * The current instance's exports, for the hot paths that call one
   * directly (no name lookup, no argument array): such a call catches what
   * it throws and throws trapped(name, error) instead.
   */
  get exports(): Exports {
    return this.#exports;
  }

  /** What to throw for `error`, thrown by export `name`: a trap re-instantiates the engine and becomes a CN_ERR_WASM_TRAP status error. */
  trapped(name: string, error: unknown): unknown {
    if (!(error instanceof wasm.RuntimeError)) return error;
    this.beforeRestart();
    this.#start();
    return Object.assign(statusError(TRAP_CODE, `the wasm engine trapped in ${name} (${error.message}); it was re-instantiated`), {
      cause: error,
    });
  }

  /**
   * A block of at least `bytes` bytes (8-aligned), reused by every call that
   * needs one: valid until the next call to block(). Throws CN_ERR_NO_MEMORY
   * when the module cannot grow to it.
   */
  block(bytes: number): number {
    if (bytes <= this.#blockBytes) return this.#block;
    const size = Math.max(bytes, 2 * this.#blockBytes, 64 << 10);
    if (this.#block) this.call('free', this.#block);
    this.#block = 0;
    this.#blockBytes = 0;
    const ptr = size <= 0xffff_fff0 ? this.call('malloc', size) : 0;
    if (ptr === 0) throw statusError('CN_ERR_NO_MEMORY', `cannot allocate ${bytes} bytes in the wasm engine`);
    this.#block = ptr;
    this.#blockBytes = size;
    return ptr;
  }

  /** Frees the block when it is larger than `keep` bytes (after a large read). */
  shrinkBlock(keep: number): void {
    if (this.#blockBytes <= keep) return;
    this.call('free', this.#block);
    this.#block = 0;
    this.#blockBytes = 0;
  }

  /** The NUL-terminated string at ptr (ASCII / UTF-8). */
  readCString(ptr: number): string {
    const bytes = this.u8;
    return latin1(bytes, ptr, bytes.indexOf(0, ptr));
  }

  /** cn_status_name of a status. */
  statusName(status: number): string {
    return this.readCString(this.call('cn_status_name', status));
  }
}

/** bytes[start, end) as a string of one character a byte. */
export function latin1(bytes: Uint8Array, start: number, end: number): string {
  let out = '';
  for (let i = start; i < end; i += 4096) {
    out += String.fromCharCode.apply(null, bytes.subarray(i, Math.min(end, i + 4096)) as unknown as number[]);
  }
  return out;
}
