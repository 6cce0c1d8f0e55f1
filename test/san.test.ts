// SAN through the JS API: san / parseSan / playSan / legalMovesSan.
// - Round trips on every legal move of every perft-suite position (the
//   standard suites and both Chess960 suites), with the PGN spellings
//   parseSan accepts, and the +/# suffix checked against the position after
//   the move.
// - chessops' makeSan as an independent oracle on the same positions
//   (including Chess960 castling, which chess.js cannot play).
// - Tables of exact outputs and of accepted / rejected inputs.
import { describe, expect, it } from 'vitest';
import { Chess } from 'chessops/chess';
import { parseFen } from 'chessops/fen';
import { makeSan } from 'chessops/san';
import { parseUci } from 'chessops/util';
import { api, readEpd, STANDARD_SUITES } from './helpers';

const { Position, IllegalMoveError } = api;
type Pos = InstanceType<typeof Position>;

const SUITES: [string, boolean][] = [
  ...STANDARD_SUITES.map((s): [string, boolean] => [s, false]),
  ['fischer.epd', true],
  ['tricky960.epd', true],
];

const SAN_SHAPE = /^(?:O-O(?:-O)?|[NBRQK][a-h]?[1-8]?x?[a-h][1-8]|[a-h](?:x[a-h])?[1-8](?:=[NBRQ])?)[+#]?$/;

/** The other spellings of a SAN string parseSan must accept for the same move. */
function variants(pos: Pos, uci: string, san: string): string[] {
  const out = [san + '!', san + '?', san + '!!', san + '??', san + '!?', san + '?!'];
  const bare = san.replace(/[+#]$/, '');
  const suffix = san.slice(bare.length);
  if (bare.startsWith('O-O')) out.push(bare.replaceAll('O', '0') + suffix);
  if (suffix === '') out.push(san + '+'); // a wrong check mark is tolerated
  if (bare.includes('=')) out.push(bare.replace('=', '') + suffix);
  if (/^[a-h]x/.test(bare) && pos.pieceAt(uci.slice(2, 4)) === null) out.push(`${bare} e.p.${suffix}`);
  return out;
}

function afterMoveSuffix(pos: Pos, uci: string): string {
  pos.play(uci);
  const suffix = pos.isCheckmate() ? '#' : pos.inCheck() ? '+' : '';
  pos.undo();
  return suffix;
}

/** chessops' SAN of our UCI move, or null when chessops refuses the position. */
function chessopsSans(fen: string, chess960: boolean, ucis: string[]): string[] | null {
  const setup = parseFen(fen);
  if (setup.isErr) return null;
  const pos = Chess.fromSetup(setup.value);
  if (pos.isErr) return null;
  return ucis.map((uci) => {
    const move = parseUci(uci);
    if (move === undefined || !('from' in move)) throw new Error(`bad UCI ${uci}`);
    // chessops castles king-takes-rook, like this package's Chess960 mode.
    if (!chess960 && pos.value.board.get(move.from)?.role === 'king' && Math.abs(move.to - move.from) === 2) {
      move.to = move.to > move.from ? move.from + 3 : move.from - 4;
    }
    return makeSan(pos.value, move);
  });
}

describe('SAN on every legal move of the perft suites', () => {
  for (const [suite, chess960] of SUITES) {
    const lines = readEpd(suite);
    it(`${suite}: round trips, suffixes and chessops agree`, { timeout: 120_000 }, () => {
      let moves = 0;
      let refused = 0;
      for (const line of lines) {
        const pos = new Position(line.fen, { chess960 });
        const where = `${suite}:${line.line}`;
        const ucis = pos.legalMoves();
        const sans = pos.legalMovesSan();
        expect(sans.length, where).toBe(ucis.length);
        expect(new Set(sans).size, `${where} unique`).toBe(sans.length);
        // Collected per position and compared once: expect() per move is slow.
        const viaSan = ucis.map((uci) => pos.san(uci));
        const parsed = sans.map((san) => pos.parseSan(san));
        const suffixes = ucis.map((uci) => afterMoveSuffix(pos, uci));
        expect(viaSan, where).toEqual(sans);
        expect(parsed, where).toEqual(ucis);
        expect(
          sans.map((san) => (san.endsWith('#') ? '#' : san.endsWith('+') ? '+' : '')),
          where,
        ).toEqual(suffixes);
        for (const san of sans) {
          if (!SAN_SHAPE.test(san)) expect(san, where).toMatch(SAN_SHAPE);
        }
        // The PGN spellings: every fourth move.
        for (let i = 0; i < ucis.length; i += 4) {
          const uci = ucis[i] as string;
          const spellings = variants(pos, uci, sans[i] as string);
          expect(
            spellings.map((v) => pos.parseSan(v)),
            `${where} ${sans[i]}`,
          ).toEqual(spellings.map(() => uci));
        }
        moves += ucis.length;
        if (suite !== 'unreachable.epd') {
          const theirs = chessopsSans(line.fen, chess960, ucis);
          if (theirs === null) refused++;
          else expect(sans, `${where} vs chessops`).toEqual(theirs);
        }
      }
      expect(moves).toBeGreaterThan(lines.length * 5);
      expect(refused).toBe(0);
    });
  }
});

const TWO_KNIGHTS = '4k3/8/8/8/8/5N2/3n4/1N2K3 w - - 0 1';
const PROMOTE = '1n5k/P7/8/8/8/8/8/K7 w - - 0 1';
const EP = 'rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3';
const CASTLE = 'r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1';
const CHESS960 = '1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1';

describe('SAN output', () => {
  it('writes what chess.js writes for these moves', () => {
    const cases: [string, string, string][] = [
      [TWO_KNIGHTS, 'b1d2', 'Nbxd2'],
      [TWO_KNIGHTS, 'f3d2', 'Nfxd2'],
      [TWO_KNIGHTS, 'e1d2', 'Kxd2'],
      ['4k3/8/8/R7/8/8/8/R3K3 w - - 0 1', 'a1a3', 'R1a3'],
      ['4k3/8/8/8/8/Q7/8/Q1Q1K3 w - - 0 1', 'a1b2', 'Qa1b2'],
      [PROMOTE, 'a7a8q', 'a8=Q'],
      ['7k/P7/8/8/8/8/8/K7 w - - 0 1', 'a7a8q', 'a8=Q+'],
      [PROMOTE, 'a7b8n', 'axb8=N'],
      ['k7/2P5/1K6/8/8/8/8/8 w - - 0 1', 'c7c8q', 'c8=Q#'],
      [EP, 'e5f6', 'exf6'],
      [CASTLE, 'e1g1', 'O-O'],
      [CASTLE, 'e1c1', 'O-O-O'],
      ['3k4/8/8/8/8/8/8/R3K2R w KQ - 0 1', 'e1c1', 'O-O-O+'],
      ['rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2', 'd8h4', 'Qh4#'],
    ];
    for (const [fen, uci, san] of cases) expect(new Position(fen).san(uci), `${fen} ${uci}`).toBe(san);
  });

  it('Chess960: castling is O-O / O-O-O from king-takes-rook UCI', () => {
    // King e1, rooks b1 and g1: both castlings are legal at once.
    const pos = new Position(CHESS960, { chess960: true });
    expect(pos.legalMoves()).toEqual(expect.arrayContaining(['e1g1', 'e1b1']));
    expect(pos.san('e1g1')).toBe('O-O');
    expect(pos.san('e1b1')).toBe('O-O-O');
    expect(pos.parseSan('O-O-O')).toBe('e1b1');
    expect(pos.parseSan('0-0')).toBe('e1g1');
    pos.playSan('O-O');
    expect(pos.fen()).toBe('1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R3RK1 b kq - 1 1');
    expect(pos.history()).toEqual(['e1g1']);
    pos.playSan('O-O-O');
    expect(pos.fen()).toBe('2kr2r1/pppppppp/8/8/8/8/PPPPPPPP/1R3RK1 w - - 2 2');
    expect(pos.history()).toEqual(['e1g1', 'e8b8']);
  });

  it('legalMovesSan is empty in checkmate and stalemate', () => {
    expect(new Position('rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3').legalMovesSan()).toEqual([]);
    expect(new Position('k7/8/1Q6/8/8/8/8/7K b - - 0 1').legalMovesSan()).toEqual([]);
  });
});

describe('SAN input', () => {
  it('accepts PGN spellings', () => {
    const cases: [string, string, string][] = [
      [CASTLE, 'O-O', 'e1g1'],
      [CASTLE, '0-0', 'e1g1'],
      [CASTLE, '0-0-0', 'e1c1'],
      [CASTLE, 'O-O+', 'e1g1'],
      [CASTLE, 'O-O-O!?', 'e1c1'],
      [PROMOTE, 'a8=Q', 'a7a8q'],
      [PROMOTE, 'a8Q', 'a7a8q'],
      [PROMOTE, 'a8=q', 'a7a8q'],
      [PROMOTE, 'axb8=R', 'a7b8r'],
      [PROMOTE, 'axb8N??', 'a7b8n'],
      [EP, 'exf6', 'e5f6'],
      [EP, 'exf6 e.p.', 'e5f6'],
      [EP, 'exf6e.p.', 'e5f6'],
      [EP, 'Nf3!', 'g1f3'],
      [EP, 'Ng1f3', 'g1f3'],
      [TWO_KNIGHTS, 'Nbd2', 'b1d2'],
      [TWO_KNIGHTS, 'Nbxd2', 'b1d2'],
      [TWO_KNIGHTS, 'N3d2', 'f3d2'],
      [TWO_KNIGHTS, 'Nfd2#', 'f3d2'],
      ['r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3', 'Nc3', 'b1c3'],
    ];
    for (const [fen, san, uci] of cases) {
      expect(new Position(fen).parseSan(san), `${fen} ${san}`).toBe(uci);
      const pos = new Position(fen);
      expect(pos.playSan(san)).toBe(pos);
      expect(pos.history()).toEqual([uci]);
    }
  });

  it('rejects ambiguous, illegal and malformed SAN with IllegalMoveError, position unchanged', () => {
    const cases: [string, string, RegExp][] = [
      [TWO_KNIGHTS, 'Nd2', /ambiguous/],
      [TWO_KNIGHTS, 'Nxd2', /ambiguous/],
      [TWO_KNIGHTS, 'Nb5', /illegal/],
      [TWO_KNIGHTS, 'Qd2', /illegal/],
      [TWO_KNIGHTS, 'O-O', /illegal/],
      [PROMOTE, 'a8', /illegal/],
      [PROMOTE, 'a8=K', /malformed/],
      [EP, 'd6', /illegal/],
      [EP, 'exd6', /illegal/],
      [EP, '', /malformed/],
      [EP, 'e2e4', /illegal|malformed/],
      [EP, 'Nf3!!!', /malformed/],
      [EP, 'O-0', /malformed/],
      [EP, 'x'.repeat(200), /malformed/],
      [EP, 'Nf3\u00e9', /malformed/],
    ];
    for (const [fen, san, message] of cases) {
      const pos = new Position(fen);
      for (const call of [() => pos.parseSan(san), () => pos.playSan(san)]) {
        let thrown: unknown;
        try {
          call();
        } catch (e) {
          thrown = e;
        }
        expect(thrown, `${fen} ${JSON.stringify(san)}`).toBeInstanceOf(IllegalMoveError);
        expect((thrown as InstanceType<typeof IllegalMoveError>).move).toBe(san);
        expect((thrown as Error).message, san).toMatch(message);
      }
      expect(pos.fen()).toBe(new Position(fen).fen());
      expect(pos.history()).toEqual([]);
    }
  });

  it('rejects non-strings with TypeError; san() rejects illegal UCI', () => {
    const pos = new Position();
    expect(() => pos.parseSan(1 as unknown as string)).toThrow(TypeError);
    expect(() => pos.playSan(undefined as unknown as string)).toThrow(TypeError);
    expect(() => pos.san(null as unknown as string)).toThrow(TypeError);
    expect(() => pos.san('e2e5')).toThrow(IllegalMoveError);
    expect(() => pos.san('Nf3')).toThrow(/malformed/);
  });

  it('replays a game given in SAN and gives the same SAN back', () => {
    // The Opera Game (Morphy v Duke Karl / Count Isouard, Paris 1858).
    const game =
      'e4 e5 Nf3 d6 d4 Bg4 dxe5 Bxf3 Qxf3 dxe5 Bc4 Nf6 Qb3 Qe7 Nc3 c6 Bg5 b5 Nxb5 cxb5 Bxb5+ Nbd7 O-O-O Rd8 Rxd7 Rxd7 Rd1 Qe6 Bxd7+ Nxd7 Qb8+ Nxb8 Rd8#'.split(
        ' ',
      );
    const pos = new Position();
    const replay = new Position();
    for (const san of game) {
      const uci = pos.parseSan(san);
      expect(pos.san(uci)).toBe(san);
      pos.playSan(san);
      replay.play(uci);
    }
    expect(pos.isCheckmate()).toBe(true);
    expect(pos.isGameOver()).toBe(true);
    expect(pos.fen()).toBe('1n1Rkb1r/p4ppp/4q3/4p1B1/4P3/8/PPP2PPP/2K5 b k - 1 17');
    expect(replay.fen()).toBe(pos.fen());
    expect(pos.history()).toEqual(replay.history());
  });
});
