// ESM entry of chess-native/wasm: ./wasm.js asks for the wasm backend and
// loads the CommonJS build before ./index.mjs re-exports it (imports are
// evaluated in order), so both entry points share one module instance.
import './wasm.js';

export * from './index.mjs';
