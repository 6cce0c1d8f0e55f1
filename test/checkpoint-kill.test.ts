// A checkpointed `chess-native perft` killed with SIGKILL at random moments
// (while it splits, creates its journal, counts, or writes records), then run
// again with the same journal, always ends at the published count: no unit
// is lost or counted twice, whatever the kill interrupted.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readEpd, ROOT, rng } from './helpers';

const CLI = path.join(ROOT, 'dist', 'cli.js');
const TMP = mkdtempSync(path.join(os.tmpdir(), 'chess-native-kill-'));
afterAll(() => rmSync(TMP, { recursive: true, force: true }));

/** The published count of `fen` at `depth` in test/data/`file`. */
function published(file: string, fen: string, depth: number): bigint {
  const line = readEpd(file).find((l) => l.fen === fen);
  const count = line?.counts.get(depth);
  if (count === undefined) throw new Error(`${file} has no D${depth} for ${fen}`);
  return count;
}

// perft(7) and perft(8) of positions whose hashed counts take a quarter of
// a second (a fast CPU) to three seconds (a slow or loaded one) on two
// cores: room for kills at random moments, short enough for the whole test
// to stay within about a minute. Two are Chess960 positions (the flag is
// part of the journal).
const RUNS = [
  { fen: '8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1', depth: 8, chess960: false, file: 'cpw.epd', kills: 7 },
  { fen: '2r5/8/8/8/8/8/6PP/k2KR3 w K - 0 1', depth: 8, chess960: true, file: 'tricky960.epd', kills: 6 },
  { fen: '8/8/8/4B2b/6nN/8/5P2/2R1K2k w Q - 0 1', depth: 7, chess960: true, file: 'tricky960.epd', kills: 4 },
  { fen: 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', depth: 7, chess960: false, file: 'cpw.epd', kills: 4 },
];

// The earliest kill: before the addon has loaded.
const KILL_FROM_MS = 80;

interface Outcome {
  killed: boolean;
  status: number | null;
  stdout: string;
  stderr: string;
  ms: number; // from the spawn to the exit
  firstRecordMs: number; // from the spawn to the journal's first unit record (Infinity: none seen)
}

/** The lines of a journal's text: its header, then a record a unit. */
function lineCount(text: string): number {
  return text.split('\n').length - 1;
}

function journalText(journal: string): string {
  return existsSync(journal) ? readFileSync(journal, 'latin1') : '';
}

/** Runs the command; SIGKILLs it after `killAfterMs` unless it has exited by then.
 * With `watch`, polls that journal to time its first record. */
function runOrKill(args: string[], killAfterMs: number, watch?: string): Promise<Outcome> {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let killed = false;
    let firstRecordMs = Infinity;
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      killed = child.kill('SIGKILL');
    }, killAfterMs);
    const poll = watch
      ? setInterval(() => {
          if (firstRecordMs === Infinity && lineCount(journalText(watch)) > 1) firstRecordMs = performance.now() - started;
        }, 5)
      : undefined;
    child.on('close', (status) => {
      clearTimeout(timer);
      clearInterval(poll);
      resolve({ killed: killed && status === null, status, stdout, stderr, ms: performance.now() - started, firstRecordMs });
    });
  });
}

describe('checkpoint: kill -9 at random moments, then resume', { timeout: 240_000 }, () => {
  it('ends at the published count every time (at least 20 kills in all)', async () => {
    const seed = Number(process.env.CHESS_NATIVE_KILL_SEED ?? Date.now() % 1e9);
    const random = rng(seed);
    let kills = 0;
    let tornTails = 0;
    let midCount = 0; // kills that landed after the run had recorded units
    let completions = 0;
    for (const [i, run] of RUNS.entries()) {
      const expected = published(run.file, run.fen, run.depth);
      const journal = path.join(TMP, `journal-${i}`);
      const args = ['perft', String(run.depth), '--fen', run.fen, '--checkpoint', journal, '--threads', '2', '--hash', '64', '--json'];
      if (run.chess960) args.push('--chess960');
      const check = (o: Outcome): void => {
        const context = `seed ${seed}, ${run.fen} D${run.depth}: ${o.stderr}`;
        expect(o.status, context).toBe(0);
        expect(BigInt((/"nodes": (\d+)/.exec(o.stdout) ?? [])[1] ?? -1), context).toBe(expected);
        completions++;
      };
      // A first run, uninterrupted, times the command on this machine: half
      // the kills land anywhere from before the addon has loaded to the end
      // of the count, half while units are being recorded, whatever the
      // CPU's speed.
      const timed = await runOrKill(args, 600_000, journal);
      check(timed);
      rmSync(journal);
      const recordsFromMs = Math.min(timed.firstRecordMs, timed.ms / 2);
      for (let landed = 0; landed < run.kills;) {
        const from = landed % 2 === 0 ? KILL_FROM_MS : recordsFromMs;
        const o = await runOrKill(args, from + random() * Math.max(timed.ms - from, KILL_FROM_MS));
        if (!o.killed) {
          // It finished first: the count must be exact; start the next kills afresh.
          check(o);
          rmSync(journal);
          continue;
        }
        landed++;
        kills++;
        const text = journalText(journal);
        if (lineCount(text) > 1) midCount++;
        if (text !== '' && !text.endsWith('\n')) tornTails++;
      }
      check(await runOrKill(args, 600_000));
      // Every unit is recorded exactly once.
      const records = readFileSync(journal, 'latin1').trimEnd().split('\n').slice(1);
      const units = Number((/"units":(\d+)/.exec(readFileSync(journal, 'latin1')) ?? [])[1]);
      expect(new Set(records.map((r) => r.split(' ')[0])).size).toBe(units);
      expect(records).toHaveLength(units);
    }
    console.log(
      `checkpoint kills: seed ${seed}, ${kills} kills (${midCount} after units were recorded, ` +
        `${tornTails} leaving a torn last record), ${completions} exact completions`,
    );
    expect(kills).toBeGreaterThanOrEqual(20);
    expect(midCount).toBeGreaterThanOrEqual(5);
  });
});
