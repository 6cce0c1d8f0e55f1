// The core: positions, moves, SAN, status and one-thread perft. It imports
// nothing of the other subsystems (perft/, pgn/, cli/), which build on it.
export { Position, START_FEN, type PositionOptions } from './position';
export { type Piece, type BoardPiece, type PieceType, type Color } from './board';
export {
  FenError,
  IllegalMoveError,
  AbortError,
  EngineError,
  PerftVerifyError,
  JournalError,
  UnitsError,
  type FenField,
  type UnitsProblems,
} from './errors';
export { PERFT_MAX_DEPTH } from './checks';
export { engineInfo, type EngineInfo } from './engine-info';
