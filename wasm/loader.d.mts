// Types of wasm/loader.mjs. They name no WebAssembly types, which only the
// DOM lib declares: a compiled module is an opaque object here.

/** A compiled WebAssembly.Module. */
export type CompiledModule = object;
export type EngineSource = ArrayBuffer | ArrayBufferView | Response | PromiseLike<Response> | CompiledModule;

/** A trap inside the module; the engine has been re-instantiated. */
export class WasmTrapError extends Error {
  constructor(message: string, cause: unknown);
}

/** What the module exports: the C API of csrc/engine/include, malloc and free (pointers are numbers, 64-bit values bigints). */
export type EngineExports = Record<string, (...args: (number | bigint)[]) => number | bigint> & { memory: { buffer: ArrayBuffer } };

/** status 0 (CN_OK): position is set; else field (cn_fen_field) and message (cn_fen_error's). */
export interface FenResult {
  status: number;
  position?: Uint8Array;
  field?: number;
  message?: string;
}

export function compileEngine(source: EngineSource): Promise<CompiledModule>;

export class WasmEngine {
  static load(source: EngineSource): Promise<WasmEngine>;
  /** Instantiates synchronously (Node, workers); `instance` null instantiates asynchronously (await `ready`). */
  constructor(module: CompiledModule, instance?: null);
  /** Resolves once an instance is ready. */
  readonly ready: Promise<void>;
  readonly module: CompiledModule;
  /** Instances made so far (1 + traps survived). */
  readonly generation: number;
  /** sizeof(cn_position) in the module: positions cross the boundary as these bytes. */
  readonly positionBytes: number;
  /** CN_MAX_MOVES: room for any position's moves. */
  readonly maxMoves: number;
  readonly exports: EngineExports;
  /** The module's memory as bytes (a new view after any growth). */
  readonly bytes: Uint8Array;
  call(name: string, ...args: (number | bigint)[]): number | bigint;
  readCString(ptr: number): string;
  statusName(status: number): string;
  implName(): string;
  initMilliseconds(): number;
  parseFen(fen: string, chess960?: boolean): FenResult;
  legalMoves(position: Uint8Array): string[];
  perft(position: Uint8Array, depth: number): bigint;
  fen(position: Uint8Array): string;
}
