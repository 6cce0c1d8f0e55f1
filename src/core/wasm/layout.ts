// The engine's structs and constants as the wasm32 build lays them out
// (pointers and size_t 4 bytes), and the scratch block's slots. These
// restate csrc/engine/include for a module that exports only functions;
// test/backend.test.ts checks the backend against the addon, which reads
// them from the headers.

export const POSITION_BYTES = 96;
/** offsetof(cn_position, key), side. */
export const KEY_OFFSET = 64;
export const SIDE_OFFSET = 78;
/** offsetof(cn_position, fullmove). */
export const FULLMOVE_OFFSET = 72;
export const MAX_MOVES = 512;
/** CN_NO_SQUARE. */
export const NO_SQUARE = 64;
export const SAN_MAX = 16;
export const UCI_RECORD_BYTES = 6;
export const FEN_MAX_LENGTH = 251;
export const UCI_MAX = 11;
export const SAN_LINE_MAX = 27;
export const LINE_MAX_MOVES = 65536;
export const SAN_LINE_MOVES = 256;
export const MAX_DEPTH = 20;
export const JOB_MAX_THREADS = 256;
export const JOB_MAX_UNITS = 1 << 20;
/** CN_MAX_HASH_BYTES with a 32-bit size_t: the largest table the engine builds there, 1 GiB. */
export const MAX_HASH_BYTES = 2 ** 30;
export const KEY_SET_NAME_MAX = 48;
export const PERFT_VERIFY_KEY_SEED = 0xbb67ae8584caa73bn;
export const PGN_MIN_BLOCK_BYTES = 16 << 10;

/** cn_status values the backend raises or tests. */
export const Status = { ok: 0, fen: 1, illegalMove: 2, badMove: 3, badPosition: 5, noMemory: 8 } as const;

/** cn_line_reader: text, len, offset, format, bad_start, bad_len. */
export const Reader = { text: 0, len: 4, offset: 8, format: 12, badStart: 16, badLen: 20 } as const;
/** cn_pgn_input. */
export const PgnInput = {
  text: 0,
  length: 4,
  final: 8,
  cut: 12,
  mode: 16,
  line: 20,
  column: 24,
  maxGames: 28,
  stop: 32,
  consumed: 36,
  consumedLine: 40,
  consumedColumn: 44,
  bytes: 52,
} as const;
/** cn_pgn_part (a cn_pgn_output, then line_offset); cn_pgn_parts is { part, count }. */
export const PgnPart = { records: 0, recordCount: 4, strings: 12, stringLength: 16, lineOffset: 28, bytes: 32 } as const;
/** cn_perft_job_options: depth, threads, hash_bytes, on_finish, user, leaf_depth, min_queue_items, key_seed. */
export const JobOptions = { depth: 0, threads: 4, hashBytes: 8, keySeed: 32, bytes: 40 } as const;

/** cn_split: ply, count, positions, multiplicities, track_roots, root_first, roots, root_counts, root_move_count, root_moves. */
export const Split = {
  ply: 0,
  count: 4,
  positions: 8,
  multiplicities: 12,
  rootFirst: 20,
  roots: 24,
  rootCounts: 28,
  rootMoveCount: 32,
  rootMoves: 36,
  bytes: 36 + 2 * MAX_MOVES,
} as const;

/** Slots of the scratch block (offsets from its start; 8-aligned where 64-bit values go). */
export const Slot = {
  pos: 0,
  out: 96,
  fenError: 192,
  moves: 320,
  counts: 1344,
  text: 5440,
  sans: 5952,
  reader: 14144,
  options: 14168,
  int: 14208,
  pgnInput: 14216,
  pgnParts: 14272,
  undo: 14280,
  end: 14304,
} as const;
