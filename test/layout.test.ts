// The subsystems of src/: the core imports none of the others, PGN and deep
// perft import only the core (and their own files), and the command line
// uses the public API (src/index.ts) alone.
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './helpers';

const SRC = path.join(ROOT, 'src');
const SUBSYSTEMS = ['core', 'perft', 'pgn', 'cli'];
/** What each subsystem may import, besides its own files and node: modules. */
const ALLOWED: Record<string, string[]> = { core: [], perft: ['core'], pgn: ['core'], cli: ['index'] };

/** Each relative import of a file under src/, as a path relative to src/ without extension. */
function imports(file: string): string[] {
  const text = readFileSync(path.join(SRC, file), 'utf8');
  const found = [...text.matchAll(/(?:from|import\(|require\()\s*'(\.[^']+)'/g)].map((m) => m[1] as string);
  return found.map((spec) => path.posix.normalize(path.posix.join(path.posix.dirname(file), spec)).replace(/\.js$/, ''));
}

/** The subsystem (first folder) a src-relative path belongs to, or the top-level module's name. */
function owner(target: string): string {
  return target.split('/')[0] as string;
}

describe('src/ layout', () => {
  for (const subsystem of SUBSYSTEMS) {
    it(`${subsystem}/ imports only ${ALLOWED[subsystem]!.join(', ') || 'itself'}`, () => {
      const files = readdirSync(path.join(SRC, subsystem)).filter((f) => f.endsWith('.ts'));
      expect(files.length).toBeGreaterThan(0);
      const bad: string[] = [];
      for (const f of files) {
        const file = `${subsystem}/${f}`;
        for (const target of imports(file)) {
          const who = owner(target);
          if (who !== subsystem && !ALLOWED[subsystem]!.includes(who)) bad.push(`${file} -> ${target}`);
        }
      }
      expect(bad).toEqual([]);
    });
  }
  it('src/ holds only the subsystems and the entry points', () => {
    const entries = readdirSync(SRC).sort();
    expect(entries).toEqual([...SUBSYSTEMS, 'index.mjs', 'index.ts', 'wasm.mjs', 'wasm.ts'].sort());
  });
  it('the import scan sees imports (a core file importing pgn/ would be caught)', () => {
    expect(imports('core/position.ts')).toContain('core/native');
    expect(imports('cli/main.ts')).toEqual(expect.arrayContaining(['index']));
  });
});
