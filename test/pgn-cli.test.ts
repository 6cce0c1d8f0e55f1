// `chess-native pgn`: counts with errors as file:line:column, conversions, JSON.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generatePgn } from '../bench/pgn-corpus.mjs';
import { CLI, runWithStdoutClosed } from './cli-spawn';
import { ROOT } from './helpers';

const run = (...args: string[]) => spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 60_000 });

const TMP = mkdtempSync(path.join(tmpdir(), 'chess-native-pgn-cli-'));
afterAll(() => rmSync(TMP, { recursive: true, force: true }));
const file = path.join(TMP, 'games.pgn');
writeFileSync(file, '[Event "a"]\n\n1. e4 e5 2. Nf3 *\n\n[Event "b"]\n\n1. d4 d5 2. Ke3 *\n');

describe('chess-native pgn', () => {
  it('counts games, plies and errors; errors go to stderr as file:line:column, exit 1', () => {
    const r = run('pgn', file);
    expect(r.status).toBe(1);
    expect(r.stderr).toBe(`${file}:7:13: illegal or ambiguous move: Ke3 (game 2, ply 3)\n`);
    expect(r.stdout).toMatch(/^2 games, 5 plies, 1 errors in [\d.]+ s \(\d+ games\/s\)\n$/);
  });
  it('prints the errors on stderr and exits 1 in every mode; a clean file exits 0', () => {
    const error = `${file}:7:13: illegal or ambiguous move: Ke3 (game 2, ply 3)\n`;
    for (const mode of [['--json'], ['--to', 'uci'], ['--to', 'pgn', '--json'], ['--headers-only'], ['--threads', '2', '--to', 'san']]) {
      const r = run('pgn', file, ...mode);
      expect(r.stderr, mode.join(' ')).toBe(mode.includes('--headers-only') ? '' : error);
      expect(r.status, mode.join(' ')).toBe(mode.includes('--headers-only') ? 0 : 1);
    }
    expect(run('pgn', file, '--to', 'uci').stdout).toBe('e2e4 e7e5 g1f3\nd2d4 d7d5\n');
    const clean = path.join(path.dirname(file), 'clean.pgn');
    writeFileSync(clean, '[Event "a"]\n\n1. e4 e5 2. Nf3 *\n');
    for (const mode of [[], ['--json'], ['--to', 'pgn']]) expect(run('pgn', clean, ...mode)).toMatchObject({ status: 0, stderr: '' });
  });
  it('a closed stdout (| head -1) stops the read quietly with exit 141', async () => {
    const many = path.join(path.dirname(file), 'many.pgn');
    writeFileSync(many, '[Event "a"]\n\n1. e4 e5 2. Nf3 *\n\n'.repeat(50_000));
    for (const to of ['uci', 'pgn']) {
      const r = await runWithStdoutClosed(['pgn', many, '--to', to], 1);
      expect(r.stderr).toBe('');
      expect(r.status).toBe(141);
    }
  });
  it('a directory or a missing file: one line on stderr naming it, exit 2', () => {
    const dir = path.dirname(file);
    expect(run('pgn', dir)).toMatchObject({ status: 2, stdout: '', stderr: `chess-native: cannot read ${dir}: it is a directory\n` });
    const missing = path.join(dir, 'no-such-file.pgn');
    expect(run('pgn', missing)).toMatchObject({
      status: 2,
      stdout: '',
      stderr: `chess-native: cannot read ${missing}: ENOENT (no such file)\n`,
    });
  });
  it('converts to uci, san, fen, epd and pgn', () => {
    expect(run('pgn', file, '--to', 'uci').stdout).toBe('e2e4 e7e5 g1f3\nd2d4 d7d5\n');
    expect(run('pgn', file, '--to', 'san').stdout).toBe('e4 e5 Nf3\nd4 d5\n');
    expect(run('pgn', file, '--to', 'epd').stdout.split('\n')[0]).toBe('rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq -');
    expect(run('pgn', file, '--to', 'fen').stdout.split('\n')[1]).toBe('rnbqkbnr/ppp1pppp/8/3p4/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 0 2');
    expect(run('pgn', file, '--to', 'pgn').stdout).toBe('[Event "a"]\n\n1. e4 e5 2. Nf3 *\n\n[Event "b"]\n\n1. d4 d5 *\n\n');
  });
  it('prints JSON and headers only', () => {
    const summary = JSON.parse(run('pgn', file, '--json').stdout) as { games: number; plies: number; errors: unknown[] };
    expect(summary).toMatchObject({ games: 2, plies: 5 });
    expect(summary.errors).toHaveLength(1);
    const heads = run('pgn', file, '--headers-only', '--json')
      .stdout.trim()
      .split('\n')
      .map((l) => JSON.parse(l) as unknown);
    expect(heads).toEqual([
      { headers: { Event: 'a' }, errors: [] },
      { headers: { Event: 'b' }, errors: [] },
    ]);
  });
  it('reads with --threads the same games and errors as with one thread', () => {
    // Long enough to be cut into blocks (16 KiB or more each), with errors on both sides of the middle.
    const filler = generatePgn({ seed: 31, games: 6, variations: true, comments: true });
    const big = path.join(path.dirname(file), 'big.pgn');
    const broken = '[Event "broken"]\n\n1. e4 e5 2. Ke3 *\n\n';
    writeFileSync(big, broken + filler + '\n' + broken + filler + '\n' + broken);
    const withoutTime = (s: string) => s.replace(/ in [\d.]+ s \(\d+ games\/s\)/, '');
    const one = run('pgn', big);
    expect(one.status).toBe(1);
    expect(one.stderr.trim().split('\n')).toHaveLength(3);
    for (const threads of ['2', '3']) {
      const many = run('pgn', big, '--threads', threads);
      expect(withoutTime(many.stdout)).toBe(withoutTime(one.stdout));
      expect(many.stderr).toBe(one.stderr);
    }
    expect(run('pgn', big, '--threads', '2', '--to', 'uci').stdout).toBe(run('pgn', big, '--to', 'uci').stdout);
  });
  it('rejects bad arguments with exit status 2', () => {
    expect(run('pgn', file, '--threads', '0').status).toBe(2);
    expect(run('pgn', file, '--threads', '1.5').status).toBe(2);
    expect(run('pgn').status).toBe(2);
    expect(run('pgn', file, '--to', 'xml').status).toBe(2);
    expect(run('pgn', path.join(ROOT, 'no-such-file.pgn')).status).toBe(2);
  });
});
