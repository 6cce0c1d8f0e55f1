// ESM entry point of chess-native/chessjs: re-exports the CommonJS build, so
// `import` and `require` share one module instance (one Chess class).
// Types: dist/chessjs/index.d.ts serves both. test/esm-entry.test.ts fails
// when this list and the CommonJS exports differ.
import cjs from './index.js';

export const {
  Chess,
  Move,
  validateFen,
  xoroshiro128,
  WHITE,
  BLACK,
  PAWN,
  KNIGHT,
  BISHOP,
  ROOK,
  QUEEN,
  KING,
  DEFAULT_POSITION,
  SQUARES,
  SEVEN_TAG_ROSTER,
} = cjs;
