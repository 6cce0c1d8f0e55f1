// PGN: reading (strings, files, streams), the game tree, and writing.
export {
  parsePgn,
  readPgn,
  PGN_MAX_DEPTH,
  PGN_MAX_THREADS,
  type PgnMode,
  type ParsePgnOptions,
  type ReadPgnOptions,
  type PgnProgress,
  type PgnSource,
} from './read';
export { Game, type PgnMove, type PgnNode, type PgnRoot, type PgnError, type PgnGameData } from './game';
export { writePgn, type WritePgnOptions } from './writer';
export { toPgn, type ToPgnOptions } from './from-position';
export { type PgnEval, type PgnShape } from './comments';
