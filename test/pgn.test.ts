// The PGN reader and writer: fields, every tolerance and error case, modes,
// Chess960, null moves, hostile input and round trips.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { api, ROOT } from './helpers';

const { parsePgn, writePgn, toPgn, Position } = api;
const require = createRequire(import.meta.url);
const { backend, PGN, SLOTS } = require('../dist/core/boundary.js') as typeof import('../src/core/boundary');
const { batchesOf, visitRecords } = require('../dist/pgn/records.js') as typeof import('../src/pgn/records');
const fixture = (name: string) => readFileSync(path.join(ROOT, 'test', 'fixtures', name), 'utf8');
const ucis = (g: { moves(): { uci: string }[] }) => g.moves().map((m) => m.uci);

/** A comment as written before wrapping: the line breaks the writer put in were spaces. */
const unwrapped = (comment: string) => comment.replace(/\n/g, ' ');

type Game = InstanceType<typeof api.Game>;
type Tree = { comments: readonly string[]; startingComments?: readonly string[]; children: readonly Tree[] };

function commentsOf(node: Tree): string[] {
  return [...(node.startingComments ?? []), ...node.comments, ...node.children.flatMap(commentsOf)];
}

/**
 * `back`, read from what writePgn wrote of `g`, is the same game, its comments
 * the same text but for spaces turned into line breaks where the writer wrapped.
 */
function expectSameUpToWraps(back: Game, g: Game): void {
  const noComments = (root: Tree) =>
    JSON.parse(JSON.stringify(root, (k, v: unknown) => (k === 'comments' || k === 'startingComments' ? undefined : v))) as unknown;
  expect(noComments(back.root)).toEqual(noComments(g.root));
  expect(back.headers).toEqual(g.headers);
  expect(back.result).toBe(g.result);
  const before = commentsOf(g.root);
  const after = commentsOf(back.root);
  expect(after.length).toBe(before.length);
  after.forEach((c, i) => {
    const original = before[i]!;
    expect(c.length).toBe(original.length);
    for (let j = 0; j < c.length; j++) if (c[j] !== original[j]) expect([original[j], c[j]]).toEqual([' ', '\n']);
  });
}

describe('parsePgn fields', () => {
  const text = `[Event "E"]\n[Site "S"]\n[Custom "x"]\n[Result "0-1"]\n\n{ before } 1. e4 { [%clk 0:03:00] [%eval 0.17] } 1... e5 { [%eval #-3,22] [%emt 0:00:04.5] [%csl Ga1,Rb2] [%cal Ye2e4] } 2. Nf3 $1 ! ( 2. f4 { gambit } exf4 ( { alt } 2... d5 ) ) 2... Nc6 0-1\n`;
  const [game] = parsePgn(text);
  it('keeps headers in file order', () => {
    expect(Object.entries(game!.headers)).toEqual([
      ['Event', 'E'],
      ['Site', 'S'],
      ['Custom', 'x'],
      ['Result', '0-1'],
    ]);
    expect(game!.result).toBe('0-1');
    expect(game!.initialFen).toBe(api.START_FEN);
    expect(game!.chess960).toBe(false);
    expect(game!.errors).toEqual([]);
  });

  it('names every tag by its own bytes, over more names than games repeat, in any order', () => {
    // Names of one length that differ in one byte, and more of them than a
    // table of names shared by the games holds: each read back as written.
    const names = Array.from({ length: 700 }, (_, i) => `T${String(i).padStart(3, '0')}`);
    const games = names.map((n, i) => `[${n} "${i}"]\n[${names[(i * 7) % names.length]} "v"]\n\n*\n`);
    const read = parsePgn(games.join('\n') + games.reverse().join('\n'));
    expect(read).toHaveLength(1400);
    read.forEach((g, k) => {
      const i = k < 700 ? k : 1399 - k;
      expect(Object.keys(g.headers)).toEqual([...new Set([names[i], names[(i * 7) % names.length]])]);
    });
  });
  it('reads the mainline with comments, commands and NAGs', () => {
    const moves = game!.moves();
    expect(moves.map((m) => m.san)).toEqual(['e4', 'e5', 'Nf3', 'Nc6']);
    expect(moves[0]).toMatchObject({ uci: 'e2e4', clock: 180, eval: { pawns: 0.17 }, comments: ['[%clk 0:03:00] [%eval 0.17]'] });
    expect(moves[1]).toMatchObject({ eval: { mate: -3, depth: 22 }, emt: 4.5 });
    expect(moves[1]!.shapes).toEqual([
      { color: 'green', from: 'a1', to: 'a1' },
      { color: 'red', from: 'b2', to: 'b2' },
      { color: 'yellow', from: 'e2', to: 'e4' },
    ]);
    expect(moves[2]!.nags).toEqual([1, 1]);
  });
  it('reads a clock fraction in the last part only', () => {
    const clock = (c: string) => parsePgn(`1. e4 { [%clk ${c}] } *`)[0]!.moves()[0]!.clock;
    expect([clock('1:55:05.5'), clock('55:05'), clock('5.25'), clock('0:00:04.')]).toEqual([6905.5, 3305, 5.25, undefined]);
    expect([clock('1.55:05'), clock('1:55.5:05'), clock('0:1.5:00'), clock('1:2:3:4'), clock('1::05')]).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });
  it('builds the tree, mainline first, with starting comments', () => {
    const root = game!.root;
    expect(root.comments).toEqual(['before']);
    const nf3 = root.children[0]!.children[0]!.children;
    expect(nf3.map((n) => n.san)).toEqual(['Nf3', 'f4']);
    expect(nf3[1]!.comments).toEqual(['gambit']);
    expect(nf3[1]!.children.map((n) => n.san)).toEqual(['exf4', 'd5']);
    expect(nf3[1]!.children[1]!.startingComments).toEqual(['alt']);
  });
  it("gives the same moves in any access order, with a NAG before a variation's first move", () => {
    // It belongs to the node the variation branches from: 2. Nf3, also for the
    // nested variation that branches before 2... Nf6; 2... Nf6 for the last one.
    const text = '1. e4 e5 2. Nf3 Nc6 (2... d6) ($142 2... Nf6 ($10 2... a6) 3. d4 ($1 3. Nc3)) 3. Bb5 *';
    const shape = (moves: readonly { san: string; nags: readonly number[] }[]) => moves.map((m) => [m.san, [...m.nags]]);
    const movesFirst = shape(parsePgn(text)[0]!.moves());
    const [g] = parsePgn(text);
    expect(g!.errors).toEqual([]);
    void g!.root;
    expect(movesFirst).toEqual(shape(g!.moves()));
    expect(movesFirst).toEqual([
      ['e4', []],
      ['e5', []],
      ['Nf3', [142, 10]],
      ['Nc6', []],
      ['Bb5', []],
    ]);
    expect(g!.root.children[0]!.children[0]!.children[0]!.children[2]!.nags).toEqual([1]);
  });
  it('gives positions at the end and at any node', () => {
    expect(game!.position().fen()).toBe('r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3');
    const d5 = game!.root.children[0]!.children[0]!.children[1]!.children[1]!;
    expect(game!.position(d5).fen()).toBe('rnbqkbnr/ppp2ppp/8/3pp3/4PP2/8/PPPP2PP/RNBQKBNR w KQkq - 0 3');
    expect(game!.position(d5).history()).toEqual(['e2e4', 'e7e5', 'f2f4', 'd7d5']);
  });
});

