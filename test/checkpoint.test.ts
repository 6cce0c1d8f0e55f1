// perftAsync's checkpoint journal: resume after a cancel, torn tails dropped
// and recounted, corrupted and foreign journals refused; the CLI's
// --checkpoint. The kill -9 test is in checkpoint-kill.test.ts.
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { api, readEpd, rng } from './helpers';
import { CLI } from './cli-spawn';

const { perftAsync, JournalError, AbortError, START_FEN } = api;
const TMP = mkdtempSync(path.join(os.tmpdir(), 'chess-native-checkpoint-'));
afterAll(() => rmSync(TMP, { recursive: true, force: true }));

const KIWIPETE = 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1';
const CPW = readEpd('cpw.epd');
const count = (fen: string, depth: number): bigint => CPW.find((l) => l.fen === fen)?.counts.get(depth) as bigint;
let fileNumber = 0;
const newFile = (): string => path.join(TMP, `journal-${fileNumber++}`);
const OPTIONS = { threads: 2, hashMb: 16 } as const;

/** A finished journal of kiwipete perft(5) (ply 1: 48 units), made once. */
let finished: string | undefined;
async function finishedJournal(): Promise<string> {
  if (!finished) {
    finished = newFile();
    await perftAsync(KIWIPETE, 5, { ...OPTIONS, checkpoint: finished });
  }
  const copy = newFile();
  copyFileSync(finished, copy);
  return copy;
}

const lines = (file: string): string[] => readFileSync(file, 'latin1').split('\n');

/** Rewrites a journal's header with `change` applied, with a valid digest (a journal of another run). */
function withHeader(file: string, change: (header: Record<string, unknown>) => void): void {
  const [first, ...rest] = lines(file);
  const body = (first as string).slice(0, (first as string).lastIndexOf(' '));
  const prefix = 'chess-native-journal 1 ';
  const header = JSON.parse(body.slice(prefix.length)) as Record<string, unknown>;
  change(header);
  const newBody = `${prefix}${JSON.stringify(header)}`;
  const digest = createHash('sha256').update(newBody).digest('hex');
  writeFileSync(file, [`${newBody} ${digest}`, ...rest].join('\n'), 'latin1');
}

