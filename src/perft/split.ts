// Splitting a perft tree into work units: the unique positions some plies
// below a root, each with its multiplicity (how many move sequences reach
// it). perft(root, depth) = sum over units of multiplicity * perft(unit,
// depth - ply). Positions are merged by the first four FEN fields (board,
// side to move, castling rights, en-passant square): the halfmove and
// fullmove clocks do not change a perft count.
import { backend } from '../core/boundary';

const BYTES = backend.positionBytes;

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
  /** The root's legal moves in UCI, in the engine's order (their indices key `roots`). */
  rootMoves: string[];
}

interface Node {
  bytes: Uint8Array;
  fen: string;
  multiplicity: bigint;
  roots: Map<number, bigint> | undefined;
}

/** The four position fields of a FEN, with clocks 0 1. */
function positionFen(fen: string): string {
  return `${fen.split(' ').slice(0, 4).join(' ')} 0 1`;
}

function addRoots(into: Map<number, bigint>, from: Map<number, bigint>): void {
  for (const [root, count] of from) into.set(root, (into.get(root) ?? 0n) + count);
}

/** The unique children of `level`'s positions, in first-reached order. */
function expand(level: Node[], depthOne: boolean): Node[] {
  const next = new Map<string, Node>();
  const moves = new Uint16Array(backend.maxMoves);
  const scratch = new Uint8Array(BYTES);
  for (const node of level) {
    const count = backend.legalMoves(node.bytes, moves);
    for (let i = 0; i < count; i++) {
      backend.play(node.bytes, backend.moveToUci(node.bytes, moves[i] as number), scratch);
      const fen = positionFen(backend.fen(scratch));
      const roots = depthOne ? new Map([[i, 1n]]) : node.roots;
      const seen = next.get(fen);
      if (seen) {
        seen.multiplicity += node.multiplicity;
        if (seen.roots && roots) addRoots(seen.roots, roots);
        continue;
      }
      next.set(fen, {
        bytes: scratch.slice(),
        fen,
        multiplicity: node.multiplicity,
        roots: roots ? new Map(roots) : undefined,
      });
    }
  }
  return [...next.values()];
}

/**
 * The unique positions `ply` plies below `root` (parsed position bytes), in the order they are
 * first reached (root moves in engine order, depth first within a ply). With `trackRoots`, each
 * unit also counts its sequences per root move (for divide). With `maxUnits`, splitting stops
 * early at the first ply that already holds more than that many units. Positions with no legal
 * moves above the split ply end their sequences: they add nothing to counts deeper than them.
 */
export function splitTree(root: Uint8Array, ply: number, options: { trackRoots?: boolean; maxUnits?: number } = {}): Split {
  const rootMoves: string[] = [];
  const moves = new Uint16Array(backend.maxMoves);
  const rootCount = backend.legalMoves(root, moves);
  for (let i = 0; i < rootCount; i++) rootMoves.push(backend.moveToUci(root, moves[i] as number));
  let level: Node[] = [{ bytes: root, fen: positionFen(backend.fen(root)), multiplicity: 1n, roots: undefined }];
  let reached = 0;
  while (reached < ply && level.length <= (options.maxUnits ?? Infinity)) {
    level = expand(level, reached === 0 && options.trackRoots === true);
    reached++;
  }
  const units = level.map(({ fen, multiplicity, roots }): SplitUnit => (roots ? { fen, multiplicity, roots } : { fen, multiplicity }));
  return { ply: reached, units, rootMoves };
}
