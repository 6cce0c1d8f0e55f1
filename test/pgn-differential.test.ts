// The PGN reader against chessops (its pgn module: headers, tree shape,
// comments, NAGs, clock/eval, with every SAN resolved by chessops) and
// chess.js (loadPgn per game: the mainline), on generated games and
// hand-written files.
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Chess } from 'chess.js';
import { emptyHeaders, parseComment, parsePgn as opsParsePgn, startingPosition, type ChildNode, type PgnNodeData } from 'chessops/pgn';
import { parseSan } from 'chessops/san';
import { makeSquare } from 'chessops/util';
import type { Position as OpsPosition } from 'chessops/chess';
import { generatePgn } from '../bench/pgn-corpus.mjs';
import { api, ROOT } from './helpers';

const { parsePgn } = api;
// chess.js and chessops take seconds here on a loaded two-core machine.
const SLOW = 60_000;
type Game = ReturnType<typeof parsePgn>[number];
type Node = Game['root']['children'][number];

/** chessops' move in this package's UCI (king two squares in standard chess). */
function opsUci(pos: OpsPosition, san: string, chess960: boolean): string {
  const move = parseSan(pos, san);
  if (!move || !('from' in move)) throw new Error(`chessops cannot read ${san}`);
  const piece = pos.board.get(move.from);
  const target = pos.board.get(move.to);
  let to = move.to;
  if (piece?.role === 'king' && target?.role === 'rook' && target.color === piece.color && !chess960)
    to = Math.floor(move.from / 8) * 8 + (move.to > move.from ? 6 : 2);
  const promo = move.promotion ? PROMOTION[move.promotion] : '';
  return makeSquare(move.from) + makeSquare(to) + (promo ?? '');
}

const PROMOTION: Record<string, string> = { queen: 'q', rook: 'r', bishop: 'b', knight: 'n' };

interface Shape {
  san: string;
  uci: string;
  comments: readonly string[];
  startingComments: readonly string[];
  nags: readonly number[];
  clock: number | undefined;
  eval: unknown;
  children: Shape[];
}

function opsTree(node: ChildNode<PgnNodeData>, pos: OpsPosition, chess960: boolean): Shape {
  const uci = opsUci(pos, node.data.san, chess960);
  const after = pos.clone();
  after.play(parseSan(pos, node.data.san)!);
  const comments = node.data.comments ?? [];
  const parsed = comments.map(parseComment);
  const clock = parsed
    .map((c) => c.clock)
    .filter((c) => c !== undefined)
    .at(-1);
  const ev = parsed
    .map((c) => c.evaluation)
    .filter((c) => c !== undefined)
    .at(-1);
  return {
    san: node.data.san,
    uci,
    comments: comments.map((c) => c.trim()),
    startingComments: node.data.startingComments ?? [],
    nags: node.data.nags ?? [],
    clock,
    eval: ev,
    children: node.children.map((child) => opsTree(child, after, chess960)),
  };
}

function ourTree(node: Node): Shape {
  return { ...ourMove(node), children: node.children.map(ourTree) };
}

/** A line's moves without their children. */
function flat(line: readonly Shape[]): Omit<Shape, 'children'>[] {
  return line.map(({ children: _children, ...move }) => move);
}

/** A move's fields, read the same from a tree node and from moves(). */
function ourMove(move: ReturnType<Game['moves']>[number] | Node): Omit<Shape, 'children'> {
  return {
    san: move.san,
    uci: move.uci,
    comments: move.comments,
    startingComments: move.startingComments ?? [],
    nags: move.nags,
    clock: move.clock,
    eval: move.eval,
  };
}

function mainlineOf(tree: Shape[]): Shape[] {
  const line: Shape[] = [];
  for (let n = tree[0]; n; n = n.children[0]) line.push(n);
  return line;
}

/**
 * The tree and headers against chessops; moves() is read first, on games
 * whose tree is not built yet (it reads the records on its own), and must
 * give the tree's mainline.
 */
