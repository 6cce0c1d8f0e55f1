// ESM entry point: re-exports the CommonJS build, so `import` and `require`
// share one module instance (one addon load, one class identity: a FenError
// thrown through either entry point passes `instanceof` checks from both).
// Types: dist/index.d.ts serves both entry points.
import cjs from './index.js';

export const {
  Position,
  START_FEN,
  FenError,
  IllegalMoveError,
  AbortError,
  EngineError,
  engineInfo,
  perftAsync,
  parsePgn,
  readPgn,
  writePgn,
  Game,
} = cjs;
export default cjs;
