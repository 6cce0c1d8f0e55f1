// The chess-native command line, spawned as a user would run it (the package's bin).
import { spawnSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI, runWithStdoutClosed } from './cli-spawn';
import { api, PERFT_DIR, ROOT } from './helpers';

const KIWIPETE = 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1';
const TMP = mkdtempSync(path.join(os.tmpdir(), 'chess-native-cli-'));
afterAll(() => rmSync(TMP, { recursive: true, force: true }));

function run(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 60_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Bad input: a non-zero exit, exactly one line on stderr, and no stack trace. */
function expectOneLineError(r: ReturnType<typeof run>, pattern: RegExp): void {
  expect(r.status).toBe(2);
  expect(r.stdout).toBe('');
  expect(r.stderr).toMatch(pattern);
  expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
  expect(r.stderr).not.toMatch(/\n\s+at /);
}

function suiteFile(name: string, text: string): string {
  const file = path.join(TMP, name);
  writeFileSync(file, text);
  return file;
}

describe('chess-native perft', { timeout: 60_000 }, () => {
  it('--json prints one object: nodes, seconds, nps, divide summing to nodes', () => {
    const r = run('perft', '4', '--fen', KIWIPETE, '--divide', '--json', '--threads', '2', '--hash', '4');
    expect(r.status).toBe(0);
    expect(r.stdout.trimEnd().split('\n')).toHaveLength(1);
    const out = JSON.parse(r.stdout) as { nodes: number; seconds: number; nps: number; divide: Record<string, number> };
    expect(out.nodes).toBe(4085603);
    expect(out.seconds).toBeGreaterThan(0);
    expect(out.nps).toBeGreaterThan(0);
    expect(Object.keys(out.divide)).toHaveLength(48);
    expect(Object.values(out.divide).reduce((a, b) => a + b, 0)).toBe(out.nodes);
    expect(out.divide).toEqual(Object.fromEntries(Object.entries(new api.Position(KIWIPETE).divide(4)).map(([m, n]) => [m, n])));
  });

  it('--verify counts with two key sets and says so; --hash auto says what it picked', () => {
    const r = run('perft', '4', '--fen', KIWIPETE, '--verify', '--hash', '1', '--threads', '2');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('nodes 4085603\n');
    expect(r.stdout).toContain('verified: the same count with two hash key sets\n');
    const auto = run('perft', '1', '--hash', 'auto');
    expect(auto.status).toBe(0);
    expect(auto.stdout).toMatch(/^hash {2}auto: \d+ MiB: 3\/4 of the \d+ MiB available \(.+\), rounded down to a power of two$/m);
  });

  it('--hash beyond the memory available fails at once with exit 2', () => {
    const r = run('perft', '10', '--hash', '1048576');
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^chess-native: options\.hashMb 1048576 MiB is more than the \d+ MiB of memory available/);
  });

  it('--json without --divide has no divide; default FEN is the start position', () => {
    const out = JSON.parse(run('perft', '5', '--json', '--hash', '0').stdout) as Record<string, unknown>;
    expect(out.nodes).toBe(4865609);
    expect(out).not.toHaveProperty('divide');
  });

  it('human output: divide lines that sum to the total, then nodes, time and Mnps', () => {
    const r = run('perft', '3', '--divide', '--fen', KIWIPETE, '--threads', '1');
    expect(r.status).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    const moves = lines.filter((l) => /^[a-h][1-8][a-h][1-8][qrbn]?: \d+$/.test(l));
    expect(moves).toHaveLength(48);
    const total = moves.reduce((sum, l) => sum + Number(l.split(': ')[1]), 0);
    expect(total).toBe(97862);
    expect(r.stdout).toMatch(/^nodes 97862$/m);
    expect(r.stdout).toMatch(/^time +[\d.]+ s$/m);
    expect(r.stdout).toMatch(/^speed +[\d.]+ Mnps$/m);
    // No TTY: no progress bar on stderr.
    expect(r.stderr).toBe('');
  });

  it('--chess960 parses Shredder-FEN castling and prints king-takes-rook castling', () => {
    const r = run('perft', '1', '--chess960', '--divide', '--json', '--fen', '1r2k2r/8/8/8/8/8/8/R3K1R1 w GAhb - 0 1');
    expect(r.status).toBe(0);
    const out = JSON.parse(r.stdout) as { divide: Record<string, number> };
    expect(out.divide).toHaveProperty('e1g1', 1);
    expect(out.divide).toHaveProperty('e1a1', 1);
  });

  it('Ctrl-C stops a long run: one line, exit 130', async () => {
    const child = spawn(process.execPath, [CLI, 'perft', '12', '--hash', '16'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    // Long enough for Node to start and install its SIGINT handler on a loaded machine.
    await new Promise((r) => setTimeout(r, 1500));
    child.kill('SIGINT');
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(130);
    expect(stderr.trim()).toBe('chess-native: interrupted');
  });

  it.each([
    [['perft'], /depth/],
    [['perft', 'x'], /depth must be an integer/],
    [['perft', '21'], /depth must be an integer from 0 to 20/],
    [['perft', '-3'], /.+/],
    [['perft', '3', '4'], /exactly one depth/],
    [['perft', '3', '--fen', 'not a fen'], /^chess-native: invalid FEN: /],
    [['perft', '3', '--fen', '8/8/8/8/8/8/8/8 w - - 0 1'], /invalid FEN/],
    [['perft', '3', '--threads', '0'], /--threads must be an integer from 1 to 256/],
    [['perft', '3', '--hash', '-1'], /--hash/],
    [['perft', '3', '--hash', 'lots'], /--hash/],
    [['perft', '3', '--bogus'], /bogus/],
    [['perft', '3', '--fen'], /fen/],
    [['frobnicate'], /unknown command "frobnicate"/],
  ])('bad input %j: one line on stderr, exit 2', (args, pattern) => {
    expectOneLineError(run(...args), pattern);
  });
});

describe('chess-native suite', { timeout: 60_000 }, () => {
  it('passes a correct suite (4- and 6-field FENs) and exits 0', () => {
    const file = suiteFile(
      'good.epd',
      [
        'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 400 ;D3 8902 ;D4 197281',
        '',
        '# a comment',
        'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - ;D1 48 ;D2 2039 ;D3 97862',
      ].join('\n'),
    );
    const r = run('suite', file);
    expect(r.status).toBe(0);
    expect(r.stdout.match(/^ok /gm)).toHaveLength(7);
    expect(r.stdout).toMatch(/7 passed, 0 failed, 0 skipped/);
  });

  it('--max-nodes and --depth skip the larger counts', () => {
    const file = suiteFile('skip.epd', 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 400 ;D3 8902 ;D4 197281\n');
    expect(run('suite', file, '--max-nodes', '10000').stdout).toMatch(/3 passed, 0 failed, 1 skipped/);
    expect(run('suite', file, '--depth', '2').stdout).toMatch(/2 passed, 0 failed, 2 skipped/);
  });

  it('reports a mismatch and exits 1', () => {
    const file = suiteFile('bad.epd', 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 401 ;D3 8902\n');
    const r = run('suite', file);
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/^FAIL line 1 D2 expected 401, got 400/m);
    expect(r.stdout).toMatch(/2 passed, 1 failed/);
  });

  it('a line with a bad FEN fails the suite (exit 1) and the run goes on', () => {
    const file = suiteFile('badfen.epd', ['8/8/8 w - - 0 1 ;D1 3', '4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D1 15 ;D2 66'].join('\n'));
    const r = run('suite', file);
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/^FAIL line 1 bad FEN/m);
    expect(r.stdout).toMatch(/2 passed, 1 failed/);
  });

  it('--chess960 runs a Chess960 suite', () => {
    // The first line of fischer.epd, with its published counts.
    const fischer = readFileSync(path.join(PERFT_DIR, 'fischer.epd'), 'utf8').split('\n')[0] as string;
    const r = run('suite', suiteFile('960.epd', `${fischer}\n`), '--chess960', '--max-nodes', '1000000');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/[1-9]\d* passed, 0 failed/);
  });

  it('unreadable file or malformed counts: one line, exit 2', () => {
    expectOneLineError(run('suite', path.join(TMP, 'missing.epd')), /cannot read .*missing\.epd: ENOENT/);
    expectOneLineError(run('suite', suiteFile('junk.epd', '8/8/8/8/8/8/8/8 w - - 0 1 ;D1 many\n')), /expected ";D<depth> <count>"/);
    expectOneLineError(run('suite'), /exactly one file/);
  });
});

describe('chess-native bench, --help, --version', { timeout: 120_000 }, () => {
  it('bench: the six CPW positions and a total', () => {
    const r = run('bench', '--threads', '2');
    expect(r.status).toBe(0);
    const rows = r.stdout.split('\n').filter((l) => / Mnps$/.test(l));
    expect(rows).toHaveLength(7);
    expect(rows.at(-1)).toMatch(/^total +1,451,446,453 /);
    expect(r.stdout).not.toMatch(/WRONG/);
  });

  it('--help prints usage and exits 0; no command prints usage and exits 2', () => {
    const help = run('--help');
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/^Usage: chess-native <command>/);
    for (const command of ['perft <depth>', 'suite <file.epd>', 'bench']) expect(help.stdout).toContain(command);
    expect(help.stdout).toMatch(/1 when .* or a PGN file has errors; 2 on bad arguments/s);
    expect(help.stdout).toMatch(/141 when stdout is closed early/);
    expect(run().status).toBe(2);
  });

  it('--version prints the package version', () => {
    const { version } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string };
    const r = run('--version');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain(`chess-native ${version}`);
  });
});

