/**
 * chess-native: legal move generation and perft from a C11 engine.
 *
 * ```ts
 * import { Position } from 'chess-native';
 * new Position().perft(5); // 4865609
 * ```
 */
export * from './core/index';
export * from './perft/index';
export * from './pgn/index';
