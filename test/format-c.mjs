// clang-format over every tracked C and C++ file (style: .clang-format).
//   node test/format-c.mjs --check   fails on the first file that differs
//   node test/format-c.mjs --write   formats in place
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';

const mode = process.argv[2];
if (mode !== '--check' && mode !== '--write') {
  console.error('usage: node test/format-c.mjs --check|--write');
  process.exit(2);
}
const clangFormat = createRequire(import.meta.url)('clang-format-node').clangFormatPath;
const files = execFileSync('git', ['ls-files', '*.c', '*.h', '*.cc'], { encoding: 'utf8' }).split('\n').filter(Boolean);
const args = mode === '--check' ? ['--dry-run', '--Werror', '--style=file'] : ['-i', '--style=file'];
try {
  execFileSync(clangFormat, [...args, ...files], { stdio: 'inherit' });
} catch {
  console.error(`format-c: ${files.length} files checked; run \`npm run format\` to fix the ones above`);
  process.exit(1);
}
console.log(`format-c: ${files.length} C/C++ files ${mode === '--check' ? 'formatted as .clang-format says' : 'formatted'}`);