describe('tolerance', () => {
  it('reads the hand-written tolerance file', () => {
    const games = parsePgn(fixture('pgn-tolerance.pgn'));
    expect(games.map((g) => g.headers['Event'])).toEqual(['Tolerance', 'No moves', 'Long algebraic']);
    const [a, b, c] = games;
    expect(a!.errors).toEqual([]);
    expect(a!.headers['White']).toBe('A "quoted" \\ name');
    expect(a!.comments).toEqual(['a line comment before any game', 'Opening comment']);
    expect(
      a!
        .moves()
        .map((m) => m.san)
        .slice(0, 8),
    ).toEqual(['e4', 'e5', 'Nf3', 'Nc6', 'Bb5', 'Nf6', 'O-O', 'Nxe4']);
    expect(a!.moves()[4]!.nags).toEqual([6]);
    expect(a!.moves()[16]!.nags).toEqual([3, 14]);
    expect(b!.moves()).toEqual([]);
    expect(b!.result).toBe('*');
    expect(c!.errors).toEqual([]);
    expect(ucis(c!)).toEqual(['e2e4', 'e7e5', 'g1f3', 'b8c6', 'f1c4', '0000', 'd2d4', 'e5d4', 'e1g1']);
    expect(c!.moves()[5]!.san).toBe('--');
    expect(c!.position().fen()).toBe('r1bqkbnr/pppp1ppp/2n5/8/2BpP3/5N2/PPP2PPP/RNBQ1RK1 b kq - 1 5');
  });
  it('accepts a BOM, CRLF, blank lines in movetext and missing tags and results', () => {
    const games = parsePgn('\uFEFF[Event "A"]\r\n\r\n1. e4\r\n\r\ne5 2. Nf3\r\n\r\n[Event "B"]\r\n1. d4 d5');
    expect(games.map((g) => [g.headers['Event'], ucis(g), g.result, g.errors])).toEqual([
      ['A', ['e2e4', 'e7e5', 'g1f3'], '*', []],
      ['B', ['d2d4', 'd7d5'], '*', []],
    ]);
  });
  it('accepts real-world SAN variants', () => {
    const [g] = parsePgn('1. e4 d5 2. exd5 Qxd5 3. Nc3 Qe5+ 4. Be2 Bg4 5. d4 Qxd4 6. Qxd4# e5 7. Qd4e3 *');
    expect(g!.errors).toEqual([]);
    expect(g!.moves().map((m) => m.san)).toEqual([
      'e4',
      'd5',
      'exd5',
      'Qxd5',
      'Nc3',
      'Qe5+',
      'Be2',
      'Bg4',
      'd4',
      'Qxd4',
      'Qxd4',
      'e5',
      'Qe3',
    ]);
    const [p] = parsePgn('[FEN "8/P7/8/8/8/8/8/k6K w - - 0 1"]\n1. a8Q+ Kb2 2. Qb8+ *');
    expect(p!.errors).toEqual([]);
    expect(p!.moves().map((m) => m.san)).toEqual(['a8=Q+', 'Kb2', 'Qb8+']);
    const [ep] = parsePgn('1. e4 a6 2. e5 d5 3. exd6 e.p. *');
    expect(ucis(ep!)).toEqual(['e2e4', 'a7a6', 'e4e5', 'd7d5', 'e5d6']);
  });
  it('treats NUL bytes as space and skips % escape lines', () => {
    const [g] = parsePgn('1. e4\u0000e5\n% 2. Nf3\n2. Nc3 *');
    expect(ucis(g!)).toEqual(['e2e4', 'e7e5', 'b1c3']);
  });
});

describe('empty text', () => {
  it('is no game and no error', async () => {
    expect(parsePgn('')).toEqual([]);
    expect(parsePgn('', { mode: 'mainline' })).toEqual([]);
    const sources = [new Uint8Array(0), [], [''], [new Uint8Array(0), ''], Readable.from([])];
    for (const source of sources) {
      let games = 0;
      for await (const g of api.readPgn(source)) games += g ? 1 : 0;
      expect(games).toBe(0);
    }
  });
});

