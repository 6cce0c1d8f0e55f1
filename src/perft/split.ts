// Splitting a perft tree into work units: the unique positions some plies
// below a root, each with its multiplicity (how many move sequences reach
// it). perft(root, depth) = sum over units of multiplicity * perft(unit,
// depth - ply). The engine splits (csrc/engine/include/split.h): positions
// are merged when their first four FEN fields (board, side to move,
// castling rights, en-passant square) agree; the halfmove and fullmove
// clocks do not change a perft count.
import { backend, publicError } from '../core/boundary';

/** A unique position at the split ply. */
interface SplitUnit {
  /** Its FEN: the four position fields and clocks `0 1`. */
  fen: string;
  /** Move sequences from the root that reach it. */
  multiplicity: bigint;
  /** With `trackRoots`: how many of those sequences start with each root move (by index). */
  roots?: Map<number, bigint>;
}

/** The split of a tree. */
export interface Split {
  /** The ply the units stand at: the one asked for, unless `maxUnits` stopped the split earlier. */
  ply: number;
  units: SplitUnit[];
  /** The root's legal moves in UCI, in legalMoves order (their indices key `roots`). */
  rootMoves: string[];
}

/**
 * The unique positions `ply` plies below `root` (parsed position bytes), in the order they are
 * first reached (root moves in legalMoves order, breadth first). With `trackRoots`, each unit
 * also counts its sequences per root move (for divide). With `maxUnits`, splitting stops early
 * at the first ply that already holds more than that many units. Positions with no legal moves
 * above the split ply end their sequences: they add nothing to counts deeper than them.
 */
export function splitTree(root: Uint8Array, ply: number, options: { trackRoots?: boolean; maxUnits?: number } = {}): Split {
  let split;
  try {
    split = backend.splitTree(root, ply, options.maxUnits ?? Number.MAX_SAFE_INTEGER, options.trackRoots === true ? 1 : 0);
  } catch (e) {
    throw publicError(e);
  }
  const { fens, multiplicities, rootFirst, roots, rootCounts } = split;
  const units = fens.map((fen, i): SplitUnit => {
    const multiplicity = multiplicities[i] as bigint;
    if (!rootFirst || !roots || !rootCounts) return { fen, multiplicity };
    const byRoot = new Map<number, bigint>();
    for (let j = rootFirst[i] as number; j < (rootFirst[i + 1] as number); j++) byRoot.set(roots[j] as number, rootCounts[j] as bigint);
    return { fen, multiplicity, roots: byRoot };
  });
  return { ply: split.ply, units, rootMoves: split.rootMoves };
}
