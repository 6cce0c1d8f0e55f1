// Lines of moves: playLine / playSanLine / sanLine (one native call per 256
// moves) against the same moves played one call at a time with play /
// playSan / san, which the other suites check against chess.js and chessops.
// - Random games (standard and Chess960, some longer than one 256-move chunk)
//   in every input form: positions, history, hash and undo move by move.
// - A bad move anywhere in a line (also in a later chunk) throws
//   IllegalMoveError with its index and leaves the position as it was.
// - PGN movetext details, wrong types, huge strings, NUL bytes, non-ASCII.
import { describe, expect, it } from 'vitest';
import { api, rng } from './helpers';

const { Position, IllegalMoveError, START_FEN } = api;
type Pos = InstanceType<typeof Position>;

interface Game {
  fen: string;
  chess960: boolean;
  ucis: string[];
  sans: string[];
}

/** A random game of up to `plies` plies (stops at mate or stalemate). */
function randomGame(seed: number, fen: string, chess960: boolean, plies: number): Game {
  const random = rng(seed);
  const pos = new Position(fen, { chess960 });
  const ucis: string[] = [];
  const sans: string[] = [];
  while (ucis.length < plies) {
    const moves = pos.legalMoves();
    if (moves.length === 0) break;
    const uci = moves[Math.floor(random() * moves.length)] as string;
    ucis.push(uci);
    sans.push(pos.san(uci));
    pos.play(uci);
  }
  return { fen, chess960, ucis, sans };
}

/** The SAN moves as PGN movetext: "12. e4 e5 13. Nf3" (or "12... e5 13. Nf3" when black starts). */
function movetext(game: Game, glued: boolean, result: string): string {
  const start = new Position(game.fen, { chess960: game.chess960 });
  let number = Number(game.fen.split(' ')[5] ?? '1');
  let white = start.turn() === 'w';
  const parts: string[] = [];
  game.sans.forEach((san, i) => {
    if (white) parts.push(glued ? `${number}.${san}` : `${number}. ${san}`);
    else if (i === 0) parts.push(glued ? `${number}...${san}` : `${number}... ${san}`);
    else parts.push(san);
    if (!white) number++;
    white = !white;
  });
  if (result !== '') parts.push(result);
  return parts.join(glued ? ' ' : '\n ');
}

function snapshot(pos: Pos): { fen: string; history: string[]; hash: bigint } {
  return { fen: pos.fen(), history: pos.history(), hash: pos.hash() };
}

/** Undoes both to the start, comparing at every step. */
function expectSameUndo(a: Pos, b: Pos): void {
  for (;;) {
    expect(snapshot(b)).toEqual(snapshot(a));
    const ua = a.undo();
    const ub = b.undo();
    expect(ub).toBe(ua);
    if (ua === null) break;
  }
}

const START_POSITIONS: [string, boolean][] = [
  [START_FEN, false],
  ['r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1', false],
  ['rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3', false],
  ['n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1', false],
  ['bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9', true],
  ['1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1', true],
];

