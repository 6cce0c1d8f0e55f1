// chess.js 1.4.0's API on the engine: `import { Chess } from 'chess-native/chessjs'`
// in place of `import { Chess } from 'chess.js'`.
export { Chess } from './chess';
export { Move } from './move';
export { validateFen } from './validate';
export { xoroshiro128 } from './random';
export {
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
  type Color,
  type PieceSymbol,
  type Square,
  type Piece,
} from './constants';
