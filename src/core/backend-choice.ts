// Which engine backs the API: the addon ('native') or the WebAssembly build
// ('wasm'). CHESS_NATIVE_BACKEND forces one; the chess-native/wasm entry asks
// for wasm before the engine loads. Kept apart from ./native so that an
// entry can ask before ./native loads the engine.

export type BackendName = 'native' | 'wasm';

let requested: BackendName | undefined;
let chosen: BackendName | undefined;

/** Asks for a backend; throws once the engine has loaded with the other one. */
export function requestBackend(name: BackendName): void {
  if (chosen && chosen !== name) {
    throw new Error(
      `chess-native is already loaded with the ${chosen} backend: load chess-native/wasm first, or set CHESS_NATIVE_BACKEND=${name}`,
    );
  }
  requested = name;
}

/** The backend asked for (the entry's request, else CHESS_NATIVE_BACKEND), or undefined: the addon, else wasm. */
export function requestedBackend(): BackendName | undefined {
  if (requested) return requested;
  const env = process.env['CHESS_NATIVE_BACKEND'];
  if (env === undefined || env === '') return undefined;
  if (env !== 'native' && env !== 'wasm') throw new Error(`CHESS_NATIVE_BACKEND must be 'native' or 'wasm', not '${env}'`);
  return env;
}

/** Records the backend the engine loaded with. */
export function setChosenBackend(name: BackendName): void {
  chosen = name;
}