describe('perftAsync with a checkpoint', { timeout: 60_000 }, () => {
  it('gives the published count and divide, and a rerun reads it back without counting', async () => {
    const file = newFile();
    const progress: Array<{ nodes: bigint; unitsDone?: number; unitsTotal?: number; rootMovesDone: number }> = [];
    const first = await perftAsync(KIWIPETE, 5, { ...OPTIONS, checkpoint: file, divide: true, onProgress: (p) => progress.push(p) });
    expect(first.nodes).toBe(count(KIWIPETE, 5));
    expect(first.checkpoint).toEqual({ ply: 1, units: 48, unitsResumed: 0 });
    const plain = await perftAsync(KIWIPETE, 5, { ...OPTIONS, divide: true });
    expect(first.divide).toEqual(plain.divide);
    for (let i = 1; i < progress.length; i++) expect(progress[i]!.nodes).toBeGreaterThanOrEqual(progress[i - 1]!.nodes);
    expect(progress.at(-1)).toMatchObject({ nodes: first.nodes, unitsDone: 48, unitsTotal: 48, rootMovesDone: 48 });

    const again = await perftAsync(KIWIPETE, 5, { ...OPTIONS, checkpoint: file });
    expect(again.nodes).toBe(first.nodes);
    expect(again.checkpoint?.unitsResumed).toBe(48);
    expect(lines(file)).toHaveLength(1 + 48 + 1); // header, 48 records, the final newline
  });

  it('splits deeper counts at ply 2 and 3 (transpositions merged) and still sums exactly', async () => {
    const six = await perftAsync(START_FEN, 6, { ...OPTIONS, checkpoint: newFile(), divide: true });
    expect(six.nodes).toBe(count(START_FEN, 6));
    expect(six.checkpoint).toMatchObject({ ply: 1, units: 20 });
    const position3 = '8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1';
    const seven = await perftAsync(position3, 7, { ...OPTIONS, checkpoint: newFile() });
    expect(seven.nodes).toBe(count(position3, 7));
    expect(seven.checkpoint).toMatchObject({ ply: 2, units: 191 });
    const eight = await perftAsync(position3, 8, { ...OPTIONS, checkpoint: newFile() });
    expect(eight.nodes).toBe(count(position3, 8));
    expect(eight.checkpoint?.ply).toBe(3);
    expect(eight.checkpoint?.units).toBeLessThan(2812); // fewer unique positions than the 2812 move sequences
  });

  it('depth 0 and 1, and a position without moves', async () => {
    expect((await perftAsync(KIWIPETE, 0, { checkpoint: newFile() })).nodes).toBe(1n);
    expect((await perftAsync(KIWIPETE, 1, { checkpoint: newFile(), divide: true })).nodes).toBe(48n);
    const mated = 'rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3';
    expect((await perftAsync(mated, 4, { checkpoint: newFile() })).nodes).toBe(0n);
  });

  it('an abort leaves a journal that the next run resumes to the exact count', async () => {
    const file = newFile();
    const controller = new AbortController();
    let seen = 0;
    const aborted = perftAsync(START_FEN, 7, {
      ...OPTIONS,
      checkpoint: file,
      signal: controller.signal,
      onProgress: (p) => {
        seen = p.unitsDone ?? 0;
        if (seen >= 30) controller.abort('enough');
      },
    });
    await expect(aborted).rejects.toBeInstanceOf(AbortError);
    await expect(aborted).rejects.toMatchObject({ cause: 'enough' });
    const recorded = lines(file).length - 2;
    expect(recorded).toBeGreaterThanOrEqual(30);
    expect(recorded).toBeLessThan(400);
    const resumed = await perftAsync(START_FEN, 7, { ...OPTIONS, checkpoint: file });
    expect(resumed.nodes).toBe(count(START_FEN, 7));
    expect(resumed.checkpoint).toEqual({ ply: 2, units: 400, unitsResumed: recorded });
  });

  it('drops a torn tail (a journal cut anywhere, or garbage after the last record) and recounts it', async () => {
    const expected = count(KIWIPETE, 5);
    const whole = await finishedJournal();
    const size = readFileSync(whole).length;
    const headerEnd = readFileSync(whole, 'latin1').indexOf('\n') + 1;
    const random = rng(14);
    const cuts = [headerEnd, size - 1, ...Array.from({ length: 6 }, () => headerEnd + Math.floor(random() * (size - headerEnd)))];
    for (const cut of cuts) {
      const file = newFile();
      copyFileSync(whole, file);
      truncateSync(file, cut);
      const r = await perftAsync(KIWIPETE, 5, { ...OPTIONS, checkpoint: file });
      expect(r.nodes, `cut at ${cut}`).toBe(expected);
      expect(r.checkpoint!.unitsResumed).toBe(readFileSync(whole, 'latin1').slice(headerEnd, cut).split('\n').length - 1);
      expect(readFileSync(file).length).toBe(size); // the torn record was cut off, then written again whole
    }
    for (const tail of ['garbage', '\0\0\0\0', '12 34 zz\n', 'zz\n\0\0\n']) {
      const file = await finishedJournal();
      writeFileSync(file, tail, { flag: 'a' });
      const r = await perftAsync(KIWIPETE, 5, { ...OPTIONS, checkpoint: file });
      expect(r.nodes).toBe(expected);
      expect(r.checkpoint!.unitsResumed).toBe(48);
      expect(readFileSync(file).length).toBe(size);
    }
  });

  it('refuses a journal corrupted before its last record', async () => {
    const edits: Array<(records: string[]) => void> = [
      (r) => (r[3] = r[3]!.replace(/^(\d+) (\d)/, (_, u: string, d: string) => `${u} ${(Number(d) + 1) % 10}`)), // a count
      (r) => (r[5] = r[5]!.replace(/^\d+/, '47')), // the unit of a record
      (r) => (r[2] = ''), // an empty line
      (r) => (r[1] = `${r[1]} `),
    ];
    for (const edit of edits) {
      const file = await finishedJournal();
      const [header, ...records] = lines(file);
      edit(records);
      writeFileSync(file, [header, ...records].join('\n'), 'latin1');
      const run = perftAsync(KIWIPETE, 5, { ...OPTIONS, checkpoint: file });
      await expect(run).rejects.toBeInstanceOf(JournalError);
      await expect(run).rejects.toThrow(/line \d+ is corrupted and valid records follow it/);
    }
    // A record copied from the journal of another run fails its check too.
    const other = newFile();
    await perftAsync(KIWIPETE, 4, { ...OPTIONS, checkpoint: other });
    const file = await finishedJournal();
    const [header, ...records] = lines(file);
    records[0] = lines(other)[1] as string;
    writeFileSync(file, [header, ...records].join('\n'), 'latin1');
    await expect(perftAsync(KIWIPETE, 5, { ...OPTIONS, checkpoint: file })).rejects.toThrow(/line 2 is corrupted/);
  });

  it('refuses a unit recorded twice with different counts', async () => {
    const file = await finishedJournal();
    const good = lines(file);
    // Two valid records of unit 0 can only come from two runs of the same journal; craft one.
    const digest = (good[0] as string).split(' ').at(-1) as string;
    const check = (u: number, n: bigint): string => createHash('sha256').update(`${digest}:${u}:${n}`).digest('hex').slice(0, 16);
    writeFileSync(file, `0 1 ${check(0, 1n)}\n`, { flag: 'a' });
    await expect(perftAsync(KIWIPETE, 5, { ...OPTIONS, checkpoint: file })).rejects.toThrow(
      /unit 0 is recorded twice with different counts/,
    );
  });

  it('refuses the journal of another position, depth, Chess960 flag or key set, and files that are not journals', async () => {
    const file = await finishedJournal();
    const refused = async (fen: string, depth: number, options: object, pattern: RegExp): Promise<void> => {
      const run = perftAsync(fen, depth, { ...OPTIONS, ...options, checkpoint: file });
      await expect(run).rejects.toBeInstanceOf(JournalError);
      await expect(run).rejects.toThrow(pattern);
      await expect(run).rejects.toMatchObject({ file });
    };
    await refused(START_FEN, 5, {}, /journal of another run: its fen is "r3k2r.*this run's is "rnbqkbnr\//);
    await refused(KIWIPETE, 4, {}, /its depth is 5, this run's is 4/);
    await refused(KIWIPETE, 5, { chess960: true }, /its chess960 is false, this run's is true/);
    const foreignKeys = await finishedJournal();
    withHeader(foreignKeys, (h) => (h.keySet = 'another-engine/128'));
    await expect(perftAsync(KIWIPETE, 5, { ...OPTIONS, checkpoint: foreignKeys })).rejects.toThrow(
      `its keySet is "another-engine/128", this run's is "${api.perftKeySetId()}"`,
    );
    const resplit = await finishedJournal();
    withHeader(resplit, (h) => (h.unitsChecksum = '0'.repeat(64)));
    await expect(perftAsync(KIWIPETE, 5, { ...OPTIONS, checkpoint: resplit })).rejects.toThrow(/its unitsChecksum is/);
    const damagedHeader = await finishedJournal();
    writeFileSync(damagedHeader, readFileSync(damagedHeader, 'latin1').replace('"depth":5', '"depth":6'), 'latin1');
    await expect(perftAsync(KIWIPETE, 6, { ...OPTIONS, checkpoint: damagedHeader })).rejects.toThrow(
      /not a chess-native checkpoint journal, or its header is damaged/,
    );
    const cutHeader = await finishedJournal();
    truncateSync(cutHeader, 100); // inside the header line: not a torn record
    await expect(perftAsync(KIWIPETE, 5, { ...OPTIONS, checkpoint: cutHeader })).rejects.toThrow(/its header is damaged/);
    for (const text of ['', 'hello\n', '{"format":"chess-native-units"}\n']) {
      const notJournal = newFile();
      writeFileSync(notJournal, text);
      await expect(perftAsync(KIWIPETE, 5, { ...OPTIONS, checkpoint: notJournal })).rejects.toBeInstanceOf(JournalError);
      expect(readFileSync(notJournal, 'utf8')).toBe(text); // left as it was
    }
  });

  it('checks the option before any work', async () => {
    await expect(perftAsync(KIWIPETE, 5, { checkpoint: 5 as unknown as string })).rejects.toBeInstanceOf(TypeError);
    await expect(perftAsync(KIWIPETE, 5, { checkpoint: '' })).rejects.toBeInstanceOf(TypeError);
    const missingDir = path.join(TMP, 'no-such-dir', 'journal');
    await expect(perftAsync(KIWIPETE, 3, { checkpoint: missingDir })).rejects.toMatchObject({ code: 'ENOENT' });
    expect(existsSync(missingDir)).toBe(false);
  });
});

describe('chess-native perft --checkpoint', { timeout: 60_000 }, () => {
  const run = (...args: string[]) => spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 60_000 });

  it('counts, resumes, and refuses a journal of another run with one line and exit status 2', () => {
    const file = newFile();
    const first = run('perft', '5', '--fen', KIWIPETE, '--checkpoint', file, '--json');
    expect(first.status).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({
      nodes: Number(count(KIWIPETE, 5)),
      checkpoint: { ply: 1, units: 48, unitsResumed: 0 },
    });
    const again = run('perft', '5', '--fen', KIWIPETE, '--checkpoint', file);
    expect(again.stdout).toMatch(new RegExp(`^nodes ${count(KIWIPETE, 5)}$`, 'm'));
    expect(again.stderr).toMatch(/checkpoint: 48 units at ply 1, 48 recorded by earlier runs/);
    const other = run('perft', '4', '--fen', KIWIPETE, '--checkpoint', file);
    expect(other.status).toBe(2);
    expect(other.stdout).toBe('');
    expect(other.stderr.trimEnd().split('\n')).toEqual([
      expect.stringMatching(/^chess-native: .* is the journal of another run: its depth is 5/),
    ]);
  });
});
