// Runs in the page: a long PGN stream and hostile PGN bytes through the
// package's browser entry, called by test/browser-bounds.test.ts. Every
// instance of the module the package makes is recorded (WebAssembly.Instance
// and WebAssembly.instantiate are wrapped before the entry loads) so that its
// memory can be read.
const instances = [];
const Instance = WebAssembly.Instance;
WebAssembly.Instance = function (module, imports) {
  const instance = new Instance(module, imports);
  instances.push(instance);
  return instance;
};
const instantiate = WebAssembly.instantiate;
WebAssembly.instantiate = async function (source, imports) {
  const made = await instantiate(source, imports);
  instances.push(made instanceof Instance ? made : made.instance);
  return made;
};
const api = () => import('/dist/browser.mjs');

/** Bytes of linear memory of the module's live instances. */
function moduleBytes() {
  return instances.map((instance) => instance.exports.memory.buffer.byteLength).reduce((a, b) => a + b, 0);
}

/** A stream of `chunks` copies of `chunk`. */
function repeated(chunk, chunks) {
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      if (sent++ < chunks) controller.enqueue(chunk);
      else controller.close();
    },
  });
}

/**
 * Streams `megabytes` MB of copies of `game` through readPgn in `mode`:
 * games, mainline plies and errors counted, and the module's memory after
 * the first eighth of the text and at the end.
 */
export async function stream(game, megabytes, mode) {
  const { readPgn } = await api();
  const one = new TextEncoder().encode(`${game}\n\n`);
  const chunk = new Uint8Array(Math.floor((1 << 20) / one.length) * one.length);
  for (let at = 0; at < chunk.length; at += one.length) chunk.set(one, at);
  const chunks = Math.ceil((megabytes << 20) / chunk.length);
  let games = 0;
  let plies = 0;
  let errors = 0;
  let early = 0;
  for await (const g of readPgn(repeated(chunk, chunks), { mode })) {
    games++;
    errors += g.errors.length;
    plies += g.moves().length;
    if (games === Math.floor((chunks * chunk.length) / one.length / 8)) early = moduleBytes();
  }
  return { games, expected: (chunks * chunk.length) / one.length, plies, errors, early, end: moduleBytes() };
}

/** parsePgn over each text: the number of games and errors, or the error thrown. */
export async function hostile(texts) {
  const { parsePgn } = await api();
  return texts.map((text) => {
    try {
      const games = parsePgn(text);
      return { games: games.length, errors: games.reduce((n, g) => n + g.errors.length, 0) };
    } catch (e) {
      return { thrown: e.name };
    }
  });
}
