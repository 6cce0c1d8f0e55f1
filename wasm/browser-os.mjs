// What the API takes from node:os, in the browser bundle (wasm/bundle.mjs
// resolves node:os to this module for the names it has): the thread count
// perftAsync defaults to, and the memory figures its table sizes are bounded
// by. A page is told neither its free memory nor its total: the device's
// memory (navigator.deviceMemory, where the browser tells it) stands for
// both, else 4 GiB; the engine caps a table at 1 GiB, and a table no worker
// can allocate fails when the run starts.

const GIB = 2 ** 30;

export const availableParallelism = () => globalThis.navigator?.hardwareConcurrency || 1;

export const totalmem = () => (globalThis.navigator?.deviceMemory ?? 4) * GIB;

export const freemem = () => totalmem();

/** Not 'linux': memory is not read from /proc. */
export const platform = () => 'browser';