describe('lines match the same moves played one by one', () => {
  const games: Game[] = [];
  START_POSITIONS.forEach(([fen, chess960], p) => {
    for (let g = 0; g < 12; g++) games.push(randomGame(1000 * p + g, fen, chess960, g % 4 === 0 ? 600 : 120));
  });

  it('has games longer than one 256-move chunk', () => {
    expect(games.some((g) => g.ucis.length > 256)).toBe(true);
  });

  // About 4.5 s on a quiet 2-core machine: vitest's 5 s default fails it under load.
  it('playSanLine / playLine in every input form: same positions, history, hash, undo', { timeout: 60_000 }, () => {
    for (const game of games) {
      const opts = { chess960: game.chess960 };
      const one = new Position(game.fen, opts);
      for (const san of game.sans) one.playSan(san);
      const oneUci = new Position(game.fen, opts);
      for (const uci of game.ucis) oneUci.play(uci);
      expect(snapshot(oneUci)).toEqual(snapshot(one));

      const forms: Pos[] = [
        new Position(game.fen, opts).playSanLine(game.sans),
        new Position(game.fen, opts).playSanLine(game.sans.join(' ')),
        new Position(game.fen, opts).playSanLine(movetext(game, false, '*')),
        new Position(game.fen, opts).playSanLine(movetext(game, true, '1/2-1/2')),
        new Position(game.fen, opts).playLine(game.ucis),
        new Position(game.fen, opts).playLine(` ${game.ucis.join('\t ')}\n`),
      ];
      for (const pos of forms) {
        expect(snapshot(pos)).toEqual(snapshot(one));
        expect(pos.isThreefoldRepetition()).toBe(one.isThreefoldRepetition());
      }
      expectSameUndo(one.clone(), forms[0] as Pos);
      expectSameUndo(oneUci.clone(), forms[5] as Pos);
    }
  });

  it('a line appends to the existing history, and undo crosses back into it', () => {
    const game = games[1] as Game;
    const half = Math.floor(game.sans.length / 2);
    const one = new Position(game.fen);
    for (const san of game.sans) one.playSan(san);
    const split = new Position(game.fen).playSanLine(game.sans.slice(0, half)).playSanLine(game.sans.slice(half));
    expectSameUndo(one, split);
  });

  it('sanLine gives what san() gives move by move, and leaves the position alone', () => {
    for (const game of games) {
      const pos = new Position(game.fen, { chess960: game.chess960 });
      const before = snapshot(pos);
      expect(pos.sanLine(game.ucis)).toEqual(game.sans);
      expect(pos.sanLine(game.ucis.join(' '))).toEqual(game.sans);
      expect(snapshot(pos)).toEqual(before);
    }
    expect(new Position().sanLine([])).toEqual([]);
    expect(new Position().sanLine('  ')).toEqual([]);
  });

  it('a repetition line across many chunks (40000 plies) ends where it started', () => {
    const pos = new Position().playSanLine('Nf3 Nf6 Ng1 Ng8 '.repeat(10000));
    expect(pos.history().length).toBe(40000);
    expect(pos.fen()).toBe('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 40000 20001');
    expect(pos.isThreefoldRepetition()).toBe(true);
    // The same as an array (over the ASCII scratch buffer's size: the TextEncoder path).
    const cycle = ['Nf3', 'Nf6', 'Ng1', 'Ng8'];
    const asArray = new Position().playSanLine(Array.from({ length: 40000 }, (_, i) => cycle[i % 4] as string));
    expect(asArray.fen()).toBe(pos.fen());
    expect(asArray.history()).toEqual(pos.history());
    for (let i = 0; i < 3; i++) pos.undo();
    expect(pos.fen()).toBe('rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 39997 19999');
  });
});

