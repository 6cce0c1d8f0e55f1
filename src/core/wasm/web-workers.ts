// The Web Worker transport of the wasm backend's perft jobs (./transport),
// for the browser entry: each worker runs the bundled source of
// ./web-perft-worker from a Blob URL (so no second file needs serving or
// copying by a bundler) and is sent the compiled WebAssembly.Module first,
// which it instantiates without fetching anything. Messages are copied, so
// neither SharedArrayBuffer nor cross-origin isolation is needed.
import type { Answer } from './count-task';
import { provideWorkers, type PerftWorker, type WorkerTransport } from './transport';

/** The part of a browser's Worker used here (the DOM types are not in this build's libs). */
interface WebWorker {
  onmessage: ((event: { data: Answer }) => void) | null;
  onerror: ((event: { message?: string; preventDefault(): void }) => void) | null;
  onmessageerror: (() => void) | null;
  postMessage(message: unknown): void;
  terminate(): void;
}

interface WebGlobals {
  Worker: new (url: string, options: { name: string }) => WebWorker;
  Blob: new (parts: string[], options: { type: string }) => object;
  URL: { createObjectURL(blob: object): string };
}

/** Makes perft jobs run on Web Workers running `source`, the bundled worker script. */
export function useWebWorkers(source: string): void {
  provideWorkers(webWorkers(source));
}

function webWorkers(source: string): WorkerTransport {
  let url: string | undefined; // made once and kept: every worker starts from it
  return {
    spawn(module, env): PerftWorker {
      const web = globalThis as unknown as WebGlobals;
      url ??= web.URL.createObjectURL(new web.Blob([source], { type: 'text/javascript' }));
      const worker = new web.Worker(url, { name: 'chess-native perft' });
      worker.postMessage({ module, env });
      return {
        listen(onAnswer, onFailure) {
          worker.onmessage = onAnswer && ((event) => onAnswer(event.data));
          worker.onerror = (event) => {
            event.preventDefault(); // handled: not an uncaught error of the page
            onFailure(event.message || "the worker could not start: does the page's Content-Security-Policy allow worker-src blob:?");
          };
          worker.onmessageerror = () => onFailure('a message from the worker could not be read');
        },
        post: (task) => worker.postMessage(task),
        keepAlive: () => {},
        terminate: async () => worker.terminate(),
      };
    },
    warn: (message) => console.warn(message),
  };
}
