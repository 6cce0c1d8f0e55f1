// The sample game of the PGN standard (Steven J. Edwards, 1994, section 2.3,
// the export format the standard defines): read with every move validated,
// and written back as the same export-format text.
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { Chess } from 'chess.js';
import { describe, expect, it } from 'vitest';
import { api, PERFT_DIR } from './helpers';

const { parsePgn, writePgn } = api;
const SAMPLE = readFileSync(path.join(PERFT_DIR, 'pgn', 'pgn-standard-sample.pgn'), 'utf8');

describe("the PGN standard's sample game", () => {
  const games = parsePgn(SAMPLE);
  const game = games[0]!;

  it('reads every move, legal, with no error', () => {
    expect(games).toHaveLength(1);
    expect(game.errors).toEqual([]);
    const moves = game.moves();
    expect(moves).toHaveLength(85); // 43. Re6: 42 moves for each side and White's 43rd
    expect(moves.slice(0, 6).map((m) => m.san)).toEqual(['e4', 'e5', 'Nf3', 'Nc6', 'Bb5', 'a6']);
    expect(moves[5]!.comments).toEqual(['This opening is called the Ruy Lopez.']);
    expect(moves.at(-1)!.san).toBe('Re6');
    // chess.js, a second reader, plays the same moves to the same position.
    const other = new Chess();
    other.loadPgn(SAMPLE);
    expect(moves.map((m) => m.san)).toEqual(other.history());
    expect(game.finalFen).toBe(other.fen());
  });

  it('keeps the Seven Tag Roster in order, and the result', () => {
    expect(Object.entries(game.headers)).toEqual([
      ['Event', 'F/S Return Match'],
      ['Site', 'Belgrade, Serbia JUG'],
      ['Date', '1992.11.04'],
      ['Round', '29'],
      ['White', 'Fischer, Robert J.'],
      ['Black', 'Spassky, Boris V.'],
      ['Result', '1/2-1/2'],
    ]);
    expect(game.result).toBe('1/2-1/2');
  });

  it("writes the standard's export format back", () => {
    const written = writePgn(game);
    // The tag section is the same, byte for byte.
    expect(written.split('\n\n')[0]).toBe(SAMPLE.split('\n\n')[0]);
    // The movetext is the same tokens in the same order; the standard's
    // example breaks its lines by hand (some well before 80 columns) and
    // writes its comment without inner padding ({This ...}), while the
    // writer fills lines up to 80 and pads ({ This ... }): both are export
    // format, so the texts are compared with whitespace normalised.
    const normalised = (s: string) => s.replace(/\{\s*/g, '{').replace(/\s*\}/g, '}').replace(/\s+/g, ' ').trim();
    expect(normalised(written)).toBe(normalised(SAMPLE));
    expect(written.split('\n').every((line) => line.length <= 80)).toBe(true);
    expect(writePgn(parsePgn(written)[0]!)).toBe(written);
  });
});
