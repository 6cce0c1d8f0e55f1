// The split into work units, checked against digests of what the split
// wrote before the engine did it (test/fixtures/split-digests.json, made by
// the TypeScript split that merged positions by their FEN text): each units
// file byte for byte, and the checkpoint's split (units, multiplicities,
// counts per root move, the ply a unit limit stops at) as canonical JSON.
// The cases cover transpositions, positions with no moves before the split
// ply, en-passant squares FEN does not show, promotions, Chess960 castling.
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { api, ROOT } from './helpers';

const require = createRequire(import.meta.url);
const { splitTree } = require('../dist/perft/split.js') as typeof import('../src/perft/split');
const { parseFen } = require('../dist/core/fen.js') as typeof import('../src/core/fen');
const { allocBytes } = require('../dist/core/bytes.js') as typeof import('../src/core/bytes');

interface UnitsCase {
  fen: string;
  chess960: boolean;
  depth: number;
  ply: number;
  units: number;
  sha256: string;
}
interface TreeCase {
  fen: string;
  chess960: boolean;
  ply: number;
  options: { trackRoots?: boolean; maxUnits?: number };
  reached: number;
  units: number;
  sha256: string;
}
const FIXTURES = JSON.parse(readFileSync(path.join(ROOT, 'test', 'fixtures', 'split-digests.json'), 'utf8')) as {
  units: UnitsCase[];
  trees: TreeCase[];
};
const TMP = mkdtempSync(path.join(os.tmpdir(), 'chess-native-split-'));
afterAll(() => rmSync(TMP, { recursive: true, force: true }));
const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

describe('the split into work units', () => {
  it.each(FIXTURES.units)('writes the units file of $fen at depth $depth, ply $ply byte for byte', (c) => {
    const set = api.splitPerft(c.fen, c.depth, c.ply, { chess960: c.chess960 });
    const file = path.join(TMP, `${c.depth}-${c.ply}.units`);
    api.writeUnitsFile(file, set);
    expect(set.units.length).toBe(c.units);
    expect(sha256(readFileSync(file, 'utf8'))).toBe(c.sha256);
  });

  it.each(FIXTURES.trees)('splits $fen to ply $ply with $options as before', (c) => {
    const root = allocBytes();
    parseFen(root, c.fen, c.chess960);
    const split = splitTree(root, c.ply, c.options);
    const canonical = JSON.stringify({
      ply: split.ply,
      rootMoves: split.rootMoves,
      units: split.units.map((u) => [
        u.fen,
        String(u.multiplicity),
        u.roots ? [...u.roots].sort((a, b) => a[0] - b[0]).map(([r, n]) => [r, String(n)]) : null,
      ]),
    });
    expect([split.ply, split.units.length]).toEqual([c.reached, c.units]);
    expect(sha256(canonical)).toBe(c.sha256);
  });
});
