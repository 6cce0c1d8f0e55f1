// The Position API: defaults, move formats, play/undo/history, clone
// independence, perft/divide argument rules and engineInfo.
import { describe, expect, it } from 'vitest';
import { makeFen, parseFen } from 'chessops/fen';
import { api, readEpd } from './helpers';

const { Position, START_FEN, engineInfo } = api;

const KIWIPETE = 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1';

describe('Position basics', () => {
  it('defaults to the standard start position', () => {
    const pos = new Position();
    expect(pos.fen()).toBe(START_FEN);
    expect(pos.turn()).toBe('w');
    expect(pos.inCheck()).toBe(false);
    expect(pos.chess960).toBe(false);
    expect(pos.legalMoves()).toEqual([
      'a2a3',
      'a2a4',
      'b1a3',
      'b1c3',
      'b2b3',
      'b2b4',
      'c2c3',
      'c2c4',
      'd2d3',
      'd2d4',
      'e2e3',
      'e2e4',
      'f2f3',
      'f2f4',
      'g1f3',
      'g1h3',
      'g2g3',
      'g2g4',
      'h2h3',
      'h2h4',
    ]);
  });

  it('keeps the list the constructor made for its own position only', () => {
    // The FEN constructor lists the moves in the same native call and keeps
    // them for the first legalMoves(); every other position must ask afresh.
    const fresh = (fen: string) => new Position(fen).legalMoves();
    const kiwipete = new Position(KIWIPETE);
    const start = new Position(START_FEN);
    expect(kiwipete.legalMoves()).toEqual(fresh(KIWIPETE));
    expect(kiwipete.legalMoves()).toHaveLength(48);
    expect(start.legalMoves()).toHaveLength(20);
    expect(() => new Position('8/8/8 w - - 0 1')).toThrow();
    expect(start.legalMoves()).toHaveLength(20);
    // Played, undone and cloned positions give their own lists.
    start.play('e2e4');
    expect(start.legalMoves()).toHaveLength(20);
    expect(start.legalMoves()).toContain('e7e5');
    start.undo();
    expect(start.legalMoves()).toContain('e2e4');
    const clone = kiwipete.clone();
    kiwipete.play('e1g1');
    expect(clone.legalMoves()).toEqual(fresh(KIWIPETE));
    expect(kiwipete.legalMoves()).toEqual(fresh('r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R4RK1 b kq - 1 1'));
    // A Chess960 position lists castling as king takes rook.
    const x960 = new Position(KIWIPETE, { chess960: true });
    expect(x960.legalMoves()).toContain('e1h1');
    expect(new Position(KIWIPETE).legalMoves()).toContain('e1g1');
  });

  it('round-trips FEN and accepts 4-field EPD with default clocks', () => {
    expect(new Position(KIWIPETE).fen()).toBe(KIWIPETE);
    expect(new Position('8/8/8/8/8/8/8/K6k b - -').fen()).toBe('8/8/8/8/8/8/8/K6k b - - 0 1');
  });

  it('reports the side to move and check', () => {
    const pos = new Position('4k3/8/8/8/8/8/4r3/4K3 w - - 0 1');
    expect(pos.turn()).toBe('w');
    expect(pos.inCheck()).toBe(true);
    pos.play('e1e2');
    expect(pos.turn()).toBe('b');
    expect(pos.inCheck()).toBe(false);
  });

  it('reports the move number from the FEN, one more after each Black move', () => {
    const pos = new Position('4k3/8/8/8/8/8/8/4K3 w - - 0 41');
    expect(pos.moveNumber()).toBe(41);
    pos.play('e1e2');
    expect(pos.moveNumber()).toBe(41);
    pos.play('e8e7');
    expect(pos.moveNumber()).toBe(42);
    pos.undo();
    expect(pos.moveNumber()).toBe(41);
    expect(new Position().moveNumber()).toBe(1);
    expect(new Position('8/8/8/8/8/8/8/K6k b - -').moveNumber()).toBe(1);
  });

  it('writes castling as e1g1 and e1c1, promotions with a piece letter', () => {
    const castle = new Position(KIWIPETE).legalMoves();
    expect(castle).toContain('e1g1');
    expect(castle).toContain('e1c1');
    expect(castle).not.toContain('e1h1');
    const pos = new Position(KIWIPETE).play('e1g1');
    expect(pos.fen()).toBe('r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R4RK1 b kq - 1 1');

    const promo = new Position('8/4P3/8/8/8/8/k7/4K3 w - - 0 1').legalMoves();
    expect(promo.filter((m) => m.startsWith('e7'))).toEqual(['e7e8b', 'e7e8n', 'e7e8q', 'e7e8r']);
    expect(new Position('8/4P3/8/8/8/8/k7/4K3 w - - 0 1').play('e7e8n').fen()).toBe('4N3/8/8/8/8/8/k7/4K3 b - - 0 1');
  });

  it("writes EPD: the FEN's four position fields, as chessops' makeFen with epd", () => {
    expect(new Position().epd()).toBe('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -');
    // A capturable en passant square is kept, an uncapturable one dropped, as fen() does.
    const pos = new Position().play('e2e4').play('a7a6').play('e4e5').play('d7d5');
    expect(pos.epd()).toBe('rnbqkbnr/1pp1pppp/p7/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6');
    expect(new Position().play('e2e4').epd()).toBe('rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -');
    // Chess960 rights by rook file where KQkq would be ambiguous.
    const shredder = new Position('1rk2r2/8/8/8/8/8/8/1RK2R2 w FBfb - 12 40', { chess960: true });
    expect(shredder.epd()).toBe(shredder.fen().split(' ').slice(0, 4).join(' '));
    for (const { fen } of readEpd('perftsuite.epd')) {
      const expected = makeFen(parseFen(fen).unwrap(), { epd: true });
      expect(new Position(fen).epd(), fen).toBe(expected);
    }
  });

  it('plays en passant', () => {
    const pos = new Position().play('e2e4').play('a7a6').play('e4e5').play('d7d5');
    expect(pos.fen()).toBe('rnbqkbnr/1pp1pppp/p7/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3');
    expect(pos.isLegal('e5d6')).toBe(true);
    pos.play('e5d6');
    expect(pos.fen()).toBe('rnbqkbnr/1pp1pppp/p2P4/8/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 3');
  });

  it('play returns this for chaining, undo returns the moves in reverse, then null', () => {
    const pos = new Position();
    expect(pos.play('e2e4')).toBe(pos);
    pos.play('e7e5').play('g1f3');
    expect(pos.history()).toEqual(['e2e4', 'e7e5', 'g1f3']);
    expect(pos.undo()).toBe('g1f3');
    expect(pos.undo()).toBe('e7e5');
    expect(pos.undo()).toBe('e2e4');
    expect(pos.undo()).toBeNull();
    expect(pos.fen()).toBe(START_FEN);
    expect(pos.history()).toEqual([]);
  });

  it('undo restores every detail, clocks and castling rights included', () => {
    const pos = new Position(KIWIPETE);
    const fens = [pos.fen()];
    for (const m of ['e1g1', 'e8c8', 'f3f6', 'b4c3', 'e5f7']) {
      pos.play(m);
      fens.push(pos.fen());
    }
    for (let i = fens.length - 1; i > 0; i--) {
      expect(pos.fen()).toBe(fens[i]);
      pos.undo();
    }
    expect(pos.fen()).toBe(KIWIPETE);
  });

  it('positions without history share none: every way to start one, then to add to it', () => {
    const fresh = (): InstanceType<typeof Position>[] => [
      new Position(),
      new Position(KIWIPETE),
      new Position().clone(),
      new Position(KIWIPETE).clone(),
    ];
    const writes: ((pos: InstanceType<typeof Position>) => unknown)[] = [
      (pos) => pos.play(pos.legalMoves()[0]!),
      (pos) => pos.playSan(pos.legalMovesSan()[0]!),
      (pos) => pos.playLine([pos.legalMoves()[0]!]),
      (pos) => pos.playSanLine([pos.legalMovesSan()[0]!]),
    ];
    for (const write of writes) {
      const positions = fresh();
      const [first, ...others] = positions;
      write(first!);
      expect(first!.history()).toHaveLength(1);
      for (const other of others) {
        expect(other.history()).toEqual([]);
        expect(other.undo()).toBeNull();
      }
    }
  });

  it('clone is independent of the original, history included', () => {
    const a = new Position().play('e2e4');
    const b = a.clone();
    expect(b.fen()).toBe(a.fen());
    expect(b.history()).toEqual(['e2e4']);
    b.play('c7c5');
    expect(a.fen()).toBe('rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1');
    expect(a.history()).toEqual(['e2e4']);
    // Undo on the original, then new moves, must not disturb the clone's history.
    expect(a.undo()).toBe('e2e4');
    a.play('d2d4').play('d7d5');
    expect(b.undo()).toBe('c7c5');
    expect(b.undo()).toBe('e2e4');
    expect(b.fen()).toBe(START_FEN);
    expect(a.fen()).toBe('rnbqkbnr/ppp1pppp/8/3p4/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 0 2');
    expect(a.history()).toEqual(['d2d4', 'd7d5']);
  });

  it('legalMoves returns a fresh array each call', () => {
    const pos = new Position();
    const first = pos.legalMoves();
    first.length = 0;
    expect(pos.legalMoves()).toHaveLength(20);
    expect(pos.legalMoves()).not.toBe(pos.legalMoves());
  });

  it('accepts the chess960 option and reserves it for Chess960 castling', () => {
    const pos = new Position(undefined, { chess960: true });
    expect(pos.chess960).toBe(true);
    expect(pos.perft(3)).toBe(8902);
    expect(pos.clone().chess960).toBe(true);
    expect(new Position(undefined, {}).chess960).toBe(false);
  });
});

