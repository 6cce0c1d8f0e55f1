// Game rules through the JS API: status flags, threefold repetition,
// Polyglot hash() (published vectors; incremental == from-FEN after long
// random games), board queries, and Chess960 (suites at small depths, UCI
// castling, X-FEN / Shredder-FEN).
import { describe, expect, it } from 'vitest';
import { Chess, type Square } from 'chess.js';
import { api, readEpd, STANDARD_SUITES, rng } from './helpers';

const { Position, START_FEN } = api;
type Pos = InstanceType<typeof Position>;

// The test vectors published with the Polyglot book format (also checked by
// test/c/polyglot_vectors.py): moves from the start position, FEN, key.
const POLYGLOT: [string, string, bigint][] = [
  ['', START_FEN, 0x463b96181691fc9cn],
  ['e2e4', 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1', 0x823c9b50fd114196n],
  ['e2e4 d7d5', 'rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2', 0x0756b94461c50fb0n],
  ['e2e4 d7d5 e4e5', 'rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2', 0x662fafb965db29d4n],
  ['e2e4 d7d5 e4e5 f7f5', 'rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3', 0x22a48b5a8e47ff78n],
  ['e2e4 d7d5 e4e5 f7f5 e1e2', 'rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPPKPPP/RNBQ1BNR b kq - 0 3', 0x652a607ca3f242c1n],
  ['e2e4 d7d5 e4e5 f7f5 e1e2 e8f7', 'rnbq1bnr/ppp1pkpp/8/3pPp2/8/8/PPPPKPPP/RNBQ1BNR w - - 0 4', 0x00fdd303c946bdd9n],
  ['a2a4 b7b5 h2h4 b5b4 c2c4', 'rnbqkbnr/p1pppppp/8/8/PpP4P/8/1P1PPPP1/RNBQKBNR b KQkq c3 0 3', 0x3c8123ea7b067637n],
  ['a2a4 b7b5 h2h4 b5b4 c2c4 b4c3 a1a3', 'rnbqkbnr/p1pppppp/8/8/P6P/R1p5/1P1PPPP1/1NBQKBNR b Kkq - 0 4', 0x5c3f9b829b279560n],
];

describe('Polyglot hash()', () => {
  it('matches every published vector, by playing the moves and from the FEN', () => {
    for (const [moves, fen, key] of POLYGLOT) {
      const played = new Position();
      for (const m of moves.split(' ').filter(Boolean)) played.play(m);
      expect(played.hash(), moves || 'start').toBe(key);
      expect(new Position(fen).hash(), fen).toBe(key);
      // The published FENs' clocks are not all right; the rest must agree.
      const fields = (f: string): string => f.split(' ').slice(0, 4).join(' ');
      expect(fields(played.fen())).toBe(fields(new Position(fen).fen()));
    }
  });

  it('undo restores the key; the key ignores the clocks', () => {
    const pos = new Position().play('g1f3').play('g8f6').play('f3g1').play('f6g8');
    expect(pos.fen()).not.toBe(START_FEN);
    expect(pos.hash()).toBe(0x463b96181691fc9cn);
    while (pos.undo() !== null) expect(pos.hash()).toBe(new Position(pos.fen()).hash());
  });

  it('incremental key equals the key of the FEN after long random games (castling, en passant, promotions)', { timeout: 60_000 }, () => {
    const starts: [string, boolean][] = [
      [START_FEN, false],
      ['r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1', false],
      ['n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1', false],
      ['1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1', true],
      ['bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9', true],
    ];
    const seen = { castles: 0, enPassant: 0, promotions: 0, plies: 0, pseudoEp: 0 };
    for (let game = 0; game < 60; game++) {
      const [fen, chess960] = starts[game % starts.length] as [string, boolean];
      const random = rng(7 + game);
      const pos = new Position(fen, { chess960 });
      for (let ply = 0; ply < 300; ply++) {
        const ucis = pos.legalMoves();
        if (ucis.length === 0) break;
        const sans = pos.legalMovesSan();
        // Prefer the rare moves when they are on offer.
        let i = random() < 0.5 ? sans.findIndex((s, k) => s.startsWith('O-O') || s.includes('=') || isEp(pos, ucis[k] as string, s)) : -1;
        if (i < 0) i = Math.floor(random() * ucis.length);
        const uci = ucis[i] as string;
        const san = sans[i] as string;
        if (san.startsWith('O-O')) seen.castles++;
        if (san.includes('=')) seen.promotions++;
        if (isEp(pos, uci, san)) seen.enPassant++;
        pos.play(uci);
        seen.plies++;
        const fenKey = keyFen(pos, uci);
        if (fenKey !== pos.fen()) seen.pseudoEp++;
        expect(pos.hash(), `game ${game} ply ${ply} ${fenKey}`).toBe(new Position(fenKey, { chess960 }).hash());
      }
    }
    expect(seen.castles).toBeGreaterThan(10);
    expect(seen.enPassant).toBeGreaterThan(10);
    expect(seen.promotions).toBeGreaterThan(10);
  });

  it('counts a pseudo-legal en-passant square (Polyglot rule) that FEN omits', () => {
    // After ...d7d5 the e5 pawn stands beside d5 but is pinned by the rook on e8.
    const pos = new Position('4r1k1/3p4/8/4P3/8/8/8/4K3 b - - 0 1').play('d7d5');
    expect(pos.fen()).toBe('4r1k1/8/8/3pP3/8/8/8/4K3 w - - 0 2');
    expect(pos.legalMoves()).not.toContain('e5d6');
    expect(pos.hash()).not.toBe(new Position(pos.fen()).hash());
    expect(pos.hash()).toBe(new Position('4r1k1/8/8/3pP3/8/8/8/4K3 w - d6 0 2').hash());
  });
});

function isEp(pos: Pos, uci: string, san: string): boolean {
  return /^[a-h]x/.test(san) && pos.pieceAt(uci.slice(2, 4)) === null;
}

/**
 * The FEN whose parse must give the same key: FEN writes the en-passant
 * square only when the capture is legal, the key counts it whenever a pawn
 * stands ready (Polyglot), so after a double pawn step the square goes in.
 */
function keyFen(pos: Pos, lastUci: string): string {
  const fen = pos.fen();
  const to = lastUci.slice(2, 4);
  const piece = pos.pieceAt(to);
  const fromRank = Number(lastUci[1]);
  const toRank = Number(lastUci[3]);
  if (piece?.type !== 'p' || Math.abs(toRank - fromRank) !== 2 || lastUci[0] !== lastUci[2]) return fen;
  const fields = fen.split(' ');
  fields[3] = (lastUci[0] as string) + String((fromRank + toRank) / 2);
  return fields.join(' ');
}

describe('status', () => {
  it('checkmate, stalemate, check', () => {
    const mate = new Position('rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3');
    expect([mate.isCheckmate(), mate.isStalemate(), mate.inCheck(), mate.isDraw(), mate.isGameOver()]).toEqual([
      true,
      false,
      true,
      false,
      true,
    ]);
    const stale = new Position('k7/8/1Q6/8/8/8/8/7K b - - 0 1');
    expect([stale.isCheckmate(), stale.isStalemate(), stale.inCheck(), stale.isDraw(), stale.isGameOver()]).toEqual([
      false,
      true,
      false,
      true,
      true,
    ]);
    const check = new Position('4k3/8/8/8/8/8/4r3/4K3 w - - 0 1');
    expect([check.isCheckmate(), check.isStalemate(), check.inCheck(), check.isDraw(), check.isGameOver()]).toEqual([
      false,
      false,
      true,
      false,
      false,
    ]);
    const start = new Position();
    expect([
      start.isCheckmate(),
      start.isStalemate(),
      start.isInsufficientMaterial(),
      start.isFiftyMoves(),
      start.isThreefoldRepetition(),
      start.isDraw(),
      start.isGameOver(),
    ]).toEqual([false, false, false, false, false, false, false]);
  });

  it('insufficient material as chess.js defines it', () => {
    const cases: [string, boolean][] = [
      ['8/8/8/8/8/8/8/k6K w - - 0 1', true],
      ['8/2n5/8/8/8/8/8/k6K w - - 0 1', true],
      ['8/8/8/8/8/8/8/k5BK w - - 0 1', true],
      ['8/b7/3B4/8/8/8/8/k6K w - - 0 1', true],
      ['8/b1B1b1B1/8/8/k7/7K/8/8 w - - 0 1', true],
      ['8/b2B4/8/8/8/8/8/k6K w - - 0 1', false],
      ['8/8/8/8/8/8/8/k4NNK w - - 0 1', false],
      ['8/8/8/8/8/8/8/k4NBK w - - 0 1', false],
      ['8/2p5/8/8/8/8/8/k6K w - - 0 1', false],
      ['8/2r5/8/8/8/8/8/k6K w - - 0 1', false],
    ];
    for (const [fen, expected] of cases) {
      expect(new Position(fen).isInsufficientMaterial(), fen).toBe(expected);
      expect(new Chess(fen).isInsufficientMaterial(), `chess.js ${fen}`).toBe(expected);
      expect(new Position(fen).isDraw(), fen).toBe(expected);
    }
  });

  it('fifty moves: the halfmove clock reaching 100', () => {
    const pos = new Position('4k3/8/8/8/8/8/R7/4K3 w - - 99 80');
    expect(pos.isFiftyMoves()).toBe(false);
    expect(pos.isDraw()).toBe(false);
    pos.play('a2a3');
    expect(pos.isFiftyMoves()).toBe(true);
    expect(pos.isDraw()).toBe(true);
    expect(pos.isGameOver()).toBe(true);
    pos.undo();
    expect(pos.isFiftyMoves()).toBe(false);
    // A capture resets the clock.
    const reset = new Position('4k3/8/8/8/8/8/r7/R3K3 w - - 99 80').play('a1a2');
    expect(reset.fen()).toBe('4k3/8/8/8/8/8/R7/4K3 b - - 0 80');
    expect(reset.isFiftyMoves()).toBe(false);
  });

  it('threefold repetition counts the start, survives clone, and undo takes it back', () => {
    const pos = new Position();
    const shuffle = ['g1f3', 'g8f6', 'f3g1', 'f6g8'];
    for (const m of shuffle) pos.play(m);
    expect(pos.isThreefoldRepetition()).toBe(false); // twice
    for (const m of shuffle.slice(0, 3)) pos.play(m);
    expect(pos.isThreefoldRepetition()).toBe(false); // Nf3 position: 1.Nf3... occurs... only with black to move
    pos.play('f6g8');
    expect(pos.isThreefoldRepetition()).toBe(true);
    expect(pos.isDraw()).toBe(true);
    expect(pos.isGameOver()).toBe(true);
    const copy = pos.clone();
    expect(copy.isThreefoldRepetition()).toBe(true);
    pos.undo();
    expect(pos.isThreefoldRepetition()).toBe(false);
    expect(copy.isThreefoldRepetition()).toBe(true);
    // A new Position from the same FEN has no history.
    expect(new Position(copy.fen()).isThreefoldRepetition()).toBe(false);
  });

  it('threefold: a capturable en-passant square makes a different position (as chess.js)', () => {
    const fen = '4k3/3p4/8/4P3/8/8/8/4K1N1 b - - 0 1';
    const moves = ['d5', 'Nf3', 'Ke7', 'Ng1', 'Ke8', 'Nf3', 'Ke7', 'Ng1', 'Ke8', 'Nf3', 'Ke7', 'Ng1', 'Ke8'];
    const pos = new Position(fen);
    const chess = new Chess(fen);
    const ours: boolean[] = [];
    const theirs: boolean[] = [];
    for (const m of moves) {
      pos.playSan(m);
      chess.move(m);
      ours.push(pos.isThreefoldRepetition());
      theirs.push(chess.isThreefoldRepetition());
    }
    // After ply 9 the board after 1...d5 has occurred three times, but the
    // first time with e5xd6 possible: not a repetition yet. Ply 10 repeats
    // the position after 2.Nf3 (plies 2, 6, 10).
    expect(ours).toEqual([false, false, false, false, false, false, false, false, false, true, true, true, true]);
    expect(ours).toEqual(theirs);
  });

  it('threefold: where chess.js differs — an en-passant square in the FEN that no pawn can use', () => {
    // chess.js keeps the FEN's e3 in its position key although no black pawn
    // can capture there, so it sees the start position as different from
    // its later repetitions. Here, as in Polyglot, that square does not
    // count: the start is the same position as after the eighth move.
    const fen = '4k3/8/8/8/4P3/8/8/4K3 b - e3 0 1';
    const pos = new Position(fen);
    const chess = new Chess(fen);
    for (const m of ['Kd8', 'Kd1', 'Ke8', 'Ke1', 'Kd8', 'Kd1', 'Ke8', 'Ke1']) {
      pos.playSan(m);
      chess.move(m);
    }
    expect(pos.isThreefoldRepetition()).toBe(true);
    expect(chess.isThreefoldRepetition()).toBe(false);
    expect(pos.hash()).toBe(new Position(fen).hash());
  });
});

describe('board queries', () => {
  it('pieceAt and board() (rank 8 first, like chess.js)', () => {
    const pos = new Position();
    expect(pos.pieceAt('e1')).toEqual({ type: 'k', color: 'w' });
    expect(pos.pieceAt('d8')).toEqual({ type: 'q', color: 'b' });
    expect(pos.pieceAt('e4')).toBeNull();
    const board = pos.board();
    expect(board).toHaveLength(8);
    for (const row of board) expect(row).toHaveLength(8);
    expect(board[0]![0]).toEqual({ square: 'a8', type: 'r', color: 'b' });
    expect(board[7]![4]).toEqual({ square: 'e1', type: 'k', color: 'w' });
    expect(board[4]![4]).toBeNull();
    expect(board).toEqual(new Chess().board());
    pos.play('e2e4');
    expect(pos.pieceAt('e4')).toEqual({ type: 'p', color: 'w' });
    expect(pos.board()[4]![4]).toEqual({ square: 'e4', type: 'p', color: 'w' });
  });

  it('movesFrom and attackers', () => {
    const pos = new Position('r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1');
    expect(pos.movesFrom('e1')).toEqual(['e1c1', 'e1d1', 'e1f1', 'e1g1']);
    expect(pos.movesFrom('e4')).toEqual([]);
    expect(pos.movesFrom('a8')).toEqual([]); // black piece, white to move
    expect(pos.movesFrom('c4')).toEqual([]);
    // f7: black's own pieces e7, e8 (king) defend; white's knight on e5 attacks.
    expect(pos.attackers('f7', 'w')).toEqual(['e5']);
    expect(pos.attackers('f7', 'b')).toEqual(['e8', 'e7']);
    expect(pos.attackers('f7')).toEqual(['e5']); // default: the side to move
    const chess = new Chess(pos.fen());
    for (const sq of ['d5', 'e4', 'f6', 'c3', 'a6', 'h3', 'g2', 'd2', 'b4', 'e6']) {
      expect(pos.attackers(sq, 'w'), sq).toEqual(chess.attackers(sq as Square, 'w'));
      expect(pos.attackers(sq, 'b'), sq).toEqual(chess.attackers(sq as Square, 'b'));
    }
  });

  it('rejects bad squares and colours', () => {
    const pos = new Position();
    for (const bad of ['', 'e', 'e9', 'i1', 'E2', 'e22', 'a0']) {
      expect(() => pos.pieceAt(bad), bad).toThrow(RangeError);
      expect(() => pos.movesFrom(bad), bad).toThrow(RangeError);
      expect(() => pos.attackers(bad), bad).toThrow(RangeError);
    }
    expect(() => pos.pieceAt(12 as unknown as string)).toThrow(TypeError);
    expect(() => pos.attackers('e4', 'white' as never)).toThrow(TypeError);
  });
});

describe('Chess960', () => {
  it('castling UCI is king-takes-rook in Chess960 mode and king-two-squares in standard mode', () => {
    const fen = 'r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1';
    const standard = new Position(fen);
    const c960 = new Position(fen, { chess960: true });
    expect(standard.legalMoves()).toEqual(expect.arrayContaining(['e1g1', 'e1c1']));
    expect(standard.legalMoves()).not.toContain('e1h1');
    expect(c960.legalMoves()).toEqual(expect.arrayContaining(['e1h1', 'e1a1']));
    expect(c960.legalMoves()).not.toContain('e1g1');
    expect(standard.parseSan('O-O')).toBe('e1g1');
    expect(c960.parseSan('O-O')).toBe('e1h1');
    expect(c960.clone().play('e1h1').fen()).toBe(standard.clone().play('e1g1').fen());
    // e1g1 is accepted in Chess960 mode when it can only mean castling; history keeps the canonical form.
    expect(c960.clone().play('e1g1').history()).toEqual(['e1h1']);
  });

  it('reads X-FEN and Shredder-FEN; writes X-FEN unless a right needs the rook file', () => {
    // King g1, rooks f1 and h1: H and F are the outermost rooks on each side, so KQkq.
    const fischer = new Position('bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9', { chess960: true });
    expect(fischer.fen()).toBe('bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9');
    // A right for the inner of two rooks on one side needs its file (Shredder-FEN).
    const inner = new Position('r3k2r/8/8/8/8/8/8/4KR1R w Fa - 0 1', { chess960: true });
    expect(inner.fen()).toBe('r3k2r/8/8/8/8/8/8/4KR1R w Fq - 0 1');
    expect(inner.legalMoves()).toContain('e1f1');
    expect(inner.san('e1f1')).toBe('O-O');
    expect(inner.clone().play('e1f1').fen()).toBe('r3k2r/8/8/8/8/8/8/5RKR b q - 1 1');
    // Outermost rooks only: X-FEN letters, both on input and output.
    const xfen = '1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w KQkq - 0 1';
    expect(new Position(xfen, { chess960: true }).fen()).toBe(xfen);
    expect(new Position('1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1', { chess960: true }).fen()).toBe(xfen);
    expect(new Position('1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1', { chess960: true }).hash()).toBe(
      new Position(xfen, { chess960: true }).hash(),
    );
  });

  for (const suite of ['fischer.epd', 'tricky960.epd']) {
    it(`${suite}: perft through the JS API, every count <= 100000`, { timeout: 120_000 }, () => {
      let compared = 0;
      for (const line of readEpd(suite)) {
        const pos = new Position(line.fen, { chess960: true });
        const got: [number, number][] = [];
        const want: [number, number][] = [];
        for (const [depth, count] of line.counts) {
          if (count > 100_000n) continue;
          got.push([depth, pos.perft(depth)]);
          want.push([depth, Number(count)]);
          compared++;
        }
        expect(got, `${suite}:${line.line}`).toEqual(want);
        // divide agrees and lists the legal moves
        const d = pos.divide(2);
        expect(Object.keys(d), `${suite}:${line.line}`).toEqual(pos.legalMoves());
        expect(Object.values(d).reduce((a, b) => a + b, 0)).toBe(pos.perft(2));
      }
      expect(compared).toBeGreaterThan(10);
    });
  }

  it('standard suites read in Chess960 mode give the same counts (castling as king-takes-rook)', { timeout: 60_000 }, () => {
    for (const suite of STANDARD_SUITES) {
      if (suite === 'unreachable.epd') continue;
      for (const line of readEpd(suite)) {
        const d3 = line.counts.get(3) ?? line.counts.get(2);
        if (d3 === undefined || d3 > 200_000n) continue;
        const depth = line.counts.has(3) ? 3 : 2;
        expect(new Position(line.fen, { chess960: true }).perft(depth), `${suite}:${line.line}`).toBe(Number(d3));
      }
    }
  });
});
