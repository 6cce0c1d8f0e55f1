// dist/index.mjs re-exports the CommonJS build name by name (copied from src/index.mjs), so
// `import` and `require` share one module instance. These tests keep its list equal to the
// CommonJS exports, in a plain Node process: vitest's own loader would not show what users get.
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ROOT } from './helpers';

interface Entries {
  esm: string[];
  cjs: string[];
  shared: boolean;
}

function loadBoth(entry: string): Entries {
  const script = `
    import { createRequire } from 'node:module';
    const [, esmUrl, cjsFile] = process.argv;
    const esm = await import(esmUrl);
    const cjs = createRequire(esmUrl)(cjsFile);
    const names = Object.keys(esm).filter((name) => name !== 'default');
    const shared = (esm.default === undefined || esm.default === cjs) && names.every((name) => esm[name] === cjs[name]);
    console.log(JSON.stringify({ esm: names.sort(), cjs: Object.keys(cjs).sort(), shared }));
  `;
  const dist = path.join(ROOT, 'dist');
  const out = execFileSync(
    process.execPath,
    ['--input-type=module', '-e', script, pathToFileURL(path.join(dist, entry, 'index.mjs')).href, path.join(dist, entry, 'index.js')],
    { encoding: 'utf8' },
  );
  return JSON.parse(out) as Entries;
}

describe.each([
  ['chess-native', ''],
  ['chess-native/chessjs', 'chessjs'],
])('ESM entry point of %s', (_name, entry) => {
  const entries = loadBoth(entry);

  it('exports exactly the CommonJS runtime exports', () => {
    expect(entries.cjs.length).toBeGreaterThan(0);
    expect(entries.esm).toEqual(entries.cjs);
  });

  it('shares the CommonJS module instance', () => {
    expect(entries.shared).toBe(true);
  });
});
