import { backend } from './boundary';

/** What {@link engineInfo} reports about the loaded engine. */
export interface EngineInfo {
  /** Engine version (CN_VERSION). */
  version: string;
  /** Slider attack indexing chosen at run time: BMI2 `pext`, or multiply `magic`. */
  sliders: 'pext' | 'magic';
  /** Node-API version the binary was built for. */
  napi: number;
  /**
   * Active code path: "pext", "bmi2-magic", "popcnt-magic" or "base-magic" on x86-64 (by CPU
   * features), "arm64-magic" on AArch64, "base-magic" elsewhere.
   */
  impl: string;
  /** Milliseconds the one-time table initialisation took in this process. */
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
    impl: backend.impl,
    initMs: backend.initMs,
    perftKeySet: backend.perftKeySet,
  };
}
