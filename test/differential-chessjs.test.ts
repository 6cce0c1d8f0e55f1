// Differential test against chess.js over seeded random games: at every ply
// the FEN, the legal moves, the SAN of every legal move, and the status flags
// (check, checkmate, stalemate, insufficient material, fifty moves, threefold
// repetition, draw, game over) must agree; every few plies also board(),
// pieceAt() and attackers(). Moves are played through UCI and SAN in turn,
// with some undos, and some games are steered into repetitions (a side
// reverses its last move when it can) so that threefold repetition is
// actually reached.
//
// Size: CHESS_NATIVE_DIFF_GAMES games (default 40, about 10-15 s on 2 cores);
// `npm run test:diff` runs 1000.
import { describe, expect, it } from 'vitest';
import { Chess, type Move, type Square } from 'chess.js';
import { api, loopWithTurns, rng } from './helpers';

const { Position } = api;

const GAMES = Number(process.env.CHESS_NATIVE_DIFF_GAMES ?? 40);
const MAX_PLIES = 400;
const VERBOSE_EVERY = 16;

function uciOf(m: Move): string {
  return m.from + m.to + (m.promotion ?? '');
}

/** A pawn capture onto an empty square. */
function isEnPassant(pos: InstanceType<typeof Position>, uci: string, san: string): boolean {
  return /^[a-h]x/.test(san) && pos.pieceAt(uci.slice(2, 4)) === null;
}

const SQUARES: string[] = [];
for (const f of 'abcdefgh') for (const r of '12345678') SQUARES.push(f + r);

interface Totals {
  plies: number;
  checkmates: number;
  stalemates: number;
  insufficient: number;
  fifty: number;
  threefold: number;
  castles: number;
  enPassant: number;
  promotions: number;
  undos: number;
}

function playGame(seed: number, totals: Totals): void {
  const random = rng(seed);
  const chess = new Chess();
  const pos = new Position();
  // Games with an odd seed try to repeat positions.
  const repeat = seed % 2 === 1;
  const lastMove: [string | null, string | null] = [null, null]; // by side: w, b
  for (let ply = 0; ply < MAX_PLIES; ply++) {
    const where = `seed ${seed} ply ${ply} (${chess.fen()})`;
    expect(pos.fen(), where).toBe(chess.fen());

    // SAN of every legal move, as sets (SAN names a legal move uniquely, so
    // equal sets mean the same moves); every few plies, and on the last
    // one, also move by move through chess.js's verbose moves (slow: it
    // builds two FENs per move).
    const ucis = pos.legalMoves();
    const sans = pos.legalMovesSan();
    expect(sans.length, where).toBe(ucis.length);
    expect([...sans].sort(), where).toEqual(chess.moves().sort());
    if (ply % VERBOSE_EVERY === 0 || ucis.length === 0) {
      const expected = new Map(chess.moves({ verbose: true }).map((m) => [uciOf(m), m.san]));
      expect(ucis, where).toEqual([...expected.keys()].sort());
      expect(sans, where).toEqual(ucis.map((u) => expected.get(u)));
    }

    expect(pos.inCheck(), where).toBe(chess.isCheck());
    expect(pos.isCheckmate(), where).toBe(chess.isCheckmate());
    expect(pos.isStalemate(), where).toBe(chess.isStalemate());
    expect(pos.isInsufficientMaterial(), where).toBe(chess.isInsufficientMaterial());
    expect(pos.isFiftyMoves(), where).toBe(chess.isDrawByFiftyMoves());
    expect(pos.isThreefoldRepetition(), where).toBe(chess.isThreefoldRepetition());
    expect(pos.isDraw(), where).toBe(chess.isDraw());
    expect(pos.isGameOver(), where).toBe(chess.isGameOver());
    totals.plies++;
    if (chess.isCheckmate()) totals.checkmates++;
    if (chess.isStalemate()) totals.stalemates++;
    if (chess.isInsufficientMaterial()) totals.insufficient++;
    if (chess.isDrawByFiftyMoves()) totals.fifty++;
    if (chess.isThreefoldRepetition()) totals.threefold++;

    if (ply % 8 === 0) {
      expect(pos.board(), where).toEqual(chess.board());
      for (let k = 0; k < 4; k++) {
        const sq = SQUARES[Math.floor(random() * 64)] as Square;
        expect(pos.pieceAt(sq), `${where} ${sq}`).toEqual(chess.get(sq) ?? null);
        expect(pos.attackers(sq, 'w'), `${where} ${sq} w`).toEqual(chess.attackers(sq, 'w'));
        expect(pos.attackers(sq, 'b'), `${where} ${sq} b`).toEqual(chess.attackers(sq, 'b'));
        expect(pos.movesFrom(sq), `${where} ${sq}`).toEqual(ucis.filter((u) => u.startsWith(sq)));
      }
    }

    if (chess.isGameOver() || ucis.length === 0) break;

    // Occasionally take the last move back on both sides.
    if (ply > 0 && random() < 0.03) {
      chess.undo();
      pos.undo();
      totals.undos++;
      lastMove[0] = lastMove[1] = null;
      continue;
    }

    const side = chess.turn() === 'w' ? 0 : 1;
    let index = -1;
    const previous = lastMove[side];
    if (repeat && previous !== null && random() < 0.6) {
      index = ucis.indexOf(previous.slice(2, 4) + previous.slice(0, 2));
    }
    if (index < 0 && random() < 0.7) {
      // Castling and en passant are rare in random play: take them when offered.
      index = sans.findIndex((s, i) => s.startsWith('O-O') || isEnPassant(pos, ucis[i] as string, s));
    }
    if (index < 0) index = Math.floor(random() * ucis.length);
    const uci = ucis[index] as string;
    const san = sans[index] as string;

    expect(pos.san(uci), where).toBe(san);
    expect(pos.parseSan(san), where).toBe(uci);
    if (ply % 2 === 0) pos.playSan(san);
    else pos.play(uci);
    const move = chess.move(san);
    expect(uciOf(move), `${where} ${san}`).toBe(uci);
    if (move.isKingsideCastle() || move.isQueensideCastle()) totals.castles++;
    if (move.isEnPassant()) totals.enPassant++;
    if (move.isPromotion()) totals.promotions++;
    lastMove[side] = uci;
  }
}

describe('differential: chess.js', () => {
  it(`${GAMES} random games agree at every ply (FEN, moves, SAN, status, board queries)`, { timeout: 600_000 }, async () => {
    const totals: Totals = {
      plies: 0,
      checkmates: 0,
      stalemates: 0,
      insufficient: 0,
      fifty: 0,
      threefold: 0,
      castles: 0,
      enPassant: 0,
      promotions: 0,
      undos: 0,
    };
    await loopWithTurns(0, GAMES, (game) => playGame(1000 + game, totals));
    console.log(`differential chess.js: ${GAMES} games, ${JSON.stringify(totals)}`);
    // The games must have covered the rules they claim to test.
    expect(totals.plies).toBeGreaterThan(GAMES * 50);
    expect(totals.castles).toBeGreaterThan(0);
    expect(totals.enPassant).toBeGreaterThan(0);
    expect(totals.promotions).toBeGreaterThan(0);
    expect(totals.threefold).toBeGreaterThan(0);
    expect(totals.insufficient).toBeGreaterThan(0);
    expect(totals.checkmates + totals.stalemates).toBeGreaterThan(0);
    expect(totals.undos).toBeGreaterThan(0);
    console.log(`differential chess.js: ${GAMES} games, ${JSON.stringify(totals)}`);
  });
});
