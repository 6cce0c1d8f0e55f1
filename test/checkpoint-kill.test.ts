// A checkpointed `chess-native perft` killed with SIGKILL at random moments
// (while it splits, creates its journal, counts, or writes records), then run
// again with the same journal, always ends at the published count: no unit
// is lost or counted twice, whatever the kill interrupted.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readEpd, rng } from './helpers';
import { CLI } from './cli-spawn';

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
// cores: short enough for the whole test to stay within about a minute.
// Half the kills come at random moments, half on progress (once the run has
// recorded some of its units), so that kills land mid-count whatever the
// CPU's speed. Two are Chess960 positions (the flag is part of the journal).
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
  recorded: number; // unit records this run added to the journal before it ended
}

/** When runOrKill kills: after a time, or once the run has added that many
 * records to the journal (polled every 2 ms); never, when neither is set. */
interface Kill {
  afterMs?: number;
  afterRecords?: number;
}

/** The lines of a journal's text: its header, then a record a unit. */
function lineCount(text: string): number {
  return text.split('\n').length - 1;
}

function journalText(journal: string): string {
  return existsSync(journal) ? readFileSync(journal, 'latin1') : '';
}

/** The unit records in a journal (the lines after its header). */
function records(journal: string): number {
  return Math.max(lineCount(journalText(journal)) - 1, 0);
}

/** Runs the command with its journal; SIGKILLs it as `kill` says unless it
 * has exited by then. */
function runOrKill(args: string[], journal: string, kill: Kill): Promise<Outcome> {
  return new Promise((resolve) => {
    const started = performance.now();
    const before = records(journal);
    const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let killed = false;
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = kill.afterMs === undefined ? undefined : setTimeout(() => (killed = child.kill('SIGKILL')), kill.afterMs);
    const { afterRecords } = kill;
    const poll =
      afterRecords === undefined
        ? undefined
        : setInterval(() => {
            if (!killed && records(journal) - before >= afterRecords) killed = child.kill('SIGKILL');
          }, 2);
    child.on('close', (status) => {
      clearTimeout(timer);
      clearInterval(poll);
      const ms = performance.now() - started;
      resolve({ killed: killed && status === null, status, stdout, stderr, ms, recorded: records(journal) - before });
    });
  });
}

describe('checkpoint: kill -9 at random moments, then resume', { timeout: 240_000 }, () => {
  it('ends at the published count every time (at least 20 kills in all)', async () => {
    const seed = Number(process.env.CHESS_NATIVE_KILL_SEED ?? Date.now() % 1e9);
    const random = rng(seed);
    let kills = 0;
    let tornTails = 0;
    let midCount = 0; // kills that landed after the killed run had recorded units
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
      // A first run, uninterrupted, times the command and counts its units:
      // half the kills land anywhere from before the addon has loaded to the
      // end of the count, half once the run has recorded between one unit
      // and half of them (a progress event, not a time), whatever the CPU's
      // speed.
      const timed = await runOrKill(args, journal, {});
      check(timed);
      rmSync(journal);
      const half = Math.max(Math.floor(timed.recorded / 2), 1);
      for (let landed = 0; landed < run.kills;) {
        const kill =
          landed % 2 === 0
            ? { afterMs: KILL_FROM_MS + random() * Math.max(timed.ms - KILL_FROM_MS, KILL_FROM_MS) }
            : { afterRecords: 1 + Math.floor(random() * half) };
        const o = await runOrKill(args, journal, kill);
        if (!o.killed) {
          // It finished first: the count must be exact; start the next kills afresh.
          check(o);
          rmSync(journal);
          continue;
        }
        landed++;
        kills++;
        if (o.recorded > 0) midCount++;
        const text = journalText(journal);
        if (text !== '' && !text.endsWith('\n')) tornTails++;
      }
      check(await runOrKill(args, journal, {}));
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