describe('a closed stdout (| head) ends every command quietly, exit 141', { timeout: 120_000 }, () => {
  const units = path.join(TMP, 'units.jsonl');
  const part = path.join(TMP, 'part-0.jsonl');
  const games = suiteFile('games.pgn', '[Event "a"]\n\n1. e4 e5 2. Nf3 *\n');
  const suite = suiteFile('closed.epd', 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 400\n');
  it.each([
    [['perft', '3', '--divide']],
    [['perft', '2', '--json']],
    [['suite', suite]],
    [['bench', '--threads', '1']],
    [['split', '--depth', '2', '--ply', '1', '--out', units]],
    [['run-units', units, '--shard', '0/1', '--out', part]],
    [['merge', units, part]],
    [['pgn', games]],
    [['pgn', games, '--json']],
    [['pgn', games, '--to', 'uci']],
    [['pgn', games, '--headers-only']],
    [['--help']],
    [['--version']],
  ])('%j', async (args) => {
    const r = await runWithStdoutClosed(args);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(141);
  });
});

describe('a directory where a file is expected: one line naming it, exit 2', () => {
  it.each([
    [['suite', TMP], `cannot read ${TMP}: it is a directory`],
    [['pgn', TMP], `cannot read ${TMP}: it is a directory`],
    [['merge', TMP], `cannot read ${TMP}: it is a directory`],
    [['run-units', TMP, '--shard', '0/1', '--out', path.join(TMP, 'p.jsonl')], `cannot read ${TMP}: it is a directory`],
    [['split', '--depth', '2', '--ply', '1', '--out', TMP], `cannot write ${TMP}: it is a directory`],
    [['perft', '1', '--checkpoint', TMP], `cannot write ${TMP}: it is a directory`],
  ])('%j', (args, message) => {
    const r = run(...args);
    expectOneLineError(r, /.+/);
    expect(r.stderr).toBe(`chess-native: ${message}\n`);
  });
});
