import { backend, backendName } from './boundary';

/** What {@link engineInfo} reports about the loaded engine. */
export interface EngineInfo {
  /** Engine version (CN_VERSION). */
  version: string;
  /** Slider attack indexing chosen at run time: BMI2 `pext`, or multiply `magic`. */
  sliders: 'pext' | 'magic';
  /** Node-API version the binary was built for (0 on the wasm backend). */
  napi: number;
  /**
   * The engine backing the API: `'native'`, the addon, or `'wasm'`, the same engine built as
   * WebAssembly (forced by CHESS_NATIVE_BACKEND=wasm or the chess-native/wasm entry, else used
   * when no native binary loads).
   */
  backend: 'native' | 'wasm';
  /**
   * Active code path: "pext", "bmi2-magic", "popcnt-magic" or "base-magic" on x86-64 (by CPU
   * features), "arm64-magic" on AArch64, "base-magic" elsewhere.
   */
  impl: string;
  /** Milliseconds the one-time table initialisation took in this process (wasm: in this thread's engine instance). */
  initMs: number;
  /**
   * Name of the second key set hashed perft verifies table entries with, e.g.
   * "xorshift64star-v1-6a09e667f3bcc909": a record of hashed counts can store it and refuse
   * another.
   */
  perftKeySet: string;
}

/** Facts about the loaded native engine. */
export function engineInfo(): EngineInfo {
  return {
    version: backend.version,
    sliders: backend.sliders,
    napi: backend.napi,
    backend: backendName,
    impl: backend.impl,
    initMs: backend.initMs,
    perftKeySet: backend.perftKeySet,
  };
}
