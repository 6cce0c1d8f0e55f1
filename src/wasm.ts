// The chess-native/wasm entry: the whole API on the WebAssembly build of the
// engine, whatever addon binary this platform has.
import { requestBackend } from './core/backend-choice';

requestBackend('wasm');

export * from './index';