describe('memory', () => {
  it('stays bounded over synchronous parsePgn calls that never yield to the event loop', () => {
    // In a child process: RSS is the whole process's. 4,000 games of 64 KiB
    // held until the loop turns would be 260 MB.
    const script = `
      const { parsePgn } = require(${JSON.stringify(path.join(ROOT, 'dist', 'index.js'))});
      const text = '[Event "x"]\\n1. e4 { ' + 'x'.repeat(1 << 16) + ' } e5 2. Nf3 Nc6 (2... d6) *\\n';
      parsePgn(text);
      const before = process.memoryUsage().rss;
      for (let i = 0; i < 4000; i++) if (parsePgn(text)[0].headers.Event !== 'x') throw new Error('bad read');
      console.log(process.memoryUsage().rss - before);`;
    const run = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 60_000 });
    expect(run.stderr).toBe('');
    expect(Number(run.stdout)).toBeLessThan(100e6);
  }, 60_000);

  it('reads each text the same after reads of larger and smaller ones, whose memory it may reuse', async () => {
    const small = '[Event "s"]\n1. d4 { a } d5 (1... Nf6 $2) 2. c4 1/2-1/2\n';
    const large = Array.from({ length: 300 }, (_, i) => `[Round "${i}"]\n1. e4 { ${'w'.repeat(i)} } e5 2. Nf3 *\n`).join('\n');
    const read = (text: string) => parsePgn(text).map((g) => [g.headers, g.root, g.finalFen, g.errors]);
    const stream = async (text: string) => {
      const moves = [];
      for await (const g of api.readPgn(Buffer.from(text), { mode: 'mainline' })) moves.push(g.moves());
      return moves;
    };
    const want = [read(small), read(large), await stream(small), await stream(large)];
    for (let round = 0; round < 3; round++)
      for (const text of [large, small, small, large])
        expect([read(text), await stream(text)]).toEqual(text === small ? [want[0], want[2]] : [want[1], want[3]]);
  });
});

describe('visitRecords', () => {
  it("reads a batch's records as the games' accessors do", () => {
    const text =
      '[Event "café"]\n\n{ before } 1. e4 $1 { good } e5 (1... c5 { sicilian } 2. Nf3) 2. Nf3 Ke7?? 3. Qxx 1-0\n\n' +
      '[Event "b"]\n\n1. d4 d5 *\n';
    const state = new Float64Array(PGN.stateLength);
    state[SLOTS.pgnState.mode] = PGN.mode.tree;
    state[SLOTS.pgnState.line] = 1;
    state[SLOTS.pgnState.threads] = 1;
    state[SLOTS.pgnState.textEnd] = PGN.textEnd.final;
    const read = () => ({
      headers: {} as Record<string, string>,
      sans: [] as string[],
      nags: [] as number[],
      comments: [] as string[],
      errors: [] as string[],
    });
    const seen: (ReturnType<typeof read> & { result: string | undefined; fen: string })[] = [];
    let game = read();
    let depth = 0;
    for (const batch of batchesOf(backend.pgnRead(Buffer.from(text, 'utf8'), state)))
      visitRecords(batch, 0, batch.records.length / PGN.recordInts, {
        tag: (name, value) => (game.headers[name] = value),
        move: (san) => depth === 0 && game.sans.push(san),
        nag: (nag) => depth === 0 && game.nags.push(nag),
        comment: (comment) => depth === 0 && game.comments.push(comment),
        beginVariation: () => depth++,
        endVariation: () => depth--,
        error: (e) => game.errors.push(`${e.line}:${e.column}:${e.ply} ${e.message}`),
        endGame: (result, fen) => {
          seen.push({ ...game, result, fen });
          game = read();
        },
      });
    const games = parsePgn(text);
    expect(seen.map((g) => g.headers)).toEqual(games.map((g) => g.headers));
    expect(seen.map((g) => g.sans)).toEqual(games.map((g) => g.moves().map((m) => m.san)));
    expect(seen.map((g) => g.nags)).toEqual(games.map((g) => g.moves().flatMap((m) => m.nags)));
    expect(seen.map((g) => g.comments)).toEqual(games.map((g) => [...g.comments, ...g.moves().flatMap((m) => m.comments)]));
    expect(seen.map((g) => g.errors)).toEqual(games.map((g) => g.errors.map((e) => `${e.line}:${e.column}:${e.ply} ${e.message}`)));
    expect(seen.map((g) => [g.result, g.fen])).toEqual(games.map((g) => [g.result, g.finalFen]));
    expect(seen.map((g) => g.errors.length)).toEqual([1, 0]);
  });
});

