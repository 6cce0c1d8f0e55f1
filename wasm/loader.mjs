// Loads wasm/chess-native.wasm (the engine of csrc/engine built by
// wasm/build.mjs) and calls its C API. Plain ESM with no Node imports, so a
// browser, a worker or Node can use it as is.
//
// The module imports seven WASI functions through wasi-libc; none is needed
// by the engine, so they are stubs here: an empty environment, a clock from
// performance.now(), output discarded. No WASI polyfill is needed.
//
// A trap (out-of-bounds access, stack overflow, unreachable) leaves the
// instance's stack pointer and heap wherever it stopped, so the instance is
// dropped and a new one made from the same compiled module before the error
// is rethrown: every call after a trap runs on a fresh engine.

/** Scratch a call's arguments and results fit in (a FEN longer than this is copied to its own allocation). */
const SCRATCH_BYTES = 8192;

/** A trap inside the module; the engine has been re-instantiated. */
export class WasmTrapError extends Error {
  constructor(message, cause) {
    super(message, { cause });
    this.name = 'WasmTrapError';
  }
}

const ERRNO_BADF = 8;

/** The WASI imports, as stubs over the instance's memory (memory() is read at call time). */
function wasiImports(memory) {
  const view = () => new DataView(memory().buffer);
  return {
    wasi_snapshot_preview1: {
      environ_sizes_get(countPtr, sizePtr) {
        view().setUint32(countPtr, 0, true);
        view().setUint32(sizePtr, 0, true);
        return 0;
      },
      environ_get() {
        return 0;
      },
      clock_time_get(_clock, _precision, outPtr) {
        view().setBigUint64(outPtr, BigInt(Math.round(performance.now() * 1e6)), true);
        return 0;
      },
      fd_write(_fd, iovs, iovsLength, writtenPtr) {
        let written = 0;
        for (let i = 0; i < iovsLength; i++) written += view().getUint32(iovs + 8 * i + 4, true);
        view().setUint32(writtenPtr, written, true);
        return 0;
      },
      fd_close() {
        return ERRNO_BADF;
      },
      fd_seek() {
        return ERRNO_BADF;
      },
      proc_exit(code) {
        throw new WebAssembly.RuntimeError(`the engine called exit(${code})`);
      },
    },
  };
}

/**
 * Compiles the module from its bytes, a fetch Response (or a promise of
 * one: streaming compilation where the runtime has it) or a compiled module.
 */
export async function compileEngine(source) {
  if (source instanceof WebAssembly.Module) return source;
  const resolved = await source;
  if (typeof Response !== 'undefined' && resolved instanceof Response) {
    if (typeof WebAssembly.compileStreaming === 'function') {
      try {
        return await WebAssembly.compileStreaming(resolved.clone());
      } catch {
        /* a server without the application/wasm type: compile the bytes */
      }
    }
    return WebAssembly.compile(await resolved.arrayBuffer());
  }
  return WebAssembly.compile(resolved);
}

/** One instance of the engine over a compiled module; re-made after a trap. */
export class WasmEngine {
  /** Compiles (see compileEngine) and instantiates asynchronously, as browsers want on their main thread. */
  static async load(source) {
    const module = await compileEngine(source);
    const engine = new WasmEngine(module, null);
    await engine.ready;
    return engine;
  }

  /**
   * Instantiates synchronously (Node, workers); `instance` null instantiates
   * asynchronously instead (await `ready` before the first call).
   */
  constructor(module, instance = undefined) {
    this.module = module;
    /** Instances made so far (1 + traps survived). */
    this.generation = 0;
    /** Resolves once an instance is ready (at once after a synchronous start). */
    this.ready = Promise.resolve();
    if (instance === null) this.#startAsync();
    else this.#start(new WebAssembly.Instance(module, this.#imports));
  }

  #instance = null;
  #scratch = 0;
  /** The layout table of the module's cn_boundary_tables(): struct sizes and offsets, buffer sizes (read once). */
  #layout = null;
  #encoder = new TextEncoder();
  #decoder = new TextDecoder();
  #imports = wasiImports(() => this.#instance.exports.memory);

