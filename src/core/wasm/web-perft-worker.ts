// The entry of a perft worker of the wasm backend in browsers (./web-workers;
// wasm/bundle.mjs bundles it as the worker's script): the first message is
// the compiled module and the engine's variables, each later one a task,
// counted on the worker's own single-threaded engine instance.
import { countTask, type Task } from './count-task';
import { Engine, type CompiledModule, type EngineEnv } from './instance';

interface WorkerScope {
  onmessage: ((event: { data: unknown }) => void) | null;
  postMessage(message: unknown): void;
}

const scope = globalThis as unknown as WorkerScope;
let engine: Engine | undefined;
scope.onmessage = ({ data }) => {
  if (engine) {
    scope.postMessage(countTask(engine, data as Task));
  } else {
    const { module, env } = data as { module: CompiledModule; env: EngineEnv };
    engine = new Engine(module, env);
  }
};