describe('errors and resynchronisation', () => {
  it('keeps headers and moves before an illegal move, then reads the next game', () => {
    const text = '[Event "A"]\n\n1. e4 e5 2. Ke3 Nf6 3. d4 *\n\n[Event "B"]\n\n1. d4 *\n';
    const [a, b] = parsePgn(text);
    expect(a!.headers).toEqual({ Event: 'A' });
    expect(ucis(a!)).toEqual(['e2e4', 'e7e5']);
    expect(a!.errors).toEqual([{ line: 3, column: 13, ply: 3, message: 'illegal or ambiguous move: Ke3' }]);
    expect(a!.result).toBe('*');
    expect(ucis(b!)).toEqual(['d2d4']);
  });
  it('reports ambiguous and malformed moves', () => {
    const [a] = parsePgn('[FEN "4k3/8/8/8/8/8/8/1N3N1K w - - 0 1"]\n1. Nd2 *');
    expect(a!.errors[0]).toMatchObject({ ply: 1, message: 'illegal or ambiguous move: Nd2' });
    const [b] = parsePgn('1. e4 Zz9 *');
    expect(b!.errors[0]).toMatchObject({ ply: 2, column: 7, message: 'not a move: Zz9' });
  });
  it('resynchronises after an unterminated comment and an unterminated tag string', () => {
    const games = parsePgn('[Event "A"]\n1. e4 { never closed\n\n[Event "B"]\n1. d4 *\n[Event "C\n1. c4 *');
    expect(games.map((g) => g.headers['Event'])).toEqual(['A', 'B', 'C']);
    expect(games[0]!.errors[0]!.message).toBe('unterminated comment');
    expect(ucis(games[1]!)).toEqual(['d2d4']);
    expect(games[2]!.errors[0]!.message).toBe('unterminated tag string');
    expect(ucis(games[2]!)).toEqual(['c2c4']);
  });
  it('reports a bad FEN and an unsupported variant, keeping the headers', () => {
    const [a, b] = parsePgn('[FEN "bad fen"]\n1. e4 *\n[Variant "Atomic"]\n1. e4 *');
    expect(a!.errors[0]!.message).toMatch(/^bad FEN tag/);
    expect(a!.headers['FEN']).toBe('bad fen');
    expect(a!.moves()).toEqual([]);
    expect(b!.errors[0]!.message).toBe('unsupported variant');
  });
  it('cuts a variation at its bad move and reads on, with the same errors in tree and mainline modes', () => {
    const text = '1. e4 e5 ( 1... c5 2. Ke3 Nc6 ( 2... d6 ) ) ( 1... e6 2. d4 ) 2. Nf3 ( 2. f4 ( 2. Qxf7 ) ) 2... Nc6 *';
    const [tree] = parsePgn(text);
    const [main] = parsePgn(text, { mode: 'mainline' });
    const errors = [
      { line: 1, column: 23, ply: 3, message: 'illegal or ambiguous move: Ke3' },
      { line: 1, column: 83, ply: 3, message: 'illegal or ambiguous move: Qxf7' },
    ];
    expect(tree!.errors).toEqual(errors);
    expect(main!.errors).toEqual(errors);
    expect(ucis(tree!)).toEqual(['e2e4', 'e7e5', 'g1f3', 'b8c6']);
    expect(ucis(main!)).toEqual(ucis(tree!));
    const e4 = tree!.root.children[0]!;
    expect(e4.children.map((n) => n.san)).toEqual(['e5', 'c5', 'e6']);
    expect(e4.children[1]!.children.map((n) => n.san)).toEqual([]); // cut at Ke3, with the variation inside it
    expect(e4.children[2]!.children.map((n) => n.san)).toEqual(['d4']);
    expect(e4.children[0]!.children.map((n) => n.san)).toEqual(['Nf3', 'f4']);
    // Nesting too deep costs the too-deep part only, reported in both modes.
    const deep = '1. e4 ' + '( 1. d4 '.repeat(70) + ')'.repeat(70) + ' 1... e5 *';
    for (const mode of ['tree', 'mainline'] as const) {
      const [g] = parsePgn(deep, { mode });
      expect(g!.errors.map((e) => e.message)).toEqual(['variations nested too deep']);
      expect(ucis(g!)).toEqual(['e2e4', 'e7e5']);
    }
  });
  it('reads a lone result as a game, so an empty game round-trips', () => {
    for (const result of ['*', '1-0', '0-1', '1/2-1/2']) {
      const games = parsePgn(result);
      expect(games.map((g) => [g.result, g.moves().length, g.errors])).toEqual([[result, 0, []]]);
    }
    const empty = writePgn({ headers: {}, result: '*', root: { comments: [], children: [] } });
    expect(parsePgn(empty).map((g) => [g.result, g.headers, g.moves().length])).toEqual([['*', {}, 0]]);
  });
  it("keeps comments after a result on the result's line in its game", () => {
    for (const mode of ['tree', 'mainline', 'headers'] as const) {
      const games = parsePgn('1. e4 e5 1-0 { on time } ; last words\n[Event "B"]\n1. d4 * ; x', { mode });
      expect(games.map((g) => g.result)).toEqual(['1-0', '*']);
    }
    const [a, b] = parsePgn('1. e4 e5 1-0 { on time } ; last words\n[Event "B"]\n1. d4 * ; x');
    expect(a!.moves()[1]!.comments).toEqual(['on time', 'last words']);
    expect(b!.moves()[0]!.comments).toEqual(['x']);
    expect(b!.root.children[0]!.comments).toEqual(['x']);
  });
  it('counts columns in characters and CR-only line ends as lines', () => {
    const [g] = parsePgn('[White "Café"] { é } 1. e4 Ke3 *');
    expect(g!.errors).toEqual([{ line: 1, column: 28, ply: 2, message: 'illegal or ambiguous move: Ke3' }]);
    const [c] = parsePgn('[Event "A"]\r[White "B"]\r\r1. e4 ; a comment\r1... Ke5 *\r');
    expect(c!.headers).toEqual({ Event: 'A', White: 'B' });
    expect(c!.moves()[0]!.comments).toEqual(['a comment']);
    expect(c!.errors).toEqual([{ line: 5, column: 6, ply: 2, message: 'illegal or ambiguous move: Ke5' }]);
  });
  it('reports NAGs that are not ones and reads 0000 as a null move', () => {
    const [g] = parsePgn('1. e4 $256 $1 e5 $ 2. 0000 Nf6 *');
    expect(g!.errors).toEqual([
      { line: 1, column: 7, ply: 0, message: 'not a NAG: $256' },
      { line: 1, column: 18, ply: 0, message: 'not a NAG: $' },
    ]);
    expect(g!.moves().map((m) => [m.san, m.nags])).toEqual([
      ['e4', [1]],
      ['e5', []],
      ['--', []],
      ['Nf6', []],
    ]);
    expect(parsePgn('1. e4 $256 *', { mode: 'mainline' })[0]!.errors.map((e) => e.message)).toEqual(['not a NAG: $256']);
  });
  it('rejects an empty FEN tag and points FEN and variant errors at their tags', () => {
    const [a, b] = parsePgn('[Event "x"]\n[FEN ""]\n1. e4 *\n[Event "y"]\n[Variant "Atomic"]\n\n1. e4 *');
    expect(a!.errors).toMatchObject([{ line: 2, column: 1, ply: 0, message: expect.stringMatching(/^bad FEN tag/) }]);
    expect(a!.moves()).toEqual([]);
    expect(b!.errors).toEqual([{ line: 5, column: 1, ply: 0, message: 'unsupported variant' }]);
  });
  it('reads a pawn capture without its x', () => {
    const [g] = parsePgn('1. e4 d5 2. ed5 c6 3. dc6 *');
    expect(g!.errors).toEqual([]);
    expect(g!.moves().map((m) => m.san)).toEqual(['e4', 'd5', 'exd5', 'c6', 'dxc6']);
  });
  it('replays a null move as the reader played it, clocks kept at their limits', () => {
    const [g] = parsePgn('[FEN "4k3/8/8/8/8/8/8/4K3 b - - 65535 4294967295"]\n\n1... -- 2. Kd2 *');
    expect(g!.errors).toEqual([]);
    expect(g!.position(g!.root.children[0]).fen()).toBe('4k3/8/8/8/8/8/8/4K3 w - - 65535 4294967295');
    expect(g!.position().fen()).toBe('4k3/8/8/8/8/8/3K4/8 b - - 65535 4294967295');
  });
  it('reports a null move while in check', () => {
    const [g] = parsePgn('1. e4 f6 2. Qh5+ -- *');
    expect(g!.errors[0]).toMatchObject({ ply: 4, message: 'null move while in check' });
  });
  it('reads a ( opened before any move of its line as repeating that line, so no move is dropped', () => {
    const tree = (text: string) => parsePgn(text)[0]!;
    const sans = (nodes: readonly { san: string }[]) => nodes.map((n) => n.san);
    // In a variation: the moves stay in it, its ')' closes nothing.
    const d4 = tree('1. e4 ( ( 1. d4 ) e5 ) e5 *');
    expect(d4.errors).toEqual([]);
    expect(sans(d4.root.children)).toEqual(['e4', 'd4']);
    expect(sans(d4.root.children[1]!.children)).toEqual(['e5']);
    const c5 = tree('1. e4 e5 ( ( ( 1... c5 ) ) ) 2. Nf3 *');
    expect(sans(c5.root.children[0]!.children)).toEqual(['e5', 'c5']);
    expect(ucis(c5)).toEqual(['e2e4', 'e7e5', 'g1f3']);
    // Before the game's first move: the moves are the mainline's, as python-chess reads them.
    for (const mode of ['tree', 'mainline'] as const) {
      const [start] = parsePgn('[Event "x"]\n\n( 1. d4 ) 1. e4 *', { mode });
      expect(ucis(start!)).toEqual(['d2d4']);
      expect(start!.errors).toEqual([{ line: 3, column: 14, ply: 2, message: 'illegal or ambiguous move: e4' }]);
      // A bad move there is reported, in every mode.
      const [bad] = parsePgn('1. e4 ((e5)) 1... c5 *', { mode });
      expect(bad!.errors).toEqual([{ line: 1, column: 9, ply: 1, message: 'illegal or ambiguous move: e5' }]);
      expect(ucis(bad!)).toEqual(['e2e4', 'c7c5']);
    }
    // Any number of them: no nesting limit is reached, nothing is cut.
    const many = tree('1. e4 ' + '('.repeat(200) + ' 1. d4 ' + ')'.repeat(200) + ' e5 *');
    expect(many.errors).toEqual([]);
    expect(sans(many.root.children)).toEqual(['e4', 'd4']);
    expect(ucis(many)).toEqual(['e2e4', 'e7e5']);
  });
  it('limits variation nesting', () => {
    const depth = 70;
    const text = '1. e4 ' + '( 1. d4 '.repeat(depth) + ')'.repeat(depth) + ' 1... e5 *';
    const [g] = parsePgn(text);
    expect(g!.errors.map((e) => e.message)).toEqual(['variations nested too deep']);
    expect(ucis(g!)).toEqual(['e2e4', 'e7e5']);
    // Each variation is an alternative to the 1. d4 before it: all are the root's children.
    expect(g!.root.children.length).toBe(1 + api.PGN_MAX_DEPTH);
    expect(api.PGN_MAX_DEPTH).toBe(64);
  });
  it('reads a text as its UTF-8, whatever its characters and wherever they fall', () => {
    // ASCII, then text that is longer in UTF-8 at its start, middle and end (a lone surrogate is U+FFFD, as Buffer.from has it).
    const texts: [string, string][] = [
      ['Ann', 'plain'],
      ['Müller', 'plain'],
      ['Ann', 'café \ud800'],
      ['Ann', 'x'.repeat(300) + '\u{1f600}'],
    ];
    for (const [white, comment] of texts) {
      const [g] = parsePgn(`[White "${white}"]\n\n1. e4 { ${comment} } e5 *`);
      expect(g!.headers['White']).toBe(white);
      expect(g!.moves()[0]!.comments).toEqual([comment.replace('\ud800', '\ufffd')]);
      expect(g!.moves()[1]!.san).toBe('e5');
    }
  });
  it('reports invalid UTF-8 and keeps tags byte for byte', () => {
    const bytes = Buffer.concat([Buffer.from('[White "caf'), Buffer.from([0xe9]), Buffer.from('"]\n1. e4 *')]);
    const games: api_Game[] = [];
    return (async () => {
      for await (const g of api.readPgn(bytes)) games.push(g);
      expect(games[0]!.errors.map((e) => e.message)).toEqual(['invalid UTF-8']);
      expect(games[0]!.headers['White']).toBe('caf\u00e9');
    })();
  });
  it('decodes each string on its own and points the error at the bad byte', async () => {
    const bytes = Buffer.concat([
      Buffer.from('[White "café"]\n[Black "x'),
      Buffer.from([0xe9]),
      Buffer.from('y"]\n1. e4 { ok é }\n{ two\n  lines '),
      Buffer.from([0xff]),
      Buffer.from(' } 1... e5 *'),
    ]);
    for await (const g of api.readPgn(bytes)) {
      expect(g.headers).toEqual({ White: 'café', Black: 'x\u00e9y' });
      expect(g.root.children[0]!.comments).toEqual(['ok é', 'two\n  lines \u00ff']);
      expect(g.errors).toEqual([
        { line: 2, column: 10, ply: 0, message: 'invalid UTF-8' },
        { line: 5, column: 9, ply: 0, message: 'invalid UTF-8' },
      ]);
    }
  });
  it('places an invalid UTF-8 error in characters, after CR-only line ends', async () => {
    const bytes = Buffer.concat([Buffer.from('[White "x"]\r[Black "y"]\r1. e4 { éé '), Buffer.from([0xff]), Buffer.from(' } *')]);
    let games = 0;
    for await (const g of api.readPgn(bytes)) {
      games++;
      expect(g.errors).toEqual([{ line: 3, column: 12, ply: 0, message: 'invalid UTF-8' }]);
    }
    expect(games).toBe(1);
  });
  it('rejects overlong forms, surrogates and code points above U+10FFFF as invalid UTF-8', async () => {
    const hex = (h: string) => Buffer.from(h.replace(/ /g, ''), 'hex');
    const valid = ['c2 80', 'df bf', 'e0 a0 80', 'ed 9f bf', 'ee 80 80', 'ef bf bf', 'f0 90 80 80', 'f4 8f bf bf'];
    // Overlong (C0 80, E0 80 80, F0 80 80 80), surrogates (ED A0 80 .. ED BF BF), above U+10FFFF (F4 90 80 80, F5..FF).
    const invalid = [
      'c0 80',
      'c1 bf',
      'e0 80 80',
      'e0 9f bf',
      'f0 80 80 80',
      'f0 8f bf bf',
      'ed a0 80',
      'ed bf bf',
      'f4 90 80 80',
      'f5 80 80 80',
      'ff',
      '80',
      'e2 82',
    ];
    const read = async (seq: Buffer) => {
      const games: api_Game[] = [];
      const text = Buffer.concat([Buffer.from('[White "a'), seq, Buffer.from('b"]\n1. e4 *\n[Event "next"]\n1. d4 *\n')]);
      for await (const g of api.readPgn(text)) games.push(g);
      expect(games.map((g) => g.headers['Event'] ?? null)).toEqual([null, 'next']);
      expect(games[1]!.errors).toEqual([]);
      return games[0]!;
    };
    for (const h of valid) {
      const g = await read(hex(h));
      expect(g.errors, h).toEqual([]);
      expect(g.headers['White'], h).toBe(`a${hex(h).toString('utf8')}b`);
    }
    for (const h of invalid) {
      const g = await read(hex(h));
      expect(
        g.errors.map((e) => e.message),
        h,
      ).toEqual(['invalid UTF-8']);
      expect(g.headers['White'], h).toBe(`a${hex(h).toString('latin1')}b`); // kept byte for byte
    }
  });
  it('stays linear on hostile input', () => {
    const big = 'x'.repeat(4 << 20);
    const start = performance.now();
    const games = parsePgn(`[Event "${big}"]\n{${big}}\n1. ${big} e4 *\n[Event "next"]\n1. d4 *\n${'('.repeat(100000)}`);
    expect(performance.now() - start).toBeLessThan(5000);
    expect(games[0]!.headers['Event']!.length).toBe(4 << 20);
    expect(games[0]!.errors[0]!.message).toMatch(/^not a move: x{24}\.\.\.$/);
    expect(games[1]!.headers['Event']).toBe('next');
    expect(ucis(games[1]!)).toEqual(['d2d4']);
  });
  it('never throws on random bytes', () => {
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) >>> 0);
    const alphabet = '[]{}()"\\;%$!?*.-/=+#01 2345678abcdefghKQRBNOx\n\r\u0000\u00e9';
    for (let i = 0; i < 300; i++) {
      let s = '';
      for (let k = 0; k < 200; k++) s += alphabet[next() % alphabet.length];
      for (const g of parsePgn(s)) {
        g.moves();
        void g.root;
        void g.headers;
      }
    }
  });
});

