// The worker_threads transport of the wasm backend's perft jobs (./transport):
// each worker runs ./perft-worker with the compiled module as its workerData.
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';

import type { Answer } from './count-task';
import type { PerftWorker, WorkerTransport } from './transport';

export const nodeWorkers: WorkerTransport = {
  spawn(module, env): PerftWorker {
    const worker = new Worker(path.join(__dirname, 'perft-worker.js'), { workerData: { module, env } });
    return {
      listen(onAnswer, onFailure) {
        worker.removeAllListeners('message').removeAllListeners('error');
        if (onAnswer) worker.on('message', (answer: Answer) => onAnswer(answer));
        worker.on('error', (error: Error) => onFailure(error.message));
      },
      post: (task) => worker.postMessage(task),
      keepAlive: (yes) => void (yes ? worker.ref() : worker.unref()),
      terminate: () => worker.terminate().then(() => undefined),
    };
  },
  warn: (message) => process.emitWarning(message),
};
