// ESM entry point: re-exports the CommonJS build, so `import` and `require`
// share one module instance (one addon load, one class identity: a FenError
// thrown through either entry point passes `instanceof` checks from both).
// Types: dist/index.d.ts serves both entry points. test/esm-entry.test.ts fails when
// this list and the CommonJS exports differ.
import cjs from './index.js';

export const {
  Position,
  START_FEN,
  FenError,
  IllegalMoveError,
  AbortError,
  EngineError,
  PerftVerifyError,
  JournalError,
  UnitsError,
  engineInfo,
  perftAsync,
  perftKeySetId,
  splitPerft,
  readUnitsFile,
  writeUnitsFile,
  runUnits,
  mergeUnits,
  readPartFile,
  writePartFile,
  parsePgn,
  readPgn,
  writePgn,
  Game,
  PGN_MAX_DEPTH,
  PGN_MAX_THREADS,
  PERFT_MAX_DEPTH,
  PERFT_MAX_THREADS,
  toPgn,
} = cjs;
export default cjs;