type api_Game = ReturnType<typeof parsePgn>[number];

describe('Chess960', () => {
  it('reads castling from the Variant tag, X-FEN and Shredder-FEN', () => {
    const fen = 'rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w HAha - 0 1';
    for (const header of [`[Variant "Chess960"]\n[FEN "${fen}"]`, `[FEN "${fen}"]`]) {
      const [g] = parsePgn(`${header}\n1. O-O O-O-O *`);
      expect(g!.chess960).toBe(true);
      expect(g!.errors).toEqual([]);
      expect(ucis(g!)).toEqual(['b1h1', 'b8a8']);
      expect(g!.moves()[0]!.san).toBe('O-O');
    }
    const [x] = parsePgn('[FEN "rk2r3/8/8/8/8/8/8/RK2R3 w KQkq - 0 1"]\n1. O-O-O O-O-O *');
    expect(x!.chess960).toBe(true);
    expect(ucis(x!)).toEqual(['b1a1', 'b8a8']);
  });

  it("names the same castling move by its game's mode, and promotions and null moves, in the tree and the mainline", () => {
    // The same engine moves in a standard and a Chess960 game, read in either order: the name
    // comes with the record, the move is only the key of each mode's cache.
    const fen = 'r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1';
    const standard = `[FEN "${fen}"]\n1. O-O O-O-O *`;
    const chess960 = `[Variant "Chess960"]\n[FEN "${fen}"]\n1. O-O O-O-O *`;
    for (const text of [`${standard}\n\n${chess960}`, `${chess960}\n\n${standard}`]) {
      const games = parsePgn(text);
      const [a, b] = games[0]!.chess960 ? [games[1]!, games[0]!] : [games[0]!, games[1]!];
      expect(ucis(a)).toEqual(['e1g1', 'e8c8']);
      expect(ucis(b)).toEqual(['e1h1', 'e8a8']);
      expect(b.root.children[0]!.uci).toBe('e1h1');
    }
    const [p] = parsePgn('[FEN "8/P6k/8/8/8/8/7p/K7 w - - 0 1"]\n1. a8=N -- 2. Kb1 h1=Q+ (2... h1=R+) *');
    expect(ucis(p!)).toEqual(['a7a8n', '0000', 'a1b1', 'h2h1q']);
    expect(p!.initialFen).toBe('8/P6k/8/8/8/8/7p/K7 w - - 0 1');
    expect(p!.finalFen).toBe('N7/7k/8/8/8/8/8/1K5q w - - 0 3');
    expect(p!.position().fen()).toBe(p!.finalFen);
    expect(p!.result).toBe('*');
    expect(p!.root.children[0]!.children[0]!.children[0]!.children.map((n) => n.uci)).toEqual(['h2h1q', 'h2h1r']);
  });
});