  #start(instance) {
    this.#instance = instance; /* first: the imports write to its memory (cn_init reads the clock) */
    instance.exports._initialize();
    const status = instance.exports.cn_init();
    if (status !== 0) throw new Error(`chess-native wasm: cn_init failed: ${this.readCString(instance.exports.cn_init_message())}`);
    this.#layout ??= JSON.parse(this.readCString(instance.exports.cn_boundary_tables())).layout;
    this.#scratch = instance.exports.malloc(SCRATCH_BYTES);
    this.generation++;
  }

  #startAsync() {
    this.#instance = null;
    this.ready = WebAssembly.instantiate(this.module, this.#imports).then((instance) => this.#start(instance));
  }

  /** A new instance after a trap: synchronously where the runtime allows it (not a browser's main thread), else asynchronously. */
  #restart() {
    try {
      this.#start(new WebAssembly.Instance(this.module, this.#imports));
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
      this.#startAsync();
    }
  }

  /** The instance's exports: the C API of csrc/engine/include, malloc and free. */
  get exports() {
    return this.#instance?.exports;
  }

  /** sizeof(cn_position): positions cross the boundary as these bytes. */
  get positionBytes() {
    return this.#layout.position.bytes;
  }

  /** CN_MAX_MOVES: room for any position's moves. */
  get maxMoves() {
    return this.#layout.maxMoves;
  }

  /** The module's memory as bytes (a new view after any growth). */
  get bytes() {
    return new Uint8Array(this.#instance.exports.memory.buffer);
  }

  /** Calls an export; a trap re-instantiates the engine and throws WasmTrapError. */
  call(name, ...args) {
    if (!this.#instance) throw new Error('chess-native wasm: the engine is being re-instantiated after a trap: await engine.ready');
    try {
      return this.#instance.exports[name](...args);
    } catch (error) {
      if (!(error instanceof WebAssembly.RuntimeError)) throw error;
      this.#restart();
      throw new WasmTrapError(`chess-native wasm: ${name} trapped (${error.message}); the engine was re-instantiated`, error);
    }
  }

  /** The NUL-terminated string at ptr. */
  readCString(ptr) {
    const bytes = this.bytes;
    let end = ptr;
    while (bytes[end] !== 0) end++;
    return this.#decoder.decode(bytes.subarray(ptr, end));
  }

  /** cn_status_name of a status. */
  statusName(status) {
    return this.readCString(this.call('cn_status_name', status));
  }

  /** Engine name of the code path (cn_impl_name). */
  implName() {
    return this.readCString(this.call('cn_impl_name'));
  }

  /** Milliseconds the engine's table set-up took in this instance. */
  initMilliseconds() {
    return Number(this.call('cn_init_nanoseconds')) / 1e6;
  }

  /**
   * Parses a FEN (cn_fen_parse). Returns { status, position } on success
   * (position: the cn_position's bytes), else { status, field, message }
   * with cn_fen_error's field number and text.
   */
  parseFen(fen, chess960 = false) {
    const encoded = this.#encoder.encode(fen);
    const { position: positionLayout, fenError } = this.#layout;
    const pos = this.#scratch;
    const error = pos + positionLayout.bytes;
    const inScratch = error + fenError.bytes;
    const fits = encoded.length <= SCRATCH_BYTES - (inScratch - this.#scratch);
    const text = fits ? inScratch : this.call('malloc', Math.max(encoded.length, 1));
    if (text === 0) throw new RangeError('chess-native wasm: no memory for the FEN');
    try {
      this.bytes.set(encoded, text);
      const status = this.call('cn_fen_parse', pos, text, encoded.length, chess960 ? 1 : 0, error);
      if (status !== 0) {
        const field = new DataView(this.bytes.buffer).getInt32(error + fenError.field, true);
        return { status, field, message: this.readCString(error + fenError.message) };
      }
      return { status, position: this.bytes.slice(pos, pos + positionLayout.bytes) };
    } finally {
      if (!fits) this.call('free', text);
    }
  }

  /** Copies a position's bytes into the scratch area; returns its address. */
  #loadPosition(position) {
    if (position.length !== this.positionBytes) throw new RangeError(`a position is ${this.positionBytes} bytes`);
    this.bytes.set(position, this.#scratch);
    return this.#scratch;
  }

  /** The legal moves as UCI strings, sorted (cn_legal_moves_sorted, cn_move_to_uci). */
  legalMoves(position) {
    const pos = this.#loadPosition(position);
    const moves = pos + this.positionBytes;
    const uci = moves + this.#layout.moveBytes * this.maxMoves;
    const count = this.call('cn_legal_moves_sorted', pos, moves);
    const list = new Uint16Array(this.bytes.buffer, moves, count).slice();
    const out = [];
    for (const move of list) {
      const length = this.call('cn_move_to_uci', pos, move, uci);
      out.push(this.#decoder.decode(this.bytes.subarray(uci, uci + length)));
    }
    return out;
  }

  /** Leaf count at depth (cn_perft), exact. */
  perft(position, depth) {
    return BigInt.asUintN(64, this.call('cn_perft', this.#loadPosition(position), depth));
  }

  /** The canonical FEN of a position (cn_fen_write). */
  fen(position) {
    const pos = this.#loadPosition(position);
    const out = pos + this.positionBytes;
    const length = this.call('cn_fen_write', pos, out, this.#layout.fenBytes);
    return this.#decoder.decode(this.bytes.subarray(out, out + length));
  }
}
