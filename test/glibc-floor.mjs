// The oldest glibc (and libstdc++) that the Linux glibc prebuilds load on.
//
//   node test/glibc-floor.mjs report|enforce [file.node ...]   (npm run check:glibc -- ...)
//
// A shared object loads only when the system libraries define every symbol
// version it references (its .gnu.version_r section), so the newest GLIBC_x.y
// there is the oldest glibc it runs on. The floors are package.json
// config.glibcFloor / config.glibcxxFloor (the README states them).
//
// Without files: every prebuilds/linux-*/*.node. A file tagged `.musl.` must
// reference no GLIBC version at all; any other Linux prebuild must reference
// one (else it is not a glibc build and its tag or build is wrong).
// `enforce` exits 1 when a file is above a floor; `report` prints the same and
// exits 0 (for a local build, which is not the release build). Both exit 1
// when there is nothing to read or readelf fails. Needs readelf (binutils).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { config } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const FLOORS = { GLIBC: config.glibcFloor, GLIBCXX: config.glibcxxFloor };

const [mode, ...args] = process.argv.slice(2);
if (mode !== 'report' && mode !== 'enforce') {
  console.error('usage: node test/glibc-floor.mjs report|enforce [file.node ...]');
  process.exit(2);
}

function compareVersions(a, b) {
  const x = a.split('.').map(Number);
  const y = b.split('.').map(Number);
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

function newest(versions) {
  return versions.length ? versions.reduce((a, b) => (compareVersions(a, b) >= 0 ? a : b)) : undefined;
}

function readelf(args) {
  return execFileSync('readelf', ['-W', ...args], { encoding: 'utf8', maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Versions each library family is required at, and the undefined symbols that need each. */
function requirements(file) {
  // `Name: GLIBC_2.34  Flags: none  Version: 5` lines of the version-needs section.
  const needed = { GLIBC: [], GLIBCXX: [], other: [] };
  const versionInfo = readelf(['-V', file]);
  const needs = versionInfo.slice(versionInfo.indexOf(".gnu.version_r'"));
  for (const m of needs.matchAll(/Name: (\S+)\s+Flags/g)) {
    const v = /^(GLIBC|GLIBCXX)_(\d+(?:\.\d+)+)$/.exec(m[1]);
    if (v) needed[v[1]].push(v[2]);
    else needed.other.push(m[1]); // GLIBC_PRIVATE, CXXABI_1.3.x, GCC_x.y
  }
  // `12: 0000000000000000 0 FUNC GLOBAL DEFAULT UND pthread_create@GLIBC_2.34 (5)`
  const symbols = new Map();
  for (const m of readelf(['--dyn-syms', file]).matchAll(/ UND (\S+?)@(GLIBC|GLIBCXX)_(\d+(?:\.\d+)+)/g)) {
    const key = `${m[2]}_${m[3]}`;
    symbols.set(key, [...(symbols.get(key) ?? []), m[1]]);
  }
  return { needed, symbols };
}

let files = args;
if (files.length === 0) {
  const prebuilds = path.join(ROOT, 'prebuilds');
  const dirs = existsSync(prebuilds) ? readdirSync(prebuilds).filter((d) => d.startsWith('linux-')) : [];
  files = dirs.flatMap((d) =>
    readdirSync(path.join(prebuilds, d))
      .filter((f) => f.endsWith('.node'))
      .map((f) => path.join(prebuilds, d, f)),
  );
}
if (files.length === 0) {
  console.error('glibc: no Linux prebuild to read (prebuilds/linux-*/*.node); run `npm run prebuild` first');
  process.exit(1);
}

let above = 0;
for (const file of files) {
  const name = path.relative(process.cwd(), file);
  let found;
  try {
    found = requirements(file);
  } catch (e) {
    console.error(`glibc: cannot read ${name} with readelf: ${e.message.split('\n')[0]}`);
    process.exit(1);
  }
  const { needed, symbols } = found;
  if (path.basename(file).split('.').includes('musl')) {
    if (needed.GLIBC.length || needed.GLIBCXX.length) {
      above++;
      console.log(`glibc: ${name} is tagged musl but references GLIBC/GLIBCXX versions: it is a glibc build`);
    } else {
      console.log(`glibc: ${name} (musl) references no glibc version: ok`);
    }
    continue;
  }
  if (needed.GLIBC.length === 0) {
    above++;
    console.log(`glibc: ${name} references no GLIBC version: not a glibc build (a musl build needs the .musl. tag)`);
    continue;
  }
  for (const family of ['GLIBC', 'GLIBCXX']) {
    const version = newest(needed[family]);
    if (version === undefined) {
      console.log(`glibc: ${name} needs no ${family} version`);
      continue;
    }
    const floor = FLOORS[family];
    const over = compareVersions(version, floor) > 0;
    const culprits = [...symbols]
      .filter(([v]) => v.startsWith(`${family}_`) && compareVersions(v.slice(family.length + 1), floor) > 0)
      .map(([v, names]) => `${v}: ${names.join(' ')}`);
    console.log(`glibc: ${name} needs ${family}_${version}, floor ${floor}: ${over ? `ABOVE the floor (${culprits.join('; ')})` : 'ok'}`);
    if (over) above++;
  }
  const privateVersions = needed.other.filter((v) => v.endsWith('_PRIVATE'));
  if (privateVersions.length) {
    above++;
    console.log(`glibc: ${name} references ${privateVersions.join(', ')}: private ABI, loads on one glibc build only`);
  }
}

if (above && mode === 'enforce') process.exit(1);
