// Runs in the page of test/browser-perft-async.test.ts: perftAsync of the
// package's browser entry (dist/browser.mjs) on Web Workers. Every export
// returns JSON (counts as decimal strings). The page's Worker class is
// wrapped first, so that the test can see how many workers were started and
// terminated, and can make a worker fail.
const workers = { started: 0, terminated: 0 };
/** Set: the next task posted to a worker is one it throws on. */
let breakNextTask = false;
const Original = globalThis.Worker;
globalThis.Worker = class extends Original {
  constructor(...args) {
    super(...args);
    workers.started++;
  }

  postMessage(message, ...rest) {
    const broken = breakNextTask && 'units' in message;
    if (broken) breakNextTask = false;
    super.postMessage(broken ? { ...message, units: null } : message, ...rest);
  }

  terminate() {
    workers.terminated++;
    super.terminate();
  }
};

const api = () => import('/dist/browser.mjs');

const strings = (record) => record && Object.fromEntries(Object.entries(record).map(([k, v]) => [k, String(v)]));

/** perftAsync(fen, depth, { threads, divide: true }) and Position.divide(depth) in the page, and every progress event. */
export async function run(fen, depth, threads) {
  const { perftAsync, Position } = await api();
  const progress = [];
  const result = await perftAsync(fen, depth, {
    threads,
    divide: true,
    hashMb: 0,
    onProgress: (p) => progress.push({ ...p, nodes: String(p.nodes) }),
  });
  return {
    nodes: String(result.nodes),
    divide: strings(result.divide),
    positionDivide: strings(new Position(fen).divide(depth)),
    progress,
    workers: { ...workers },
  };
}

/** perftAsync(fen, depth) with no options: the thread count and table size a browser defaults to. */
export async function runDefaults(fen, depth) {
  const { perftAsync } = await api();
  const { nodes, hash } = await perftAsync(fen, depth);
  return { nodes: String(nodes), hash };
}

/** What a perftAsync rejects with: name, code, message, whether its cause is the signal's reason. */
function describeAbort(error, reason) {
  return { name: error.name, code: error.code, message: error.message, causeIsReason: error.cause === reason };
}

/**
 * Aborts a long perftAsync on `threads` workers once its first progress
 * event has come: what it rejects with, how long after the abort, and the
 * workers started and terminated before and after.
 */
export async function abortMidRun(fen, depth, threads) {
  const { perftAsync } = await api();
  const controller = new AbortController();
  const reason = new Error('enough');
  const before = { ...workers };
  let abortedAt = 0;
  const run = perftAsync(fen, depth, {
    threads,
    hashMb: 16,
    signal: controller.signal,
    onProgress: () => {
      if (abortedAt) return;
      abortedAt = performance.now();
      controller.abort(reason);
    },
  });
  try {
    await run;
    return { resolved: true };
  } catch (error) {
    return { error: describeAbort(error, reason), ms: performance.now() - abortedAt, before, after: { ...workers } };
  }
}

/** perftAsync with a signal aborted before the call: what it rejects with, and whether a worker was started. */
export async function alreadyAborted(fen) {
  const { perftAsync } = await api();
  const controller = new AbortController();
  const reason = new Error('before');
  controller.abort(reason);
  const before = workers.started;
  const start = performance.now();
  try {
    await perftAsync(fen, 9, { threads: 2, signal: controller.signal });
    return { resolved: true };
  } catch (error) {
    return { error: describeAbort(error, reason), ms: performance.now() - start, started: workers.started - before };
  }
}

/** A run one of whose workers throws: what it rejects with and what the page was warned; then a run that counts. */
export async function workerFails(fen, depth) {
  const { perftAsync } = await api();
  const warnings = [];
  const warn = console.warn;
  console.warn = (...args) => warnings.push(args.join(' '));
  breakNextTask = true;
  let outcome;
  try {
    await perftAsync(fen, depth, { threads: 2, hashMb: 0 });
    outcome = { resolved: true };
  } catch (error) {
    outcome = { name: error.name, code: error.code, message: error.message };
  } finally {
    console.warn = warn;
  }
  const again = await perftAsync(fen, depth, { threads: 2, hashMb: 0 });
  return { outcome, warnings, again: String(again.nodes) };
}
