// Deep perft: threaded and hashed counts with progress and cancellation,
// journals that resume them, and work units for batch clusters.
export { perftAsync, perftKeySetId, PERFT_MAX_THREADS, type PerftAsyncOptions, type PerftAsyncResult, type PerftProgress } from './perft';
export { splitPerft, readUnitsFile, writeUnitsFile, type UnitSet, type UnitManifest, type WorkUnit, type SplitOptions } from './units';
export { runUnits, type RunUnitsOptions, type RunUnitsProgress, type Shard } from './shard';
export { mergeUnits, readPartFile, writePartFile, type PartFile, type PartHeader, type PartRecord, type MergeResult } from './parts';
