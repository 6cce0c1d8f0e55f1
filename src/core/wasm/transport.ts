// How the wasm backend's perft jobs (./jobs) reach their workers: the job
// logic (the root split, batches, progress, cancel) is the same everywhere,
// only the transport differs. Node runs them on worker_threads
// (./node-workers), the browser entry provides Web Workers (./web-workers).
import type { Answer, Task } from './count-task';
import type { CompiledModule, EngineEnv } from './instance';
import { nodeWorkers } from './node-workers';

/** One worker with its own single-threaded engine instance, counting the tasks posted to it. */
export interface PerftWorker {
  /** Sets what the worker's answers and its failure call, replacing the previous handlers (null: answers are dropped). */
  listen(onAnswer: ((answer: Answer) => void) | null, onFailure: (message: string) => void): void;
  post(task: Task): void;
  /** Whether the worker keeps the process alive while it waits (Node); browsers ignore it. */
  keepAlive(yes: boolean): void;
  /** Stops the worker; resolves once it has exited and its memory is returned. */
  terminate(): Promise<void>;
}

/** Makes workers over the compiled module, each instantiating it once. */
export interface WorkerTransport {
  spawn(module: CompiledModule, env: EngineEnv): PerftWorker;
  /** Tells the user about a worker that failed (the job itself ends as cancelled). */
  warn(message: string): void;
}

let provided: WorkerTransport | undefined;

/** Replaces the worker_threads transport: the browser entry provides Web Workers before the engine loads. */
export function provideWorkers(transport: WorkerTransport): void {
  provided = transport;
}

/** The transport in use: the provided one, else worker_threads. */
export function workers(): WorkerTransport {
  return provided ?? nodeWorkers;
}