function compareWithChessops(text: string): number {
  const ours = parsePgn(text);
  const theirs = opsParsePgn(text, emptyHeaders);
  expect(ours.length).toBe(theirs.length);
  const movesFirst = ours.map((game) => game.moves().map(ourMove));
  let nodes = 0;
  ours.forEach((game, i) => {
    const ops = theirs[i]!;
    expect(game.errors).toEqual([]);
    expect(game.headers).toEqual(Object.fromEntries(ops.headers));
    expect(game.comments).toEqual((ops.comments ?? []).map((c) => c.trim()));
    const start = startingPosition(ops.headers).unwrap();
    const tree = ops.moves.children.map((c) => opsTree(c, start.clone(), game.chess960));
    expect(game.root.children.map(ourTree)).toEqual(tree);
    expect(movesFirst[i]).toEqual(flat(mainlineOf(tree)));
    const count = (s: Shape): number => 1 + s.children.reduce((n, c) => n + count(c), 0);
    nodes += tree.reduce((n, s) => n + count(s), 0);
  }, SLOW);
  return nodes;
}

describe('differential: chessops', () => {
  it(
    'generated standard games with variations, comments, NAGs, clock and eval',
    () => {
      const nodes = compareWithChessops(generatePgn({ seed: 21, games: 150, variations: true, comments: true }));
      expect(nodes).toBeGreaterThan(10000);
    },
    SLOW,
  );
  it(
    'generated games with every variation in doubled parentheses, a ( before any move of its line repeating it',
    () => {
      const text = generatePgn({ seed: 25, games: 60, variations: true, comments: true });
      const doubled = text.replaceAll('(', '( (').replaceAll(')', ') )');
      expect(doubled).not.toBe(text);
      expect(compareWithChessops(doubled)).toBeGreaterThan(3000);
    },
    SLOW,
  );
  it(
    'generated Chess960 games',
    () => {
      compareWithChessops(generatePgn({ seed: 22, games: 60, variations: true, comments: false, chess960: true }));
    },
    SLOW,
  );
  it(
    'hand-written annotated games',
    () => {
      const text = readFileSync(path.join(ROOT, 'test', 'fixtures', 'pgn-annotated.pgn'), 'utf8');
      expect(compareWithChessops(text)).toBeGreaterThan(200);
    },
    SLOW,
  );
});

describe('access order', () => {
  it(
    "moves() before the tree gives the tree's mainline, with a NAG before every variation's first move",
    () => {
      // chessops drops such a NAG; this package gives it to the node the variation branches from.
      const text = generatePgn({ seed: 24, games: 80, variations: true, comments: true }).replaceAll('(', '( $142 ');
      const movesFirst = parsePgn(text).map((game) => game.moves().map(ourMove));
      const games = parsePgn(text);
      let branches = 0;
      games.forEach((game, i) => {
        expect(game.errors).toEqual([]);
        const line = mainlineOf(game.root.children.map(ourTree));
        branches += line.filter((m) => m.nags.includes(142)).length;
        expect(movesFirst[i]).toEqual(flat(line));
      });
      expect(branches).toBeGreaterThan(20);
    },
    SLOW,
  );
});

describe('differential: chess.js mainline', () => {
  it(
    'generated games and the hand-written file',
    () => {
      const texts = [
        // chess.js cannot read two comments in a row, which the generator writes: no comments here.
        generatePgn({ seed: 23, games: 30, variations: false, comments: false }),
        readFileSync(path.join(ROOT, 'test', 'fixtures', 'pgn-annotated.pgn'), 'utf8'),
      ];
      for (const text of texts) {
        const games = parsePgn(text, { mode: 'mainline' });
        const chunks = text.split(/\n(?=\[Event )/);
        expect(games.length).toBe(chunks.length);
        games.forEach((game, i) => {
          const chess = new Chess();
          chess.loadPgn(chunks[i]!);
          expect(game.moves().map((m) => m.uci)).toEqual(chess.history({ verbose: true }).map((m) => m.lan));
          expect(game.position().fen()).toBe(chess.fen());
        });
      }
    },
    SLOW,
  );
});
