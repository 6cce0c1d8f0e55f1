// chess-native/chessjs against the real chess.js 1.4.0, method by method: the
// same calls on both, on seeded random games (moves by SAN, by object, by
// permissive strings, null moves, undos), on positions edited with put /
// remove / clear (kingless, crowded, pawns on the edge ranks), on
// skipValidation loads, and on PGN text written, wrapped, commented and read
// back. Every result must be equal, or both calls must throw the same error
// class with the same message.
//
// Size: CHESS_NATIVE_CHESSJS_GAMES games (default 8; 5 times as many edit scenarios).
import * as J from 'chess.js';
import { afterEach, describe, expect, it } from 'vitest';
import { loopWithTurns, ROOT, rng } from './helpers';
import { generatePgn } from '../bench/pgn-corpus.mjs';
import * as path from 'node:path';
import { createRequire } from 'node:module';

const require_ = createRequire(import.meta.url);
const N = require_(path.join(ROOT, 'dist', 'chessjs', 'index.js')) as typeof import('../src/chessjs/index');

const GAMES = Number(process.env.CHESS_NATIVE_CHESSJS_GAMES ?? 8);
const SLOW = 300_000;
type Ours = InstanceType<typeof N.Chess>;
type Theirs = InstanceType<typeof J.Chess>;

/** How many comparisons each method got. */
const counts: Record<string, number> = {};

/** The outcome of a call: its value as plain data, or the error's class and message. */
function outcome(f: () => unknown): unknown {
  try {
    return { value: plain(f()) };
  } catch (e) {
    const err = e as Error;
    return { error: err.name, message: err.message };
  }
}

/** A value as JSON-like data; a Move's is*() answers are part of it. */
function plain(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(plain);
  if (v !== null && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v)) out[k] = plain((v as Record<string, unknown>)[k]);
    const m = v as { isCapture?: () => boolean } & Record<string, () => boolean>;
    if (typeof m.isCapture === 'function') {
      for (const name of ['isCapture', 'isPromotion', 'isEnPassant', 'isKingsideCastle', 'isQueensideCastle', 'isBigPawn'])
        out[name] = m[name]!();
      out['#keys'] = Object.keys(v).join(',');
    }
    return out;
  }
  return v;
}

/**
 * chess.js crashed inside (a TypeError from its own code, such as castling
 * with a king it no longer tracks after edits) or broke its own state: the
 * scenario ends there. Counted in the report.
 */
class ChessJsCrashed extends Error {}
let crashes = 0;

/** Runs a scenario; one ended by a chess.js crash counts as such. A failure names `name`. */
function scenario(name: string, run: () => void): void {
  try {
    run();
  } catch (e) {
    if (!(e instanceof ChessJsCrashed)) {
      if (e instanceof Error) e.message = `${name}: ${e.message}`;
      throw e;
    }
    crashes++;
  }
}

/** The methods that change the position (the others are queries, which must not). */
const EDITS = new Set(['move', 'undo', 'put', 'remove', 'clear', 'load', 'reset', 'loadPgn', 'setTurn', 'setCastlingRights']);

/** Calls `method` with `args` on both and expects the same outcome. */
const REPETITION_QUERIES = new Set(['isDraw', 'isThreefoldRepetition', 'isGameOver']);

function same(ours: Ours, theirs: Theirs, method: string, ...args: unknown[]): unknown {
  const a = outcome(() => (ours as unknown as Record<string, (...x: unknown[]) => unknown>)[method]!(...args));
  const query = !EDITS.has(method);
  const fenBefore = query ? theirs.fen() : '';
  const b = outcome(() => (theirs as unknown as Record<string, (...x: unknown[]) => unknown>)[method]!(...args));
  // A query of chess.js can leave its board changed in edited positions (a
  // move it tries and takes back does not restore the board: its perft, or
  // listing a castling of the man that took a king, whose undo puts a king
  // there): its answer is then not one to agree with, and its state is
  // broken from then on.
  if (query && theirs.fen() !== fenBefore) throw new ChessJsCrashed(`${method} changed the position: ${fenBefore} -> ${theirs.fen()}`);
  // chess.js counts repetitions by its hash, which drifts after a null move
  // (docs/chessjs.md: here they are counted by the position); from there on
  // its draw verdicts are not the position's.
  if (REPETITION_QUERIES.has(method) && JSON.stringify(a) !== JSON.stringify(b) && theirs.history().includes('--'))
    throw new ChessJsCrashed(`${method} after a null move: chess.js counts its drifted hash`);
  const error = (b as { error?: string; message: string }).error;
  if (error === 'TypeError' && (a as { error?: string }).error !== 'TypeError')
    throw new ChessJsCrashed((b as { message: string }).message);
  counts[method] = (counts[method] ?? 0) + 1;
  expect(a, `${method}(${JSON.stringify(args)}) at ${theirs.fen()}`).toEqual(b);
  return b;
}

const SQUARES = J.SQUARES;

function pick<T>(random: () => number, list: readonly T[]): T {
  return list[Math.floor(random() * list.length)] as T;
}

/** Every query method, compared. */
function compareQueries(a: Ours, b: Theirs, random: () => number, deep: boolean): void {
  for (const m of [
    'fen',
    'turn',
    'moveNumber',
    'inCheck',
    'isCheck',
    'isCheckmate',
    'isStalemate',
    'isDraw',
    'isInsufficientMaterial',
    'isThreefoldRepetition',
    'isDrawByFiftyMoves',
    'isGameOver',
    'hash',
    'moves',
    'getHeaders',
  ]) {
    same(a, b, m);
  }
  same(a, b, 'fen', { forceEnpassantSquare: true });
  same(a, b, 'getCastlingRights', 'w');
  same(a, b, 'getCastlingRights', 'b');
  const square = pick(random, SQUARES);
  same(a, b, 'get', square);
  same(a, b, 'squareColor', square);
  same(a, b, 'attackers', square);
  same(a, b, 'attackers', square, pick(random, ['w', 'b'] as const));
  same(a, b, 'isAttacked', square, pick(random, ['w', 'b'] as const));
  same(a, b, 'moves', { square: pick(random, SQUARES) });
  same(a, b, 'moves', { piece: pick(random, ['p', 'n', 'b', 'r', 'q', 'k'] as const) });
  same(a, b, 'findPiece', { type: pick(random, ['p', 'n', 'b', 'r', 'q', 'k'] as const), color: pick(random, ['w', 'b'] as const) });
  if (deep) {
    same(a, b, 'moves', { verbose: true });
    same(a, b, 'moves', { verbose: true, square: pick(random, SQUARES), piece: pick(random, ['p', 'n', 'k'] as const) });
    same(a, b, 'board');
    same(a, b, 'ascii');
    same(a, b, 'history');
    same(a, b, 'history', { verbose: true });
    same(a, b, 'perft', 1);
    same(a, b, 'getComments');
  }
}