describe('modes', () => {
  const text = fixture('pgn-tolerance.pgn');
  it('mainline mode gives the same mainline without comments', () => {
    const tree = parsePgn(text);
    const main = parsePgn(text, { mode: 'mainline' });
    expect(main.map(ucis)).toEqual(tree.map(ucis));
    expect(main[0]!.moves().every((m) => m.comments.length === 0 && m.nags.length === 0)).toBe(true);
  });
  it('headers mode reads tags only', () => {
    const games = parsePgn(text, { mode: 'headers' });
    expect(games.map((g) => g.headers)).toEqual(parsePgn(text).map((g) => g.headers));
    expect(games[0]!.moves()).toEqual([]);
  });
  it('rejects bad options', () => {
    expect(() => parsePgn(3 as unknown as string)).toThrow(TypeError);
    expect(() => parsePgn('', { mode: 'x' as 'tree' })).toThrow(RangeError);
    // The reader's chess.js grammar mode serves chess-native/chessjs only.
    expect(() => parsePgn('1. e4 *', { mode: 'chessjs' as 'tree' })).toThrow(RangeError);
  });
});

describe('writePgn', () => {
  it('writes export format and reads back the same game', () => {
    const text =
      '[White "W"]\n[Event "E"]\n[Black "B \\"x\\""]\n\n{ c } 1. e4 $1 { a } ( { s } 1. d4 d5 ( 1... Nf6 ) 2. c4 ) 1... e5 2. Nf3 *';
    const [g] = parsePgn(text);
    const out = writePgn(g!);
    expect(out).toBe(
      '[Event "E"]\n[White "W"]\n[Black "B \\"x\\""]\n\n{ c } 1. e4 $1 { a } ( { s } 1. d4 d5 ( 1... Nf6 ) 2. c4 ) 1... e5 2. Nf3 *\n',
    );
    const [back] = parsePgn(out);
    expect(back!.root).toEqual(g!.root);
    expect(back!.headers).toEqual(g!.headers);
    expect(
      g!
        .toPgn({ maxWidth: 20 })
        .split('\n')
        .every((l) => l.length <= 20 || !l.includes(' ')),
    ).toBe(true);
  });
  it("writes a comment holding '}' as a ';' comment and reads it back the same", () => {
    // ';' comments are the only way such comments come in, so they are how the game is made.
    const text = ';  root } has a brace: }\n1. e4 ; a } b \r\n( ; start } here\n1. d4 { x } ) e5 ;ends } the game\n*';
    const [g] = parsePgn(text);
    expect(g!.errors).toEqual([]);
    expect(g!.root.comments).toEqual(['root } has a brace: }']);
    expect(g!.moves().map((m) => m.comments)).toEqual([['a } b'], ['ends } the game']]);
    expect(g!.root.children[1]!.startingComments).toEqual(['start } here']);
    const out = writePgn(g!);
    expect(out).toBe('; root } has a brace: }\n1. e4 ; a } b\n( ; start } here\n1. d4 { x } ) 1... e5 ; ends } the game\n*\n');
    const [back] = parsePgn(out);
    expect(back!.errors).toEqual([]);
    expect(back!.root).toEqual(g!.root);
    expect(back!.result).toBe(g!.result);
    // With a line break too, the comment cannot be written as it is: its line breaks become spaces.
    const [spaced] = parsePgn(writePgn({ headers: {}, result: '*', root: { comments: ['two }\r\nlines\nhere'], children: [] } }));
    expect(spaced!.root.comments).toEqual(['two } lines here']);
  });
  it('numbers the moves from the FEN tag as the engine reads it, and from 1 when the tag is no FEN', () => {
    const [g] = parsePgn('1. e4 e5 *');
    const numbered = (fen: string): string => writePgn({ headers: { FEN: fen }, result: '*', root: g!.root }).split('\n')[2] as string;
    expect(numbered(' 8/8/8/8/8/8/8/k1K5  b - - 3 12 ')).toBe('12... e4 13. e5 *');
    expect(numbered('bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR b HFhf - 2 9')).toBe('9... e4 10. e5 *');
    expect(numbered('8/8/8/8/8/8/8/k1K5 b - -')).toBe('1... e4 2. e5 *');
    // Not a position (a game read with such a tag has no moves): as if there were no tag.
    expect(numbered('8/8 b - - 0 12')).toBe('1. e4 e5 *');
    expect(numbered('8/8/8/8/8/8/8/k1K5 b - - 0 0')).toBe('1. e4 e5 *');
  });
  it('writes a game with no tags and no moves as its result alone', () => {
    const empty = { headers: {}, result: '*', root: { comments: [], children: [] } };
    expect(writePgn(empty)).toBe('*\n');
    expect(writePgn({ ...empty, result: '1-0' })).toBe('1-0\n');
  });
  it('wraps long comments at word boundaries within maxWidth; read back, only the wrapped spaces are line breaks', () => {
    const words = Array.from({ length: 120 }, (_, i) => 'word'.slice(0, 1 + (i % 4)) + i);
    const comment = words.join(' ');
    const [g] = parsePgn(`1. e4 { ${comment} } 1... e5 { [%clk 0:01:00] ${comment} [%eval 0.5] } *`);
    for (const maxWidth of [16, 40, 80]) {
      const out = writePgn(g!, { maxWidth });
      expect(out.split('\n').every((l) => l.length <= maxWidth)).toBe(true);
      // A command is never cut: it still reads as one.
      expect(out).toContain('[%clk 0:01:00]');
      const [back] = parsePgn(out);
      const comments = back!.moves().map((m) => m.comments);
      expect(comments.flat().map(unwrapped)).toEqual([comment, `[%clk 0:01:00] ${comment} [%eval 0.5]`]);
      expect(back!.moves().map((m) => [m.clock, m.eval])).toEqual(g!.moves().map((m) => [m.clock, m.eval]));
      expect(writePgn(back!, { maxWidth })).toBe(out);
    }
    // A ';' in a brace comment is a word like any other: the line goes on.
    expect(writePgn(parsePgn('1. e4 { a ; b } e5 *')[0]!)).toBe('1. e4 { a ; b } 1... e5 *\n');
    // A word longer than maxWidth stays whole, on its own line.
    const long = 'x'.repeat(30);
    expect(writePgn(parsePgn(`1. e4 { a ${long} b } *`)[0]!, { maxWidth: 20 })).toBe(`1. e4 { a\n${long}\nb } *\n`);
  });
  it('round-trips the annotated fixtures at any width: the same tree, comments up to the wrapped spaces', () => {
    const texts = [
      fixture('pgn-annotated.pgn'),
      fixture('pgn-tolerance.pgn'),
      readFileSync(path.join(ROOT, 'test', 'data', 'pgn', 'pgn-standard-sample.pgn'), 'utf8'),
    ];
    for (const g of texts.flatMap((t) => parsePgn(t))) {
      for (const maxWidth of [10, 24, 40, 80]) {
        const out = writePgn(g, { maxWidth });
        // Their longest unbreakable piece (a command such as [%csl Gf6][%cal Rf6e4,Gb5c6]) is below 24.
        if (maxWidth >= 24) expect(out.split('\n').filter((l) => l.length > maxWidth && !l.startsWith('['))).toEqual([]);
        const [back] = parsePgn(out);
        expectSameUpToWraps(back!, g);
        expect(writePgn(back!, { maxWidth })).toBe(out);
      }
    }
  });
  it('round-trips random comments: spaces, line breaks, commands, brackets, percent signs', () => {
    let seed = 7;
    const random = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    const pieces = [
      'a',
      'bb',
      'word',
      'x'.repeat(25),
      '[%clk 0:01:02]',
      '[%eval -1.5]',
      '[%cal Ra1a8]',
      '[x',
      '%p',
      'x [Event "x"]',
      ';',
      '{',
      '',
    ];
    // ('x [Event "x"]': a tag line in a comment of the input would end it there.)
    for (let i = 0; i < 300; i++) {
      // Every other comment has words of at most 4 letters only: then no line may pass maxWidth.
      const plain = i % 2 === 0;
      const comment = Array.from({ length: 1 + random(40) }, () => pieces[random(plain ? 3 : pieces.length)]!)
        .join(random(8) === 0 ? '\n' : ' ')
        .trim();
      const [g] = parsePgn(`1. e4 { ${comment} } 1... e5 { ${comment} } (1... c5 { ${comment} }) 2. Nf3 *`);
      expect(g!.errors).toEqual([]);
      const maxWidth = 8 + random(80);
      const out = writePgn(g!, { maxWidth });
      if (plain) expect(out.split('\n').filter((l) => l.length > maxWidth)).toEqual([]);
      const [back] = parsePgn(out);
      expect(back!.errors).toEqual([]);
      expectSameUpToWraps(back!, g!);
      expect(writePgn(back!, { maxWidth })).toBe(out);
    }
  });
  it('writes a position history as a game (toPgn)', () => {
    const pos = new Position('r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1');
    pos.playLine(['e8c8', 'e1g1']);
    const text = toPgn(pos, { headers: { White: 'Me' } });
    expect(text).toContain('[FEN "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1"]');
    expect(text).toContain('1... O-O-O 2. O-O *');
    const [g] = parsePgn(text);
    expect(g!.headers['White']).toBe('Me');
    expect(ucis(g!)).toEqual(['e8c8', 'e1g1']);
  });
  it('round-trips generated games, with variations, comments and Chess960', async () => {
    const { generatePgn } = await import('../bench/pgn-corpus.mjs');
    for (const chess960 of [false, true]) {
      const games = parsePgn(generatePgn({ seed: 11, games: 40, variations: true, comments: true, chess960 }));
      expect(games.length).toBe(40);
      for (const g of games) {
        expect(g.errors).toEqual([]);
        const [back] = parsePgn(writePgn(g));
        expect(back!.root).toEqual(g.root);
        expect(back!.headers).toEqual(g.headers);
        expect(back!.result).toBe(g.result);
        expect(writePgn(back!)).toBe(writePgn(g));
      }
    }
  });
});
