// Argument checks shared by Position and perftAsync.
import { describe } from './errors';
import { LIMITS } from './boundary';

/** Deepest perft, divide or perftAsync depth. */
export const PERFT_MAX_DEPTH: number = LIMITS.maxDepth;
const MAX_DEPTH = PERFT_MAX_DEPTH;

/** A perft depth: an integer from 0 to limits.maxDepth, else a RangeError. */
export function checkDepth(depth: unknown): asserts depth is number {
  if (typeof depth !== 'number' || !Number.isInteger(depth) || depth < 0 || depth > MAX_DEPTH) {
    throw new RangeError(`depth must be an integer from 0 to ${MAX_DEPTH}, got ${describe(depth)}`);
  }
}

/** A move argument: a string, else a TypeError. */
export function checkMove(move: unknown): asserts move is string {
  if (typeof move !== 'string') throw new TypeError(`move must be a string, got ${describe(move)}`);
}
