// Install the package as users get it: `npm pack` (or a given .tgz), install
// the tarball into a fresh project with PREBUILDS_ONLY=1 and, on Linux and
// macOS, a PATH holding only node, npm and sh (no compiler, make or python),
// so a missing or unloadable prebuild fails instead of compiling.
//
//   node test/tarball.mjs [path/to/chess-native-x.y.z.tgz]   (npm run test:tarball)
//
// Run directly, it then runs test/smoke.mjs in that project and exits with its
// status. test/package.test.ts imports packAndInstall for its own checks.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TUPLE = `${process.platform}-${process.arch}`;

/** npm's JavaScript entry point, run with this Node (no npm/npm.cmd shim needed). */
export const NPM_CLI =
  process.env.npm_execpath && /npm-cli\.js$/.test(process.env.npm_execpath)
    ? process.env.npm_execpath
    : [
        path.join(path.dirname(process.execPath), '..', 'lib', 'node_modules', 'npm', 'bin', 'npm-cli.js'),
        path.join(path.dirname(process.execPath), 'node_modules', 'npm', 'bin', 'npm-cli.js'), // Windows layout
      ].find((p) => existsSync(p));

/** Runs npm with this Node; returns its stdout. */
export function npm(args, cwd, env = process.env) {
  if (!NPM_CLI) throw new Error('npm-cli.js not found next to this Node');
  return execFileSync(process.execPath, [NPM_CLI, ...args], { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** A directory holding node, npm and sh only: a PATH with no cc, gcc, g++, make or python. */
function bareBin(dir) {
  mkdirSync(dir);
  symlinkSync(process.execPath, path.join(dir, 'node'));
  symlinkSync('/bin/sh', path.join(dir, 'sh'));
  writeFileSync(path.join(dir, 'npm'), `#!/bin/sh\nexec "${process.execPath}" "${NPM_CLI}" "$@"\n`, { mode: 0o755 });
  return dir;
}

/**
 * Packs this repository (needs a prebuild for this platform in prebuilds/)
 * unless `tarball` is given, and installs the tarball into a new project.
 * The install script (node-gyp-build) runs, as it does for users.
 * @param {string} [tarball]
 */
export function packAndInstall(tarball) {
  const work = mkdtempSync(path.join(os.tmpdir(), 'chess-native-pack-'));
  if (tarball) {
    tarball = path.resolve(tarball);
  } else {
    const prebuilds = path.join(ROOT, 'prebuilds', TUPLE);
    if (!existsSync(prebuilds) || !readdirSync(prebuilds).some((f) => f.endsWith('.node'))) {
      throw new Error(`no prebuild in prebuilds/${TUPLE}: run \`npm run prebuild\` first`);
    }
    const packed = JSON.parse(npm(['pack', '--json', '--pack-destination', work], ROOT));
    tarball = path.join(work, packed[0].filename);
  }
  const project = path.join(work, 'consumer');
  mkdirSync(project);
  writeFileSync(
    path.join(project, 'package.json'),
    JSON.stringify({
      name: 'consumer',
      version: '1.0.0',
      private: true,
      // npm >= 11.x blocks dependency install scripts unless allowed; npm 10 ignores this field.
      allowScripts: { 'chess-native': true },
    }),
  );
  const noBuild = { PREBUILDS_ONLY: '1', npm_config_build_from_source: 'false' };
  // Windows: node-gyp finds Visual Studio without PATH, so no bare PATH there;
  // test/smoke.mjs proves that the prebuild loaded and that nothing was built.
  const env =
    process.platform === 'win32'
      ? { ...process.env, ...noBuild }
      : { HOME: process.env.HOME ?? os.homedir(), PATH: bareBin(path.join(work, 'bin')), ...noBuild };
  if (process.env.npm_config_cache) env.npm_config_cache = process.env.npm_config_cache;
  const installLog = npm(['install', '--no-audit', '--no-fund', '--prefer-offline', '--foreground-scripts', tarball], project, env);
  return { work, tarball, project, env, installLog, cleanup: () => rmSync(work, { recursive: true, force: true }) };
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const started = Date.now();
  const installed = packAndInstall(process.argv[2]);
  console.log(`tarball: ${path.basename(installed.tarball)} installed into ${installed.project}`);
  process.stdout.write(installed.installLog);
  const smoke = spawnSync(process.execPath, [path.join(ROOT, 'test', 'smoke.mjs')], {
    cwd: installed.project,
    env: installed.env,
    stdio: 'inherit',
  });
  installed.cleanup();
  console.log(`tarball: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  process.exit(smoke.status ?? 1);
}
