// The wasm half of the backend matrix (npm run test:wasm, part of npm test):
// the suites that exercise the API, run again with CHESS_NATIVE_BACKEND=wasm
// so that every result, error class, code and limit is checked on the
// WebAssembly engine too. `CHESS_NATIVE_BACKEND=wasm vitest run --dir test`
// runs every suite on it.
//
// Left to the native pass, each for its reason:
//   backend.test.ts, wasm.test.ts  load both backends themselves, whatever the variable says
//   package.test.ts                packs and installs the tarball (and checks chess-native/wasm from it)
//   browser.test.ts                the browser benchmark page
//   cli.test.ts, pgn-cli.test.ts, units.test.ts, checkpoint-kill.test.ts
//                                  spawn the CLI (which uses the public API only) a process a
//                                  case: process start-up dominates
//   stress.test.ts                 the addon's memory over 100k cycles; a wasm perftAsync abort
//                                  ends its workers, so each cycle costs a worker start
//   layout.test.ts, tools.test.ts, esm-entry.test.ts, boundary.test.ts
//                                  sources, tooling, entry points and the tables of both builds
//   browser-api.test.ts, browser-bounds.test.ts, browser-perft-async.test.ts, demo.test.ts
//                                  the wasm engine in Chromium already, whatever Node loads
//   chessjs-facade.test.ts         the facade over Position: its engine calls are the ones
//                                  backend.test.ts compares call by call
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const API_SUITES = [
  'api',
  'binding',
  'checkpoint',
  'differential-chessjs',
  'differential-chessops',
  'docs-examples',
  'errors',
  'hostile',
  'immutability',
  'line',
  'perft-async',
  'pgn',
  'pgn-differential',
  'pgn-standard',
  'pgn-stream',
  'pgn-threads',
  'rules',
  'san',
  'split',
  'suites',
  'workers',
];

export default defineConfig({
  test: {
    root: fileURLToPath(new URL('..', import.meta.url)),
    include: API_SUITES.map((name) => `test/${name}.test.ts`),
    env: { CHESS_NATIVE_BACKEND: 'wasm' },
  },
});
