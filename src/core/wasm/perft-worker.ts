// The entry of a perft worker of the wasm backend (./jobs): its own
// single-threaded engine instance, counting the batches of units it is sent.
import { parentPort, workerData } from 'node:worker_threads';

import { countTask, type Task } from './count-task';
import { Engine, type CompiledModule, type EngineEnv } from './instance';

const port = parentPort;
if (!port) throw new Error('perft-worker runs as a worker thread');
const data = workerData as { module: CompiledModule; env: EngineEnv };
const engine = new Engine(data.module, data.env);
port.on('message', (task: Task) => port.postMessage(countTask(engine, task)));
