// `npm test`'s pretest hook: after a plain `npm install` in a clone, build what
// the tests load if it is missing (dist/ from the TypeScript; a prebuild for
// this platform, which the tarball test packs). Never rebuilds what exists:
// `npm run build:all` / `npm run prebuild` do that (.ci/run runs both).
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const npmCli = process.env.npm_execpath;

function run(script) {
  console.log(`pretest: npm run ${script}`);
  if (npmCli) execFileSync(process.execPath, [npmCli, 'run', script], { cwd: root, stdio: 'inherit' });
  else execFileSync('npm', ['run', script], { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
}

if (!existsSync(path.join(root, 'dist', 'index.js')) || !existsSync(path.join(root, 'dist', 'index.mjs'))) run('build:ts');

const tuple = path.join(root, 'prebuilds', `${process.platform}-${process.arch}`);
if (!existsSync(tuple) || !readdirSync(tuple).some((f) => f.endsWith('.node'))) run('prebuild');