/** Expects fn to throw IllegalMoveError with this index and move, and pos to be unchanged. */
function expectLineError(pos: Pos, fn: () => unknown, index: number, move: string, message?: RegExp): void {
  const before = snapshot(pos);
  let error: unknown;
  try {
    fn();
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(IllegalMoveError);
  const e = error as InstanceType<typeof IllegalMoveError>;
  expect(e.index).toBe(index);
  expect(e.move).toBe(move);
  expect(e.message).toContain(`ply ${index + 1} of the line`);
  if (message) expect(e.message).toMatch(message);
  expect(snapshot(pos)).toEqual(before);
}

describe('a bad move anywhere: IllegalMoveError, nothing played', () => {
  it('at random places of random games, in the first and in later chunks', () => {
    const random = rng(7);
    for (let g = 0; g < 30; g++) {
      const game = randomGame(500 + g, START_FEN, false, g % 3 === 0 ? 700 : 150);
      if (game.sans.length < 2) continue;
      const pos = new Position(game.fen);
      const k = Math.floor(random() * game.sans.length);
      const bySan = new Position(game.fen);
      // The previous move again: never legal right after it was played
      // (the same side is not to move), or a malformed token.
      const badSan = k > 0 ? (game.sans[k - 1] as string) : 'Ke9';
      const sans = [...game.sans.slice(0, k), badSan, ...game.sans.slice(k + 1)];
      let legalThere = true;
      try {
        for (const san of sans.slice(0, k + 1)) bySan.playSan(san);
      } catch {
        legalThere = false;
      }
      if (legalThere) continue; // the other side can play the same SAN (e.g. both have a knight reaching f3)
      expectLineError(pos, () => pos.playSanLine(sans), k, badSan);
      expectLineError(pos, () => pos.playSanLine(sans.join(' ')), k, badSan);
      const ucis = [...game.ucis.slice(0, k), k > 0 ? (game.ucis[k - 1] as string) : 'e1e9', ...game.ucis.slice(k + 1)];
      expectLineError(pos, () => pos.playLine(ucis), k, ucis[k] as string);
      expectLineError(pos, () => pos.sanLine(ucis), k, ucis[k] as string);
    }
  });

  it('with history: the position, its history and undo stay as they were', () => {
    const pos = new Position().playSanLine('e4 e5 Nf3');
    expectLineError(
      pos,
      () => pos.playSanLine('Nc6 Bb5 a6 Bxc6 dxc6 Bb5'),
      5,
      'Bb5',
      /illegal or ambiguous move "Bb5".* in r1bqkbnr\/1pp2ppp\/p1p5\//,
    );
    expect(pos.history()).toEqual(['e2e4', 'e7e5', 'g1f3']);
    expect(pos.undo()).toBe('g1f3');
  });

  it('names malformed, illegal and ambiguous moves', () => {
    const pos = new Position('4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1');
    expectLineError(pos, () => pos.playSanLine('Kf2 Kd7 Nd2'), 2, 'Nd2', /illegal or ambiguous/);
    expectLineError(pos, () => pos.playSanLine(['Kf1', 'Ke7', 'Ke1', 'Ke8', 'Nd2']), 4, 'Nd2', /illegal or ambiguous/);
    expect(pos.clone().playSanLine(['Kf1', 'Ke7', 'Ke1', 'Ke8', 'Nbd2']).history()).toEqual(['e1f1', 'e8e7', 'f1e1', 'e7e8', 'b1d2']);
    expectLineError(pos, () => pos.playSanLine('Nbd2 N'), 1, 'N', /malformed move "N"/);
    expectLineError(pos, () => pos.playLine('e1e2 e8e7 e2e9'), 2, 'e2e9', /malformed/);
    expectLineError(pos, () => pos.playLine('e1e2 e8e8'), 1, 'e8e8', /illegal move "e8e8"/);
  });

  it('PGN movetext: results end a line only at its end; an element is one move', () => {
    const pos = new Position();
    expectLineError(pos, () => pos.playSanLine('1. e4 1-0 e5'), 1, '1-0');
    expectLineError(pos, () => pos.playSanLine(['e4', '1.']), 1, '1.');
    expectLineError(pos, () => pos.playSanLine(['1. e4']), 0, '1. e4');
    expectLineError(pos, () => pos.playSanLine(['e4', '']), 1, '');
    expectLineError(pos, () => pos.playSanLine(['e4 e5']), 0, 'e4 e5');
    expectLineError(pos, () => pos.playLine('e2e4 1-0'), 1, '1-0');
    expectLineError(pos, () => pos.playLine('1. e2e4'), 0, '1.');
    expect(pos.clone().playSanLine('1.e4 e5 2.Nf3 Nc6 1-0').history()).toEqual(['e2e4', 'e7e5', 'g1f3', 'b8c6']);
    expect(pos.clone().playSanLine('1. e4 1... e5 2. Nf3!? Nc6?! 3. Bb5+ *').history().length).toBe(5);
    expect(pos.clone().playSanLine('1. e4 0-1').history()).toEqual(['e2e4']);
    expect(pos.clone().playSanLine('1. e4 1/2-1/2 \n').history()).toEqual(['e2e4']);
    expect(pos.clone().playSanLine('5.').history()).toEqual([]);
    // A number glued to something that is itself a move number: malformed,
    // also right after a full 256-move chunk (the next chunk rereads it).
    expectLineError(pos, () => pos.playSanLine('e4 1.1...'), 1, '1...');
    expectLineError(pos, () => pos.playSanLine(`${'Nf3 Nf6 Ng1 Ng8 '.repeat(64)}1.1... e4`), 256, '1...');
    const ep = new Position('rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3');
    expect(ep.clone().playSanLine('exf6 e.p. exf6').history()).toEqual(['e5f6', 'e7f6']);
    expect(ep.clone().playSanLine('3. exf6\te.p.+ exf6').history()).toEqual(['e5f6', 'e7f6']);
    expect(ep.clone().playSanLine(['exf6 e.p.', 'exf6']).history()).toEqual(['e5f6', 'e7f6']);
  });
});

describe('hostile input', () => {
  const NOT_LINES: unknown[] = [
    undefined,
    null,
    42,
    1n,
    true,
    {},
    { length: 1, 0: 'e4' },
    new String('e4'),
    Symbol('e4'),
    () => 'e4',
    new Uint8Array(4),
  ];

  it('wrong types: TypeError, position unchanged', () => {
    const pos = new Position().playSan('e4');
    const before = snapshot(pos);
    const call = (fn: (line: never) => unknown, line: unknown): void => {
      expect(() => fn(line as never)).toThrow(TypeError);
    };
    for (const line of [...NOT_LINES, ['e5', 5], ['e5', null], [undefined], ['e5', ['Nf3']]]) {
      call((l) => pos.playSanLine(l), line);
      call((l) => pos.playLine(l), line);
      call((l) => pos.sanLine(l), line);
    }
    // A sparse array has a hole where a move should be.
    const sparse: string[] = [];
    sparse[1] = 'e5';
    call((l) => pos.playSanLine(l), sparse);
    expect(snapshot(pos)).toEqual(before);
  });

  it('NUL bytes, non-ASCII and lone surrogates are malformed moves', () => {
    const pos = new Position();
    expectLineError(pos, () => pos.playSanLine('e4 e5\0'), 1, 'e5\0');
    expectLineError(pos, () => pos.playSanLine(['e4', 'e5\0']), 1, 'e5\0');
    expectLineError(pos, () => pos.playSanLine(['e4', '\0e5']), 1, '\0e5');
    expectLineError(pos, () => pos.playLine(['e2e4\0']), 0, 'e2e4\0');
    expectLineError(pos, () => pos.playLine('e2e4 \0'), 1, '\0');
    expectLineError(pos, () => pos.playSanLine('e4 é5'), 1, 'é5');
    expectLineError(pos, () => pos.playSanLine(['e4', 'e\uD8005']), 1, 'e\uD8005');
    expectLineError(pos, () => pos.sanLine(['e2e4', 'e7e5\0']), 1, 'e7e5\0');
    // An element with a newline is never read as two moves.
    expectLineError(pos, () => pos.playSanLine(['e4', 'e5\nNf3', 'Nc6']), 1, 'e5\nNf3');
    expectLineError(pos, () => pos.playLine(['e2e4\n', 'e7e5']), 0, 'e2e4\n');
    expectLineError(pos, () => pos.sanLine(['e2e4', 'e7e5\ng1f3']), 1, 'e7e5\ng1f3');
  });

  it('oversized moves and 1 MB strings', () => {
    const pos = new Position();
    const mb = 'a'.repeat(1 << 20);
    expectLineError(pos, () => pos.playSanLine(mb), 0, mb);
    expectLineError(pos, () => pos.playSanLine(`e4 ${mb}`), 1, mb);
    expectLineError(pos, () => pos.playSanLine(['e4', mb]), 1, mb);
    expectLineError(pos, () => pos.playLine(['e2e4', mb]), 1, mb);
    expectLineError(pos, () => pos.sanLine(`e2e4 ${mb}`), 1, mb);
    expect(
      pos
        .clone()
        .playSanLine(' '.repeat(1 << 20))
        .history(),
    ).toEqual([]);
    expect(
      pos
        .clone()
        .playSanLine(`${' '.repeat(1 << 20)}e4${'\n'.repeat(1 << 20)}`)
        .history(),
    ).toEqual(['e2e4']);
    // Single-move calls refuse SAN over 27 bytes and UCI over 11: so do lines.
    const spaced = `exf6${' '.repeat(20)}e.p.`;
    const ep = new Position('rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3');
    expect(() => ep.clone().playSan(spaced)).toThrow(IllegalMoveError);
    expectLineError(ep, () => ep.playSanLine([spaced]), 0, spaced);
    expect(
      ep
        .clone()
        .playSanLine([`exf6${' '.repeat(19)}e.p.`])
        .history(),
    ).toEqual(['e5f6']);
    // 1 MB of legal moves: every one lands in the history.
    const long = new Position().playLine('g1f3 g8f6 f3g1 f6g8 '.repeat(13107));
    expect(long.history().length).toBe(52428);
  });
});

// parseSan / playSanLine find a SAN move from the pieces that reach its
// square, without a legal move list: check that against the legal move
// list, for every piece, square and hint, in positions of random games
// (checks, pins, en passant, promotions, Chess960).
describe('SAN resolution agrees with the legal move list', () => {
  it('every piece / square / hint pattern, in random-game positions', () => {
    const FILES = 'abcdefgh';
    let checked = 0;
    let found = 0;
    const mismatches: string[] = [];
    START_POSITIONS.forEach(([fen, chess960], p) => {
      const game = randomGame(77 + p, fen, chess960, 250);
      const pos = new Position(fen, { chess960 });
      game.ucis.forEach((uci, ply) => {
        if (ply % 25 === 3 || (pos.inCheck() && ply % 3 === 0)) {
          const board = new Map<string, { type: string; color: string }>();
          for (const row of pos.board()) for (const cell of row) if (cell) board.set(cell.square, cell);
          const us = pos.turn();
          // Legal non-castling moves with their piece.
          const legal = pos.legalMoves().filter((m) => {
            const piece = board.get(m.slice(0, 2));
            const target = board.get(m.slice(2, 4));
            if (piece?.type !== 'k') return true;
            if (target && target.color === us) return false; // Chess960 castling: king takes rook
            return Math.abs(m.charCodeAt(0) - m.charCodeAt(2)) !== 2 || chess960;
          });
          const byTarget = new Map<string, string[]>();
          for (const m of legal) byTarget.set(m.slice(2, 4), [...(byTarget.get(m.slice(2, 4)) ?? []), m]);
          const expected = (letter: string, to: string, file: string, rank: string, promotion: string): string | null => {
            const fits = (byTarget.get(to) ?? []).filter((m) => {
              const type = board.get(m.slice(0, 2))?.type;
              return (
                (letter === '' ? type === 'p' : type === letter.toLowerCase()) &&
                m.slice(2, 4) === to &&
                (file === '' || m[0] === file) &&
                (rank === '' || m[1] === rank) &&
                (m[4] ?? '') === promotion
              );
            });
            return fits.length === 1 ? (fits[0] as string) : null;
          };
          const actual = (san: string): string | null => {
            try {
              return pos.parseSan(san);
            } catch (e) {
              if (!(e instanceof IllegalMoveError)) throw e;
              return null;
            }
          };
          for (let sq = 0; sq < 64; sq++) {
            const to = FILES[sq & 7]! + String((sq >> 3) + 1);
            for (const letter of ['N', 'B', 'R', 'Q', 'K']) {
              // No hint, the file and rank of each such piece of ours, and a file and rank with none.
              const type = letter.toLowerCase();
              const hints = new Set(['', 'a', '1']);
              for (const [square, cell] of board) {
                if (cell.type === type && cell.color === us) hints.add(square[0]!).add(square[1]!);
              }
              for (const hint of hints) {
                const file = FILES.includes(hint) ? hint : '';
                const rank = file === '' ? hint : '';
                const san = `${letter}${hint}${to}`;
                const want = expected(letter, to, file, rank, '');
                if (want !== null) found++;
                if (actual(san) !== want) mismatches.push(`${pos.fen()} ${san}`);
                checked++;
              }
            }
            const last = to[1] === '8' || to[1] === '1';
            for (const promotion of last ? ['', 'q', 'r', 'b', 'n'] : ['', 'q']) {
              const suffix = promotion === '' ? '' : `=${promotion.toUpperCase()}`;
              for (const file of [to[0]!, FILES[(sq & 7) - 1], FILES[(sq & 7) + 1]]) {
                if (file === undefined) continue;
                const san = file === to[0] ? `${to}${suffix}` : `${file}x${to}${suffix}`;
                const want = expected('', to, file, '', promotion);
                if (want !== null) found++;
                if (actual(san) !== want) mismatches.push(`${pos.fen()} ${san}`);
                checked++;
              }
            }
          }
        }
        pos.play(uci);
      });
    });
    expect(mismatches.slice(0, 10)).toEqual([]);
    expect(checked).toBeGreaterThan(50000);
    expect(found).toBeGreaterThan(2000);
  }, 60000);
});