describe('positions made from a FEN', () => {
  it('keep their position whatever is parsed after them, clones made before first use included', () => {
    const fens = readEpd('perftsuite.epd').map(({ fen }) => fen);
    // More positions than any backend keeps unread (the wasm engine holds its newest ones).
    const made = Array.from({ length: 500 }, (_, i) => new Position(fens[(i * 7) % fens.length]));
    const clones = made.map((p, i) => (i % 3 === 0 ? p.clone() : undefined));
    made.forEach((pos, i) => {
      const fen = fens[(i * 7) % fens.length]!;
      const want = new Position(fen);
      expect(pos.fen(), `${i}`).toBe(want.fen());
      expect(pos.legalMoves()).toEqual(want.legalMoves());
      if (clones[i]) expect(clones[i]!.fen()).toBe(want.fen());
    });
    // Read in the other order, newest first.
    const again = fens.map((fen) => new Position(fen));
    for (let i = again.length - 1; i >= 0; i--) expect(again[i]!.perft(1)).toBe(new Position(fens[i]).legalMoves().length);
  });
});

describe('perft and divide', () => {
  it('counts the start position', () => {
    const pos = new Position();
    expect([0, 1, 2, 3, 4].map((d) => pos.perft(d))).toEqual([1, 20, 400, 8902, 197281]);
    expect(pos.perftBig(4)).toBe(197281n);
    expect(pos.divide(0)).toEqual({});
    expect(pos.divideBig(0)).toEqual({});
  });

  it('divide keys are sorted UCI and values add up to perft', () => {
    const pos = new Position(KIWIPETE);
    const d = pos.divide(2);
    expect(Object.keys(d)).toEqual(pos.legalMoves());
    expect(Object.values(d).reduce((a, b) => a + b, 0)).toBe(2039);
    expect(d['e1g1']).toBe(new Position(KIWIPETE).play('e1g1').perft(1));
  });

  it.each([-1, 21, 1.5, NaN, Infinity, -Infinity, '3', 3n, null, undefined, {}])(
    'rejects depth %s with a RangeError before doing any work',
    (depth) => {
      const pos = new Position();
      const bad = depth as unknown as number;
      expect(() => pos.perft(bad)).toThrow(RangeError);
      expect(() => pos.perftBig(bad)).toThrow(RangeError);
      expect(() => pos.divide(bad)).toThrow(RangeError);
      expect(() => pos.divideBig(bad)).toThrow(RangeError);
      expect(() => pos.perft(bad)).toThrow(/depth must be an integer from 0 to 20/);
      expect(pos.fen()).toBe(START_FEN);
    },
  );

  it('answers depth 20 validation instantly on a position with no moves', () => {
    // Checkmated: every depth >= 1 is 0, so the largest allowed depth runs.
    const mate = new Position('rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3');
    expect(mate.perft(20)).toBe(0);
    expect(mate.perft(0)).toBe(1);
  });
});

describe('engineInfo', () => {
  it('describes the loaded engine', () => {
    const info = engineInfo();
    expect(info.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(['pext', 'magic']).toContain(info.sliders);
    // Node-API 8 for the addon; the WebAssembly build has no Node-API.
    expect(info.napi).toBe(info.backend === 'native' ? 8 : 0);
    expect(info.backend).toBe(process.env['CHESS_NATIVE_BACKEND'] === 'wasm' ? 'wasm' : 'native');
    expect(['pext', 'bmi2-magic', 'popcnt-magic', 'arm64-magic', 'base-magic']).toContain(info.impl);
    expect(info.sliders === 'pext').toBe(info.impl === 'pext');
    expect(info.initMs).toBeGreaterThanOrEqual(0);
    expect(Number.isFinite(info.initMs)).toBe(true);
    expect(info.perftKeySet).toBe('xorshift64star-v1-6a09e667f3bcc909');
  });
});
