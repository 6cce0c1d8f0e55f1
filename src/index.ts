/**
 * chess-native: legal move generation and perft from a C11 engine.
 *
 * ```ts
 * import { Position } from 'chess-native';
 * new Position().perft(5); // 4865609
 * ```
 */
import { native } from './native';

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
export { splitPerft, readUnitsFile, writeUnitsFile, type UnitSet, type UnitManifest, type WorkUnit, type SplitOptions } from './units';
export { runUnits, type RunUnitsOptions, type RunUnitsProgress, type Shard } from './shard';
export { mergeUnits, readPartFile, writePartFile, type PartFile, type PartHeader, type PartRecord, type MergeResult } from './parts';
export { perftAsync, perftKeySetId, type PerftAsyncOptions, type PerftAsyncResult, type PerftProgress } from './perft';
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
} from './pgn';
export { Game, type PgnMove, type PgnNode, type PgnRoot, type PgnError, type PgnGameData } from './pgn-game';
export { writePgn, type WritePgnOptions } from './pgn-writer';
export { type PgnEval, type PgnShape } from './pgn-comments';

/** What {@link engineInfo} reports about the loaded engine. */
export interface EngineInfo {
  /** Engine version (CN_VERSION). */
  version: string;
  /** Slider attack indexing chosen at run time: BMI2 `pext`, or multiply `magic`. */
  sliders: 'pext' | 'magic';
  /** Node-API version the binary was built for. */
  napi: number;
  /**
   * Active code path: "pext", "bmi2-magic", "popcnt-magic" or "base-magic" on x86-64 (by CPU
   * features), "arm64-magic" on AArch64, "base-magic" elsewhere.
   */
  impl: string;
  /** Milliseconds the one-time table initialisation took in this process. */
  initMs: number;
  /**
   * Name of the second key set hashed perft verifies table entries with, e.g.
   * "xorshift64star-v1-6a09e667f3bcc909": a record of hashed counts can store it and refuse
   * another.
   */
  perftKeySet: string;
}

/** Facts about the loaded native engine. */
export function engineInfo(): EngineInfo {
  return {
    version: native.version,
    sliders: native.sliders,
    napi: native.napi,
    impl: native.impl,
    initMs: native.initMs,
    perftKeySet: native.perftKeySet,
  };
}