/** Spellings of a legal move that chess.js's readers may or may not take. */
function spellings(m: J.Move): string[] {
  const base = m.san.replace(/[+#]$/, '');
  const piece = m.piece === 'p' ? '' : m.piece.toUpperCase();
  return [
    m.san,
    m.lan,
    base,
    base + '!?',
    m.san.replace('x', ''),
    `${piece}${m.from}-${m.to}${m.promotion ?? ''}`,
    `${piece || 'P'}${m.from}${m.to}`,
    `${piece}${m.from[0]}${m.san.replace(/^[NBRQK]?[a-h]?[1-8]?/, '')}`,
    `${piece}${m.from[1]}${m.to}`,
    m.san.replace('O-O', '0-0'),
    m.san.replace('=', ''),
    m.san.replace(/=([QRBN])/, (_, p: string) => p.toLowerCase()),
    m.from + m.to,
    m.san + ' e.p.',
    'x' + m.to,
    m.from + 'x' + m.to,
    m.san.toLowerCase(),
    m.lan.toUpperCase(),
    `${piece}${m.from}x${m.to}`,
  ];
}

function playRandomGame(seed: number): void {
  const random = rng(seed);
  const a = new N.Chess();
  const b = new J.Chess();
  if (seed % 5 === 0) {
    same(a, b, 'setHeader', 'White', `Player ${seed}`);
    same(a, b, 'setComment', 'the start {of} it');
  }
  for (let ply = 0; ply < 160; ply++) {
    compareQueries(a, b, random, ply % 8 === 0);
    const legal = b.moves({ verbose: true });
    if (legal.length === 0 || b.isGameOver()) break;
    const m = pick(random, legal);
    const r = random();
    if (r < 0.06) {
      for (const text of spellings(m)) {
        const copyA = new N.Chess(a.fen());
        const copyB = new J.Chess(b.fen());
        same(copyA, copyB, 'move', text);
        same(new N.Chess(a.fen()), new J.Chess(b.fen()), 'move', text, { strict: true });
      }
      same(new N.Chess(a.fen()), new J.Chess(b.fen()), 'move', { from: m.from, to: m.to });
    }
    if (r < 0.4) same(a, b, 'move', m.san);
    else if (r < 0.6) same(a, b, 'move', { from: m.from, to: m.to, promotion: m.promotion });
    else if (r < 0.7) same(a, b, 'move', m.lan);
    else if (r < 0.75) same(a, b, 'move', { from: m.from, to: m.to, promotion: 'q' });
    else if (r < 0.78 && !b.inCheck()) same(a, b, 'setTurn', b.turn() === 'w' ? 'b' : 'w');
    else same(a, b, 'move', m.san, { strict: true });
    if (random() < 0.1) same(a, b, 'setComment', `c${ply} ${'word '.repeat(Math.floor(random() * 5))}{x}`);
    if (random() < 0.08) {
      same(a, b, 'undo');
      if (random() < 0.5) same(a, b, 'undo');
    }
    if (random() < 0.03) same(a, b, 'removeComment');
  }
  for (const options of [
    undefined,
    { maxWidth: 40 },
    { maxWidth: 72, newline: '\r\n' },
    { newline: '<br />', maxWidth: 15 },
    { maxWidth: 5 },
  ]) {
    same(a, b, 'pgn', options);
  }
  same(a, b, 'getComments');
  same(a, b, 'history', { verbose: true });
  const text = b.pgn();
  const c = new N.Chess();
  const d = new J.Chess();
  same(c, d, 'loadPgn', text);
  compareQueries(c, d, random, true);
  same(c, d, 'pgn');
  same(c, d, 'loadPgn', b.pgn({ maxWidth: 30, newline: '\r\n' }), { newlineChar: '\r\n' });
  same(c, d, 'pgn');
  same(c, d, 'loadPgn', text, { strict: true });
  same(c, d, 'pgn', { maxWidth: 50 });
  same(c, d, 'removeComments');
  same(c, d, 'getComments');
  while (d.history().length > 0) same(c, d, 'undo');
  same(c, d, 'undo');
  compareQueries(c, d, random, true);
}

const PIECES = ['p', 'n', 'b', 'r', 'q', 'k'] as const;

/**
 * Random put / remove / clear edits from random game positions (loaded as
 * FEN: chess.js replays earlier moves on an edited board, which this facade
 * does not copy), then play on.
 */
function editRandomPositions(seed: number): void {
  const random = rng(seed);
  const game = new J.Chess();
  for (let ply = 0; ply < Math.floor(random() * 40); ply++) {
    const legal = game.moves();
    if (legal.length === 0) break;
    game.move(pick(random, legal));
  }
  const a = new N.Chess(game.fen());
  const b = new J.Chess(game.fen());
  if (random() < 0.2) same(a, b, 'clear');
  // Edits after moves (castling rights included): chess.js's later answers
  // about those moves replay them on the edited position (see the top), so
  // they are compared until the first one.
  let moved = false;
  let editedAfterMoves = false;
  for (let step = 0; step < 40; step++) {
    const r = random();
    const square = pick(random, SQUARES);
    if (r < 0.65) editedAfterMoves ||= moved;
    const type = pick(random, PIECES);
    // A pawn pushed from its last rank walks off chess.js's board (moves to
    // squares that do not exist); such pawns are not put here.
    const edgePawn = type === 'p' && /[18]$/.test(square);
    if (r < 0.35 && !edgePawn) same(a, b, 'put', { type, color: pick(random, ['w', 'b'] as const) }, square);
    else if (r < 0.35) continue;
    else if (r < 0.6) same(a, b, 'remove', square);
    else if (r < 0.65) same(a, b, 'setCastlingRights', pick(random, ['w', 'b'] as const), { k: random() < 0.5, q: random() < 0.5 });
    else {
      const legal = b.moves();
      if (legal.length > 0) {
        same(a, b, 'move', pick(random, legal));
        moved = true;
      } else if (editedAfterMoves) break;
      else same(a, b, 'undo');
    }
    compareQueries(a, b, random, step % 5 === 0 && !editedAfterMoves);
    if (step % 5 === 0) {
      same(a, b, 'moves', { verbose: true });
      same(a, b, 'board');
      same(a, b, 'perft', 2);
    }
  }
  if (!editedAfterMoves) same(a, b, 'pgn');
}

const NAMES = J.SQUARES.slice().sort((x, y) => (x[1] === y[1] ? x.charCodeAt(0) - y.charCodeAt(0) : x.charCodeAt(1) - y.charCodeAt(1)));

/** The FEN of a board of letters ('' empty) by square (a1 = 0), and the other fields. */
function fenOf(board: string[], rest: string): string {
  const ranks: string[] = [];
  for (let rank = 7; rank >= 0; rank--) {
    let text = '';
    let empty = 0;
    for (let file = 0; file < 8; file++) {
      const letter = board[rank * 8 + file] as string;
      if (letter === '') empty++;
      else {
        text += (empty || '') + letter;
        empty = 0;
      }
    }
    ranks.push(text + (empty || ''));
  }
  return `${ranks.join('/')} ${rest}`;
}

/**
 * A random position chess.js loads with skipValidation and the engine's
 * strict model refuses, mostly: no king or a king off its square, crowds
 * of men (queens above all), castling rights whose king or rook is not
 * there, the side not to move in check, en-passant squares with or without
 * a pawn to take. No pawn on a first or last rank (chess.js pushes one off
 * its board) and no en-passant square whose victim is not an enemy pawn
 * (chess.js's undo of that capture puts back a pawn that was not there).
 */
function randomLooseFen(random: () => number): string {
  const board = new Array<string>(64).fill('');
  const crowded = random() < 0.35;
  const men = crowded ? 20 + Math.floor(random() * 30) : Math.floor(random() * 14);
  const types = (crowded && random() < 0.5 ? 'qqqqqnbrp' : 'pnbrqp').split('');
  for (let i = 0; i < men; i++) {
    const square = Math.floor(random() * 64);
    const type = pick(random, types);
    if (type === 'p' && (square < 8 || square >= 56)) continue;
    board[square] = random() < 0.5 ? type.toUpperCase() : type;
  }
  const turn = random() < 0.5 ? 'w' : 'b';
  const kings: number[] = [];
  for (const [king, home] of [
    ['K', 4],
    ['k', 60],
  ] as const) {
    const r = random();
    kings.push(r < 0.3 ? -1 : r < 0.7 ? home : Math.floor(random() * 64));
    if (r >= 0.3) board[kings[kings.length - 1] as number] = king;
  }
  // A right whose castling would take the king off the board (no king, or
  // one on the g- or h-file, or the a- or b-file queenside): chess.js then
  // moves it from or to squares that do not exist; not given here.
  let castling = '';
  for (const [right, corner, rook, side] of [
    ['K', 7, 'R', 0],
    ['Q', 0, 'R', 0],
    ['k', 63, 'r', 1],
    ['q', 56, 'r', 1],
  ] as const) {
    const king = kings[side] as number;
    if (random() < 0.5 || king < 0 || (right.toLowerCase() === 'k' ? (king & 7) > 5 : (king & 7) < 2)) continue;
    castling += right;
    if (random() < 0.6 && board[corner] !== 'K' && board[corner] !== 'k') board[corner] = rook;
  }
  let ep = '-';
  if (random() < 0.3) {
    const file = Math.floor(random() * 8);
    const square = turn === 'w' ? 40 + file : 16 + file;
    const victim = turn === 'w' ? square - 8 : square + 8;
    board[square] = '';
    board[victim] = turn === 'w' ? 'p' : 'P';
    const beside = victim + (file === 0 || (file < 7 && random() < 0.5) ? 1 : -1);
    if (random() < 0.7) board[beside] = turn === 'w' ? 'P' : 'p';
    ep = NAMES[square] as string;
  }
  return fenOf(board, `${turn} ${castling || '-'} ${ep} ${Math.floor(random() * 60)} ${1 + Math.floor(random() * 80)}`);
}

/**
 * Ends the scenario as a chess.js crash unless chess.js's perft(2) is the
 * count of its own moves() and their replies: in some loose positions its
 * perft plays a castling of a king or rook that is not there, whose undo
 * does not restore its state, and counts on from the broken board.
 */
function chessJsPerftIsItsOwn(b: Theirs): void {
  const fen = b.fen();
  let replies = 0;
  try {
    for (const m of b.moves({ verbose: true })) {
      b.move(m);
      replies += b.moves().length;
      b.undo();
    }
  } catch (e) {
    throw new ChessJsCrashed(`listing the replies of its moves: ${(e as Error).message}`);
  }
  const perft = b.perft(2);
  if (b.fen() !== fen || perft !== replies) throw new ChessJsCrashed(`perft(2) ${perft} is not its moves' ${replies} replies`);
}

/** Plays a random loose position on both from a skipValidation load: moves, undos, null moves, queries. */
function playLoosePosition(seed: number): void {
  const random = rng(seed);
  const fen = randomLooseFen(random);
  const a = new N.Chess(fen, { skipValidation: true });
  const b = new J.Chess(fen, { skipValidation: true });
  scenario(`loose position ${seed} (${fen})`, () => {
    compareQueries(a, b, random, true);
    if (b.board().flat().filter(Boolean).length < 30) {
      chessJsPerftIsItsOwn(b);
      same(a, b, 'perft', 2);
    }
    for (let ply = 0; ply < 14; ply++) {
      const legal = b.moves({ verbose: true });
      if (legal.length === 0) break;
      const m = pick(random, legal);
      const r = random();
      if (r < 0.45) same(a, b, 'move', m.san);
      else if (r < 0.75) same(a, b, 'move', { from: m.from, to: m.to, promotion: m.promotion });
      else if (r < 0.9) same(a, b, 'move', m.lan);
      else if (!b.inCheck()) same(a, b, 'move', null);
      compareQueries(a, b, random, ply % 4 === 0);
      if (random() < 0.15) same(a, b, 'undo');
    }
    same(a, b, 'history', { verbose: true });
    // history() on both: each call replays chess.js's null moves, which drifts its hash.
    while ((same(a, b, 'history') as { value: string[] }).value.length > 0) same(a, b, 'undo');
    compareQueries(a, b, random, true);
  });
}

/** Sets up a board from empty with put / remove (kings or not, crowds), then plays on. */
function buildFromEmpty(seed: number): void {
  const random = rng(seed);
  const a = new N.Chess();
  const b = new J.Chess();
  same(a, b, 'clear');
  scenario(`board built from empty ${seed}`, () => {
    const steps = 10 + Math.floor(random() * 50);
    for (let step = 0; step < steps; step++) {
      const square = pick(random, SQUARES);
      const type = random() < 0.3 ? 'q' : pick(random, PIECES);
      if (random() < 0.8) {
        if (type === 'p' && /[18]$/.test(square)) continue;
        same(a, b, 'put', { type, color: pick(random, ['w', 'b'] as const) }, square);
      } else same(a, b, 'remove', square);
      if (step % 4 === 0) compareQueries(a, b, random, step % 8 === 0);
    }
    if (random() < 0.5) same(a, b, 'setTurn', 'b');
    compareQueries(a, b, random, true);
    for (let ply = 0; ply < 10; ply++) {
      const legal = b.moves();
      if (legal.length === 0) break;
      same(a, b, 'move', pick(random, legal));
      compareQueries(a, b, random, ply % 3 === 0);
    }
  });
}

describe('chess-native/chessjs against chess.js 1.4.0', () => {
  // The tests are synchronous: without a turn of the event loop between
  // them, vitest's worker answers none of its runner's messages for the
  // whole file and its calls time out.
  afterEach(() => new Promise<void>((resolve) => setImmediate(resolve)));

  it('exports the same names', () => {
    const names = (m: object): string[] =>
      Object.keys(m)
        .filter((k) => k !== 'default' && k !== '__esModule')
        .sort();
    expect(names(N)).toEqual(names(J));
    expect(N.SQUARES).toEqual(J.SQUARES);
    expect(N.SEVEN_TAG_ROSTER).toEqual(J.SEVEN_TAG_ROSTER);
    expect(N.DEFAULT_POSITION).toBe(J.DEFAULT_POSITION);
    expect([N.WHITE, N.BLACK, N.PAWN, N.KNIGHT, N.BISHOP, N.ROOK, N.QUEEN, N.KING]).toEqual([
      J.WHITE,
      J.BLACK,
      J.PAWN,
      J.KNIGHT,
      J.BISHOP,
      J.ROOK,
      J.QUEEN,
      J.KING,
    ]);
    const x = N.xoroshiro128(0x1234n);
    const y = J.xoroshiro128(0x1234n);
    for (let i = 0; i < 5; i++) expect(x()).toBe(y());
    const methods = (c: object): string[] =>
      Object.getOwnPropertyNames(Object.getPrototypeOf(c))
        .filter((k) => !k.startsWith('_'))
        .sort();
    expect(methods(new N.Chess())).toEqual(methods(new J.Chess()));
    expect(methods(new N.Chess().move('e4'))).toEqual(methods(new J.Chess().move('e4')));
  });

  it(`plays ${GAMES} random games alike`, () => loopWithTurns(0, GAMES, (g) => playRandomGame(1000 + g)), SLOW);

  it(
    `edits ${GAMES * 5} random positions alike (put, remove, clear, castling rights)`,
    () => {
      const first = Number(process.env.CHESS_NATIVE_CHESSJS_FIRST ?? 0);
      return loopWithTurns(first, first + GAMES * 5, (g) => scenario(`edit scenario ${5000 + g}`, () => editRandomPositions(5000 + g)));
    },
    SLOW,
  );

  it('keeps an en-passant square no pawn can just have passed, as chess.js does: in fen(), moves() and after a move', () => {
    // The square a pawn would have come from is taken (a king, a pawn) or the clocks say no pawn just moved.
    const cases: [string, { skipValidation: boolean } | undefined][] = [
      ['3R4/6k1/8/2p2Pp1/8/8/8/4K2R w K g6 37 57', { skipValidation: true }],
      ['8/2B5/1R3P2/2k2PP1/6Pp/8/2r3P1/N3K2R b K g3 50 45', { skipValidation: true }],
      ['r3k2r/8/7b/8/5Pp1/8/5PN1/R3K3 b Qkq f3 41 5', { skipValidation: true }],
      ['6k1/6p1/8/2p2Pp1/8/8/8/4K3 w - g6 0 1', undefined],
    ];
    for (const [fen, options] of cases) {
      const a = new N.Chess(fen, options);
      const b = new J.Chess(fen, options);
      expect(a.fen(), fen).toBe(b.fen());
      expect(a.moves(), fen).toEqual(b.moves());
      const capture = b.moves({ verbose: true }).find((m) => m.isEnPassant());
      expect(capture, fen).toBeDefined();
      expect(a.move(capture!.san).san).toBe(b.move(capture!.san).san);
      expect(a.fen(), fen).toBe(b.fen());
    }
  });

  it(
    'validates FENs and loads with skipValidation alike',
    () => {
      const fens = [
        'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1',
        'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -',
        'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w',
        'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR',
        'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0',
        'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -1 1',
        'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e4 0 1',
        'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkx - 0 1',
        'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1',
        'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1',
        'rnbqkbnr/pppppppp/44/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1',
        'rnbqkbnr/pppppppp/7X/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1',
        'rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1',
        'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1',
        'rnbqqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1',
        'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQQBNR w KQkq - 0 1',
        'rnbkkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1',
        'rnbqkbnP/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1',
        '4k3/8/8/8/8/8/8/4K3 w KQkq - 0 1',
        '4k3/8/8/8/8/8/8/R3K2R w KQkq - 5 20',
        '4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1',
        '4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1',
        '4k3/8/8/8/8/8/8/4K3 w - d6 0 1',
        'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR   w  KQkq - 0 1',
        '',
        '8/8/8/8/8/8/8/8 w - - 0 1',
        'Q3k3/8/8/8/8/8/8/4K3 w - - 0 1',
        '4k3/8/8/8/8/8/8/4K2Q w - - 0 1',
        'qqqqkqqq/qqqqqqqq/8/8/8/8/QQQQQQQQ/QQQQKQQQ w - - 0 1',
        // 288 moves, more than 256.
        'QQQQQQQB/Q6Q/Q6Q/Q6Q/Q6Q/Q6Q/Q6Q/BQQQQQQQ w - - 0 1',
        'P3k3/8/8/8/8/8/8/4K2p w - - 0 1',
        '8/8/8/8/8/8/8/R3K2R w KQ - 0 1',
        'r3k2r/8/8/8/8/8/8/8 b kq - 0 1',
      ];
      for (const fen of fens) {
        expect(N.validateFen(fen), fen).toEqual(J.validateFen(fen));
        const a = outcome(() => void new N.Chess(fen));
        const b = outcome(() => void new J.Chess(fen));
        expect(a, fen).toEqual(b);
        const random = rng(fen.length);
        const ours = outcome(() => new N.Chess(fen, { skipValidation: true }));
        const theirs = outcome(() => new J.Chess(fen, { skipValidation: true }));
        expect((ours as { error?: string }).error, fen).toEqual((theirs as { error?: string }).error);
        // An en-passant square behind the side to move: chess.js's capture
        // there takes the capturer's own pawn; nothing to agree with.
        if ('error' in (theirs as object) || fen.includes(' w KQkq e3')) continue;
        const c = new N.Chess(fen, { skipValidation: true });
        const d = new J.Chess(fen, { skipValidation: true });
        scenario(fen, () => {
          compareQueries(c, d, random, true);
          for (let ply = 0; ply < 6; ply++) {
            const legal = d.moves();
            if (legal.length === 0) break;
            same(c, d, 'move', pick(random, legal));
            compareQueries(c, d, random, true);
          }
          same(c, d, 'load', fen, { preserveHeaders: true, skipValidation: true });
          same(c, d, 'getHeaders');
          same(c, d, 'reset');
          same(c, d, 'getHeaders');
        });
      }
    },
    SLOW,
  );

  it('validates mangled FENs as chess.js does: its verdict and message, and what load() throws', () => {
    const random = rng(20261205);
    const bases = [
      J.DEFAULT_POSITION,
      'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1',
      '8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1',
    ];
    const alphabet = [
      'K',
      'k',
      'Q',
      'p',
      'P',
      'x',
      '1',
      '2',
      '8',
      '9',
      '/',
      ' ',
      '  ',
      '-',
      'w',
      'b',
      'e3',
      'd6',
      '\u00e9',
      '\ud83d\ude00',
      '\t',
    ];
    let checked = 0;
    for (let i = 0; i < 3000; i++) {
      const chars = [...(bases[i % bases.length] as string)];
      for (let edits = 1 + Math.floor(random() * 3); edits > 0; edits--) {
        const at = Math.floor(random() * (chars.length + 1));
        chars.splice(at, Math.floor(random() * 2), alphabet[Math.floor(random() * alphabet.length)] as string);
      }
      const fen = chars.join('');
      expect(N.validateFen(fen), fen).toEqual(J.validateFen(fen));
      expect(
        outcome(() => new N.Chess(fen).fen()),
        fen,
      ).toEqual(outcome(() => new J.Chess(fen).fen()));
      checked++;
    }
    expect(checked).toBe(3000);
  });

  it(
    'throws alike for bad moves and null moves in check',
    () => {
      const a = new N.Chess();
      const b = new J.Chess();
      for (const move of [
        'e5',
        'Ke2',
        'xyz',
        '',
        'e2e5',
        { from: 'e2', to: 'e5' },
        { from: 'e7', to: 'e5' },
        5,
        undefined,
        { from: 'z9', to: 'e4' },
      ]) {
        same(a, b, 'move', move);
      }
      same(a, b, 'move', null);
      same(a, b, 'move', '--');
      same(a, b, 'move', 'e5');
      for (const m of ['Qh4', 'Qxf2']) same(a, b, 'move', m);
      const c = new N.Chess('4k3/8/8/8/8/8/8/4KR2 b - - 0 1');
      const d = new J.Chess('4k3/8/8/8/8/8/4r3/4K3 w - - 0 1');
      const c2 = new N.Chess('4k3/8/8/8/8/8/4r3/4K3 w - - 0 1');
      same(c2, d, 'move', null);
      same(c2, d, 'setTurn', 'b');
      same(c2, d, 'setTurn', 'w');
      expect(c.turn()).toBe('b');
    },
    SLOW,
  );

  it(
    'reads hand-written PGN alike, strict and permissive',
    () => {
      const texts = [
        '1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *',
        '[Event "Casual"]\n[White "A"]\n[Black "B"]\n[Result "1-0"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0',
        '[Event "x"]\n\n{Opening comment} 1. e4 {best by test} e5 (1... c5 {Sicilian} 2. Nf3) 2. Nf3 $1 Nc6!? 3. Bb5 ; Ruy\n a6 1/2-1/2',
        '1. e4 e5 2. *',
        '1. e4 {a} {b}',
        '[Event "x"] 1. e4 (1. d4',
        '1. e4 e5 2.',
        'garbage!',
        '1. e4 e.p.',
        '1. e4 e5 0-1 {end}',
        '{start} 1. e4 *',
        '{only a comment}',
        '',
        '*',
        '[FEN "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1"]\n\n1. O-O Kd7 2. Rad1+ *',
        '[fen "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1"]\n\n1. 0-0 Kd7 *',
        '[SetUp "1"]\n[FEN "4k3/8/8/8/8/8/8/R3K2R b KQ - 0 1"]\n\n1... Kd7 2. O-O-O+ *',
        '[SetUp "1"]\n\n1. e4 *',
        '[SetUp "1"]\n[FEN "bad fen"]\n\n1. e4 *',
        '1. e2e4 e7e5 2. Ng1f3 Nb8c6 3. Pd2-d4 exd4 *',
        '1. e4 d5 2. exd5 Qxd5 3. Nc3 Qa5 4. Nge2 *',
        '1. e4 e5 2. Nf3 Nxc6 *',
        '1.e4 e5 2.Nf3 Nc6 3...a6 *',
        '1. e4 e5\r\n2. Nf3 Nc6\r\n*',
        '[Event "a \\"quoted\\" name"]\n1. e4 *',
        '[Event "x"][Site "y"] 1. e4 e5 { multi\nline\ncomment } 2. d4 *',
        '1. e4!! e5?? 2. Nf3!? Nc6?! 3. Bc4 $14 $20 *',
        '1. f3 e5 2. g4 Qh4# 0-1',
        '1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O 9. h3 Nb8 10. d4 Nbd7 *',
        '[Result "1-0"]\n\n1. e4 *',
        '1. e4 e5 2. Ke2 Ke7 3. Ke1 Ke8 4. Ke2 Ke7 5. Ke1 Ke8 *',
        '1. e4 e5 2. Nf3 Nc6 3. Bb5 {This opening is called the Ruy Lopez.} 3... a6 *',
        '1. e4 (1. d4 d5 (1... Nf6 2. c4) 2. c4) e5 *',
        '1. e4 e5 1/2-1/2',
        '  \n\n[ Event  "spaced" ]\n\n 1. e4 e5   \n\n',
        '\ufeff1. e4 *',
        '1.e4 1...e5 2. ... Nf3 *',
        '1. e4 ; comment to the end\n1... e5 *',
        '1. e4 $1 $2 {after nags} e5 *',
        '1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7#',
        '1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7 1-0',
        '[White "a"]\n[White "b"]\n\n1. e4 *',
        '[SetUp "1"]\n[FEN "8/P7/8/8/8/8/8/k1K5 w - - 0 1"]\n\n1. a8=Q+ Kb2 2. Qb7+ *',
        '[FEN "8/P7/8/8/8/8/8/k1K5 w - - 0 1"]\n\n1. a8Q+ Kb2 2. Qb7+ *',
        '1. e4 e5 2. Nf3 Nf6 3. Nxe5 Nxe4 4. Nxf7 Kxf7 5. Qh5+ *',
        '1. O-O *',
        '1. e4 e6 2. e5 d5 3. exd6 *',
        '1. e4 e6 2. e5 d5 3. exd6 e.p. *',
      ];
      for (const text of texts) {
        for (const options of [undefined, { strict: true }]) {
          const a = new N.Chess();
          const b = new J.Chess();
          same(a, b, 'loadPgn', text, options);
          for (const m of ['fen', 'pgn', 'getHeaders', 'header', 'getComments', 'history', 'isThreefoldRepetition']) same(a, b, m);
          same(a, b, 'pgn', { maxWidth: 20 });
          same(a, b, 'history', { verbose: true });
        }
      }
      const a = new N.Chess();
      const b = new J.Chess();
      same(a, b, 'loadPgn', '1. e4 e5|2. Nf3 *', { newlineChar: '\\|' });
      same(a, b, 'pgn');
    },
    SLOW,
  );

  it(
    'reads generated PGN files alike (comments, NAGs, variations, promotions)',
    () => {
      for (const options of [
        { seed: 21, variations: true, comments: true },
        { seed: 22, variations: false, comments: false },
        { seed: 23, variations: true, comments: false },
      ]) {
        const games = generatePgn({ games: GAMES, ...options }).split(/\n(?=\[Event )/);
        for (const text of games) {
          for (const strict of [false, true]) {
            const a = new N.Chess();
            const b = new J.Chess();
            same(a, b, 'loadPgn', text, { strict });
            for (const m of ['fen', 'pgn', 'getHeaders', 'getComments', 'history', 'isGameOver']) same(a, b, m);
            same(a, b, 'pgn', { maxWidth: 60 });
          }
        }
      }
    },
    SLOW,
  );

  it(
    'reads random and mangled move strings alike, strict and permissive',
    () => {
      const fens = [
        'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1',
        'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1',
        'n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1',
        'rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3',
        '6k1/8/8/B7/8/8/8/BN4K1 w - - 0 1',
      ];
      const alphabet = 'NBRQKPnbrqkpabcdefgh12345678x-=+#O0 !?.';
      const random = rng(77);
      const letter = (): string => alphabet[Math.floor(random() * alphabet.length)] as string;
      for (const fen of fens) {
        const legal = new J.Chess(fen).moves({ verbose: true });
        for (let i = 0; i < GAMES * 40; i++) {
          let text = '';
          if (random() < 0.5) {
            const m = pick(random, legal);
            const chars = pick(random, [m.san, m.lan, `${m.from}-${m.to}`, m.piece.toUpperCase() + m.lan]).split('');
            for (let k = Math.floor(random() * 3); k > 0; k--) {
              const at = Math.floor(random() * (chars.length + 1));
              const op = random();
              if (op < 0.4) chars.splice(at, 0, letter());
              else if (op < 0.7) chars.splice(at, 1);
              else chars[at] = letter();
            }
            text = chars.join('');
          } else for (let k = 2 + Math.floor(random() * 6); k > 0; k--) text += letter();
          same(new N.Chess(fen), new J.Chess(fen), 'move', text);
          same(new N.Chess(fen), new J.Chess(fen), 'move', text, { strict: true });
        }
      }
    },
    SLOW,
  );

  it(
    'answers odd arguments alike',
    () => {
      const fen = 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1';
      const calls: [string, ...unknown[]][] = [
        ['moves', { square: 'E1' }],
        ['moves', { square: 'e1', piece: 'K' }],
        ['moves', { square: 'z9' }],
        ['moves', { square: '' }],
        ['moves', { piece: '' }],
        ['moves', { piece: 'x' }],
        ['moves', { square: 'e5', verbose: true }],
        ['moves', { verbose: false }],
        ['get', 'z9'],
        ['get', 'E5'],
        ['squareColor', 'z9'],
        ['squareColor', 'a1'],
        ['squareColor', 'h1'],
        ['attackers', 'z9'],
        ['attackers', 'e5', 'x'],
        ['isAttacked', 'f7'],
        ['findPiece', { type: 'k', color: 'x' }],
        ['getCastlingRights', 'x'],
        ['setCastlingRights', 'w', {}],
        ['put', { type: 'x', color: 'w' }, 'e4'],
        ['put', { type: 'q', color: 'w' }, 'z9'],
        ['put', { type: 'k', color: 'w' }, 'a3'],
        ['put', { type: 'Q', color: 'b' }, 'a3'],
        ['remove', 'z9'],
        ['history', { verbose: false }],
        ['perft', 0],
        ['perft', 1.5],
        ['perft', -1],
        ['setTurn', 'w'],
        ['undo'],
        ['getComment'],
        ['removeComment'],
        ['fen', { forceEnpassantSquare: false }],
      ];
      for (const [method, ...args] of calls) {
        const a = new N.Chess(fen);
        const b = new J.Chess(fen);
        scenario(`${method}(${JSON.stringify(args)})`, () => {
          same(a, b, method, ...args);
          compareQueries(a, b, rng(method.length), true);
        });
      }
    },
    SLOW,
  );

  it('keeps headers alike', () => {
    const a = new N.Chess();
    const b = new J.Chess();
    same(a, b, 'header', 'White', 'Kasparov', 'Black', 'Deep Blue', 'Odd');
    same(a, b, 'setHeader', 'Date', '1997.05.11');
    same(a, b, 'setHeader', 'Custom', 'yes');
    same(a, b, 'removeHeader', 'Custom');
    same(a, b, 'removeHeader', 'White');
    same(a, b, 'removeHeader', 'Missing');
    same(a, b, 'setHeader', 'Event', '');
    same(a, b, 'pgn');
    same(a, b, 'move', 'e4');
    same(a, b, 'pgn');
    same(a, b, 'clear', { preserveHeaders: true });
    same(a, b, 'header');
    same(a, b, 'reset');
    same(a, b, 'header');
  });

  /** loadPgn on both, then (when it read the text) the state it left. */
  function sameLoad(text: string, options?: { strict?: boolean; newlineChar?: string }): void {
    const a = new N.Chess();
    const b = new J.Chess();
    scenario(`loadPgn(${JSON.stringify(text)}, ${JSON.stringify(options)})`, () => {
      const result = same(a, b, 'loadPgn', text, options) as { error?: string };
      if (result.error !== undefined) return;
      for (const m of ['fen', 'pgn', 'getHeaders', 'header', 'getComments', 'history']) same(a, b, m);
    });
  }

  /** A random game with headers and comments, as chess.js writes it. */
  function commentedGame(random: () => number, g: number): string {
    const b = new J.Chess();
    b.setHeader('Event', `game ${g}`);
    b.setComment('before the first move');
    for (let ply = 0; ply < 40 && !b.isGameOver(); ply++) {
      b.move(pick(random, b.moves()));
      if (random() < 0.3) b.setComment(`comment ${ply} ${'word '.repeat(Math.floor(random() * 8))}`);
    }
    return b.pgn();
  }

  it(
    'reads odd PGN files alike: syntax errors, tags, comments, results, bad moves and FENs',
    () => {
      const texts = [
        '',
        ' \n\t\r\n ',
        '[Event "only headers"]\n[Site "?"]\n',
        '[Event "only headers"]',
        '1-0',
        '0-1',
        '1/2-1/2',
        '* {after the result}',
        '1. e4 * {}',
        '1. e4 {kept} * {}',
        '1. e4 {replaced} * {by this}',
        '{a} * {b}',
        '{before} {twice} 1. e4 *',
        ';first line\n1. e4 *',
        '1. e4 ;\u00a0 trimmed \u3000\u2028\n e5 *',
        '1. e4 ; to the end',
        '1. e4 {a {nested} b} e5 *',
        '1. e4 {a {nested}} e5 *',
        '1. e4 {} e5 {} *',
        '1. e4 {line\r\n\r\nbreaks\rand\n\nmore} e5 *',
        '1. e4 {unterminated e5 *',
        '1. e4 e5 (1... c5 {in a variation} 2. Nf3 (2. Nc3 {deeper})) {after a variation} 2. Nf3 *',
        '1. e4 (1. d4) (1. c4 (1. Nf3)) e5 (1... Ke7 {illegal but dropped}) *',
        '1. e4 (1. Qxx9) e5 *',
        '1. e4 ( e5 *',
        '1. e4 ) e5 *',
        '%escape line\n1. e4 *',
        '1. e4\n%escape\ne5 *',
        '[Event "a"]\n[Event "b"]\n[event "c"]\n\n1. e4 *',
        '[FEN "4k3/8/8/8/8/8/8/4K2R w K - 0 1"]\n[fen "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1"]\n[FEN "4k3/8/8/8/8/8/8/4K2R w K - 0 1"]\n\n1. O-O *',
        '[SetUp "1"]\n[FEN "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0"]\n\n1. e4 *',
        '[FEN "8/8/8/8/8/8/8/8 w - - 0 1"]\n\n*',
        '[FEN ""]\n\n1. e4 *',
        '[SetUp "0"]\n[FEN "4k3/8/8/8/8/8/8/4K2R w K - 0 1"]\n\n1. O-O *',
        '[SetUp "1"]\n[fen "4k3/8/8/8/8/8/8/4K2R w K - 0 1"]\n\n1. O-O *',
        '[Round2 "x"]\n1. e4 *',
        '[Event "multi\nline"]\n1. e4 *',
        '[Event "x"\n1. e4 *',
        '[ Event\t"spaced"\n]\n1. e4 *',
        '[Event "x"] [Site "y"]1. e4 *',
        '[Event "x"]\n\n1. e4 *\n\n[Event "second game"]\n\n1. d4 *',
        '1. e4 * 1. d4 *',
        '1. e4 1-0 e5',
        'e4 e5 Nf3 *',
        '1 e4 *',
        '1... e5 *',
        '1. e4 e5 2... Nf3 *',
        '1.. e4 ... e5 *',
        '12345. e4 *',
        '1. e4! ! e5 *',
        '1. e4!!? e5 *',
        '1. e4 $ e5 *',
        '1. e4 $1$2 e5 $99999999999 *',
        '1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Bxc6 dxc6 5. Nxe5 Qd4 6. Nf3 Qxe4+ 7. Qe2 Qxe2+ 8. Kxe2 *',
        '1. e4 e5 2. Nf3 Nc7 *',
        '1. e5 *',
        '1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Bxc7 *',
        '1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# Ke7 *',
        '1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O-O-O *',
        '1. O-O-O-O *',
        '1. e4 e5 2. Nf3 Nf6 3. Nc3 Nc6 4. Nd5 Nd4 5. Nxe5 Nxe4 6. Nf3 Nf6 7. N3xd4 *',
        '1. d4 e5 2. dxe5 d5 3. exd6 e.p. *',
        '1. d4 e5 2. dxe5 d5 3. ed6 *',
        '1. e4 \u00e9 *',
        '1. e4 \u0085 *',
        '1. e4 \u0007 *',
        '1. e4 \\ *',
        '1. e4 " *',
        '1. e4 {caf\u00e9 \u{1F600}} e5 *',
        `1. e4 ${'('.repeat(40)}1. d4${')'.repeat(40)} e5 *`,
        `1. e4 ${'(1. d4 '.repeat(200)}${')'.repeat(200)} e5 *`,
        `1. e4 ${'(1. d4 '.repeat(5000)}${')'.repeat(5000)} e5 *`,
      ];
      for (const text of texts) for (const strict of [false, true]) sameLoad(text, { strict });
      // Not text: chess.js's parser fails with a TypeError (or reads a String object).
      for (const input of [undefined, null, 123, {}, ['1. e4'], new String('1. e4 *')]) sameLoad(input as unknown as string);
    },
    SLOW,
  );

  it(
    'reads mangled PGN alike: the same games, or the same syntax error and message',
    () => {
      const random = rng(101);
      const bases = [
        ...generatePgn({ games: 4, seed: 31, variations: true, comments: true }).split(/\n(?=\[Event )/),
        ...generatePgn({ games: 4, seed: 32, variations: true, comments: false }).split(/\n(?=\[Event )/),
        commentedGame(random, 0),
        commentedGame(random, 1),
        '[Event "x"]\n\n{Opening comment} 1. e4 {best by test} e5 (1... c5 {Sicilian} 2. Nf3) 2. Nf3 $1 Nc6!? 3. Bb5 ; Ruy\n a6 1/2-1/2',
        '1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 *',
      ];
      const alphabet = '[]{}();%$!?.*"\\\n\r\t 0123456789-/+#=OabcdefghNBRQKPx\u00e9\u0085';
      for (let i = 0; i < GAMES * 30; i++) {
        const chars = [...pick(random, bases)];
        // Edits near the start hit the tags, elsewhere the movetext.
        for (let k = 1 + Math.floor(random() * 3); k > 0; k--) {
          const at = random() < 0.3 ? Math.floor(random() * Math.min(chars.length, 120)) : Math.floor(random() * chars.length);
          const c = alphabet[Math.floor(random() * alphabet.length)] as string;
          const op = random();
          if (op < 0.4) chars.splice(at, 0, c);
          else if (op < 0.7) chars.splice(at, 1);
          else chars[at] = c;
        }
        const text = chars.join('');
        for (const strict of [false, true]) sameLoad(text, { strict });
      }
    },
    SLOW,
  );

  it(
    'reads PGN alike with every newlineChar',
    () => {
      const random = rng(202);
      const newlines = ['\n', '\r\n', '\r', '\\r\\n', '<br />', '\\|', '|', 'NL', '\t', '  ', '(', '[', '\\', '.', 'x*'];
      for (let g = 0; g < 3; g++) {
        const b = new J.Chess();
        b.loadPgn(commentedGame(random, g));
        const text = b.pgn();
        for (const newline of newlines) {
          // The text as chess.js writes it with that newline, and the same text with a regex's own meaning.
          const written = b.pgn({
            newline: newline.replace(/\\(.)/g, (_, c: string) => ({ r: '\r', n: '\n' })[c] ?? c),
            maxWidth: Math.floor(random() * 80),
          });
          for (const strict of [false, true]) {
            sameLoad(written, { strict, newlineChar: newline });
            sameLoad(text.replace(/\n/g, '\r\n'), { strict, newlineChar: newline });
          }
        }
        sameLoad(text.replace(/\n/g, '\r\n'));
        sameLoad(text.replace(/\n/g, '\r'));
      }
    },
    SLOW,
  );

  it(
    'reads moves written in chess.js permissive forms alike, strict and permissive',
    () => {
      const random = rng(303);
      for (let g = 0; g < GAMES; g++) {
        const b = new J.Chess();
        const words: string[] = [];
        for (let ply = 0; ply < 60 && !b.isGameOver(); ply++) {
          const moves = b.moves({ verbose: true });
          const m = pick(random, moves);
          const piece = m.piece.toUpperCase();
          const forms = [
            m.san,
            m.lan,
            `${m.from}-${m.to}${m.promotion ?? ''}`,
            piece + m.lan,
            `${piece}${m.from}-${m.to}`,
            m.san.replace('x', ''),
            m.san.replace(/[+#]$/, ''),
            m.san.replace('=', ''),
            m.san.replace(/^([NBRQK])/, `$1${m.from}`),
            m.san.replace(/^([NBRQK])/, `$1${m.from[0]}`),
            m.san.replace('O-O', '0-0'),
          ];
          if (ply % 2 === 0) words.push(`${ply / 2 + 1}.`);
          words.push(pick(random, forms));
          b.move(m);
        }
        const text = `${words.join(' ')} *`;
        for (const strict of [false, true]) sameLoad(text, { strict });
      }
    },
    SLOW,
  );

  // In parts: one long synchronous test keeps vitest's worker from reporting.
  for (let part = 0; part < 8; part++) {
    it(
      `plays ${GAMES * 5} random loose positions alike (no king, crowds, rights as given; skipValidation), part ${part + 1} of 8`,
      () => loopWithTurns(0, GAMES * 5, (g) => playLoosePosition(9000 + part * GAMES * 5 + g)),
      SLOW,
    );
  }

  it(
    `sets up ${GAMES * 5} boards from empty with put and remove alike, then plays them`,
    () => loopWithTurns(0, GAMES * 5, (g) => buildFromEmpty(7000 + g)),
    SLOW,
  );

  it('reports the comparison counts', () => {
    const total = Object.values(counts).reduce((x, y) => x + y, 0);
    console.log(
      `chessjs facade: ${total} comparisons over ${Object.keys(counts).length} methods (${crashes} scenarios ended by a chess.js crash): ${JSON.stringify(counts)}`,
    );
    expect(total).toBeGreaterThan(1000);
  });
});
