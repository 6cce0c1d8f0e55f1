// The seven WASI imports wasi-libc asks the engine's module for, as stubs:
// the engine reads its variables (getenv) and the clock, and writes nothing
// anyone reads. The same stubs as wasm/loader.mjs; no Node import, so the
// browser entries bundle this module too.

/** The variables the engine reads (getenv) that it is given: CHESS_NATIVE_SLIDERS and CHESS_NATIVE_CPU, as the addon sees them. */
export type EngineEnv = Record<string, string>;

const ERRNO_BADF = 8;

/** The part of the WebAssembly global used here (its types come with the DOM lib, which this build leaves out). */
const RuntimeError = (globalThis as unknown as { WebAssembly: { RuntimeError: new (message?: string) => Error } }).WebAssembly.RuntimeError;

/** The imports of an instance whose memory `memory()` gives (read at call time) and whose variables are `env`. */
export function wasiImports(memory: () => { buffer: ArrayBuffer }, env: EngineEnv): object {
  const view = (): DataView => new DataView(memory().buffer);
  const strings = Object.entries(env).map(([name, value]) => new TextEncoder().encode(`${name}=${value}\0`));
  return {
    wasi_snapshot_preview1: {
      environ_sizes_get(countPtr: number, sizePtr: number): number {
        view().setUint32(countPtr, strings.length, true);
        view().setUint32(
          sizePtr,
          strings.reduce((sum, s) => sum + s.length, 0),
          true,
        );
        return 0;
      },
      environ_get(pointers: number, buffer: number): number {
        let at = buffer;
        strings.forEach((s, i) => {
          view().setUint32(pointers + 4 * i, at, true);
          new Uint8Array(memory().buffer).set(s, at);
          at += s.length;
        });
        return 0;
      },
      clock_time_get(_clock: number, _precision: bigint, outPtr: number): number {
        view().setBigUint64(outPtr, BigInt(Math.round(performance.now() * 1e6)), true);
        return 0;
      },
      fd_write(_fd: number, iovs: number, iovsLength: number, writtenPtr: number): number {
        let written = 0;
        for (let i = 0; i < iovsLength; i++) written += view().getUint32(iovs + 8 * i + 4, true);
        view().setUint32(writtenPtr, written, true);
        return 0;
      },
      fd_close: (): number => ERRNO_BADF,
      fd_seek: (): number => ERRNO_BADF,
      proc_exit(code: number): never {
        throw new RuntimeError(`the engine called exit(${code})`);
      },
    },
  };
}
