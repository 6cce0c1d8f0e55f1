// The examples of README.md and docs/*.md run as written: every ```js block is run against the
// built package (as `require('chess-native')`), and a line `EXPR; // => VALUE` must give VALUE.
// The `node -e` lines of ```sh blocks run too, and must print the `# output` line below them.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, api } from './helpers';

interface Block {
  file: string;
  line: number;
  lang: string;
  code: string;
}

const DOCS = [
  'README.md',
  ...readdirSync(path.join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

/** The fenced code blocks of a markdown file, with the line each starts on. */
function blocks(file: string): Block[] {
  const lines = readFileSync(path.join(ROOT, file), 'utf8').split('\n');
  const found: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\w*)/.exec(lines[i] as string);
    if (!open) continue;
    const end = lines.indexOf('```', i + 1);
    found.push({ file, line: i + 1, lang: open[1] as string, code: lines.slice(i + 1, end).join('\n') });
    i = end;
  }
  return found;
}

const CHECKED = /^(\s*)(.+?);\s*\/\/ => (.+?)(?: \(.*\))?$/;

/** Turns each `EXPR; // => VALUE` line into a comparison that throws when they differ. */
function withChecks(block: Block): string {
  return block.code
    .split('\n')
    .map((text, i) => {
      const m = CHECKED.exec(text);
      return m ? `${m[1]}__expect(${m[2]}, ${m[3]}, ${block.line + 1 + i});` : text;
    })
    .join('\n');
}

const nodeRequire = createRequire(import.meta.url);
const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as new (...args: string[]) => (...a: unknown[]) => Promise<void>;

async function run(block: Block): Promise<void> {
  const fail = (line: number, got: unknown, want: unknown): never => {
    throw new Error(
      `${block.file}:${line}: got ${String(got)} (${JSON.stringify(got, (_, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v))}), the example says ${String(want)}`,
    );
  };
  const check = (got: unknown, want: unknown, line: number): void => {
    if (!isDeepStrictEqual(got, want)) fail(line, got, want);
  };
  const requireDoc = (id: string): unknown =>
    id === 'chess-native'
      ? api
      : id === 'chess-native/chessjs'
        ? nodeRequire(path.join(ROOT, 'dist', 'chessjs', 'index.js'))
        : nodeRequire(id);
  await new AsyncFunction('require', '__expect', withChecks(block))(requireDoc, check);
}

let work = '';
const cwd = process.cwd();
beforeAll(() => {
  // Examples read and write files by relative names (games.pgn, journals): give them a folder,
  // and a node_modules in which `require('chess-native')` finds this package.
  work = mkdtempSync(path.join(tmpdir(), 'chess-native-docs-'));
  mkdirSync(path.join(work, 'node_modules'));
  symlinkSync(ROOT, path.join(work, 'node_modules', 'chess-native'), 'junction');
  writeFileSync(path.join(work, 'games.pgn'), '[Event "E"]\n[Result "*"]\n\n1. e4 e5 2. Nf3 *\n');
  process.chdir(work);
});
afterAll(() => {
  process.chdir(cwd);
  rmSync(work, { recursive: true, force: true });
});

for (const file of DOCS) {
  const all = blocks(file);
  const js = all.filter((b) => b.lang === 'js');
  const nodeLines = all
    .filter((b) => b.lang === 'sh')
    .flatMap((b) => {
      const lines = b.code.split('\n');
      return lines.flatMap((text, i) => {
        const m = /^node -e "(.*)"$/.exec(text);
        const out = /^# (.*)$/.exec(lines[i + 1] ?? '');
        return m ? [{ line: b.line + 1 + i, script: m[1] as string, output: out?.[1] }] : [];
      });
    });
  if (js.length + nodeLines.length === 0) continue;
  describe(file, () => {
    for (const block of js) {
      it(`runs the example on line ${block.line}`, async () => {
        await run(block);
      }, 60_000);
    }
    for (const { line, script, output } of nodeLines) {
      it(`runs the command on line ${line}`, () => {
        const printed = execFileSync(process.execPath, ['-e', script], { cwd: work, encoding: 'utf8' });
        if (output !== undefined) expect(printed.trim()).toBe(output);
      }, 60_000);
    }
  });
}

describe('the example checker', () => {
  it('fails an example whose stated value is wrong', async () => {
    const wrong = { file: 'x.md', line: 1, lang: 'js', code: "require('chess-native').START_FEN.length; // => 0" };
    await expect(run(wrong)).rejects.toThrow(/x\.md:2: got 56/);
  });
});
