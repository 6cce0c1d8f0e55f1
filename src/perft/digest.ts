// Checksums of the files perft runs write (checkpoint journals, unit and
// part files): SHA-256, from node:crypto, in hex.
import { createHash } from 'node:crypto';

/** The SHA-256 of `text` (UTF-8) in hex. */
export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** A record's check: the first 64 bits of the SHA-256 of its fields, bound to the file's own digest. */
export function recordCheck(fileDigest: string, ...fields: Array<string | number | bigint>): string {
  return sha256(`${fileDigest}:${fields.join(':')}`).slice(0, 16);
}

/**
 * The checksum of a split: its root, depth, split ply and unit list (FEN and multiplicity of each,
 * in order). Two splits agree on it exactly when they describe the same work.
 */
export function splitChecksum(
  root: { fen: string; chess960: boolean; depth: number; ply: number },
  units: ReadonlyArray<{ fen: string; multiplicity: bigint }>,
): string {
  const hash = createHash('sha256');
  hash.update(`${root.fen}\n${root.chess960 ? 1 : 0}\n${root.depth}\n${root.ply}\n`);
  for (const unit of units) hash.update(`${unit.fen};${unit.multiplicity}\n`);
  return hash.digest('hex');
}
