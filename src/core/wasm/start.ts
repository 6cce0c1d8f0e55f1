// What a browser entry runs as soon as the engine's module is compiled,
// while the API module is still on its way: the first instance, its C
// start-up and the engine's tables (cn_init). The API's first engine takes
// that instance over (provideModule), so the tables are built off the path
// to the API being ready.
import type { CompiledModule, Instance } from './instance';
import { wasiImports } from './wasi';

/** The compiled module and, when it could be started here, its first instance. */
export interface StartedEngine {
  module: CompiledModule;
  instance?: Instance;
}

type StartExports = { memory: { buffer: ArrayBuffer }; _initialize(): void; cn_init(): number };

const wasm = (globalThis as unknown as { WebAssembly: { instantiate(m: CompiledModule, imports: object): Promise<Instance> } }).WebAssembly;

/** Starts `module`'s first instance; on any failure, only the module (the API then makes its instance and reports the failure). */
export async function startEngine(module: CompiledModule): Promise<StartedEngine> {
  try {
    // The imports read the memory at call time, after the instance exists.
    const instance: Instance = await wasm.instantiate(
      module,
      wasiImports(() => (instance.exports as StartExports).memory, {}),
    );
    const exports = instance.exports as StartExports;
    exports._initialize();
    exports.cn_init(); // its status is read again by the engine that takes the instance over
    return { module, instance };
  } catch {
    return { module };
  }
}
