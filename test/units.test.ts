// Work units for batch clusters: split, shards run as separate processes by
// GNU parallel (as on a cluster), merge; the same three steps through the JS
// API; merge's refusals (missing, duplicated, tampered parts) and refused
// units files. Expected totals are the published counts of test/data.
import { spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, readEpd } from './helpers';
import { CLI } from './cli-spawn';
import { GNU_PARALLEL, haveTool } from './tools';

const {
  splitPerft,
  runUnits,
  mergeUnits,
  readUnitsFile,
  writeUnitsFile,
  readPartFile,
  writePartFile,
  UnitsError,
  AbortError,
  JournalError,
} = api;
const TMP = mkdtempSync(path.join(os.tmpdir(), 'chess-native-units-'));
afterAll(() => rmSync(TMP, { recursive: true, force: true }));

const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
const KIWIPETE = 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1';
const published = (file: string, fen: string, depth: number): bigint => {
  const count = readEpd(file)
    .find((l) => l.fen === fen)
    ?.counts.get(depth);
  if (count === undefined) throw new Error(`${file} has no D${depth} for ${fen}`);
  return count;
};
const file = (name: string): string => path.join(TMP, name);

interface Ran {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command without blocking the test worker's event loop (vitest talks to it meanwhile). */
function runAsync(command: string, args: string[], env: Record<string, string> = {}): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

const cli = (args: string[], env: Record<string, string> = {}): Promise<Ran> => runAsync(process.execPath, [CLI, ...args], env);

describe.skipIf(!haveTool(GNU_PARALLEL))('split / run-units with GNU parallel / merge', { timeout: 120_000 }, () => {
  const units = file('start6.jsonl');
  const parts = [0, 1, 2, 3].map((i) => file(`start6-part-${i}.jsonl`));

  beforeAll(async () => {
    const split = await cli(['split', '--depth', '6', '--ply', '3', '--out', units]);
    expect(split.status, split.stderr).toBe(0);
    expect(split.stdout).toMatch(/^5362 units at ply 3 \(multiplicity 8902\), remaining depth 3/);
    // Four shards, two at a time, each its own process, as on a cluster.
    const run = await runAsync('parallel', [
      '--will-cite',
      '--halt',
      'now,fail=1',
      '-j',
      '2',
      process.execPath,
      CLI,
      'run-units',
      units,
      '--shard',
      '{}/4',
      '--threads',
      '1',
      '--out',
      path.join(TMP, 'start6-part-{}.jsonl'),
      ':::',
      '0',
      '1',
      '2',
      '3',
    ]);
    expect(run.status, run.stderr).toBe(0);
  }, 120_000);

  it('the unit file: 5362 unique positions at ply 3 whose multiplicities sum to perft(3)', async () => {
    const set = readUnitsFile(units);
    // 5362: the unique positions after three plies (OEIS A083276); 8902: perft(3).
    expect(set.manifest).toMatchObject({ fen: START, depth: 6, ply: 3, remainingDepth: 3, units: 5362, chess960: false });
    expect(set.manifest.multiplicity).toBe(published('cpw.epd', START, 3));
    expect(new Set(set.units.map((u) => u.fen)).size).toBe(5362);
    expect(set.units.some((u) => u.multiplicity > 1n)).toBe(true);
  });

  it('merge sums the parts to the published perft(6)', async () => {
    const merged = await cli(['merge', units, ...parts, '--json']);
    expect(merged.status, merged.stderr).toBe(0);
    const out = JSON.parse(merged.stdout) as { nodes: number; units: number; parts: number };
    expect(BigInt(out.nodes)).toBe(published('cpw.epd', START, 6));
    expect(out).toMatchObject({ units: 5362, parts: 4 });
  });

  it('a shard index from JOB_COMPLETION_INDEX, SLURM_ARRAY_TASK_ID or AWS_BATCH_JOB_ARRAY_INDEX gives the same part', async () => {
    const small = file('kiwi3.jsonl');
    expect((await cli(['split', '--fen', KIWIPETE, '--depth', '3', '--ply', '1', '--out', small])).status).toBe(0);
    expect((await cli(['run-units', small, '--shard', '1/4', '--out', file('kiwi3-part-1.jsonl')])).status).toBe(0);
    const expected = readPartFile(file('kiwi3-part-1.jsonl')).records;
    expect(expected.map((r) => r.unit)).toEqual(Array.from({ length: 12 }, (_, i) => 12 + i)); // the second quarter
    const cases: Array<Record<string, string>> = [
      { JOB_COMPLETION_INDEX: '1' },
      { SLURM_ARRAY_TASK_ID: '1' },
      { AWS_BATCH_JOB_ARRAY_INDEX: '1' },
      { JOB_COMPLETION_INDEX: '1', SLURM_ARRAY_TASK_ID: '3' }, // the Kubernetes index wins
    ];
    for (const env of cases) {
      const r = await cli(['run-units', small, '--shards', '4', '--out', file('env-part-{shard}.jsonl')], env);
      expect(r.status, r.stderr).toBe(0);
      expect(readPartFile(file('env-part-1.jsonl')).records).toEqual(expected);
      rmSync(file('env-part-1.jsonl'));
    }
    const none = await cli(['run-units', small, '--shards', '4', '--out', file('x.jsonl')], {
      JOB_COMPLETION_INDEX: '',
      SLURM_ARRAY_TASK_ID: '',
      AWS_BATCH_JOB_ARRAY_INDEX: '',
    });
    expect(none.status).toBe(2);
    expect(none.stderr).toMatch(/--shards needs the shard index in one of JOB_COMPLETION_INDEX/);
    const outOfRange = await cli(['run-units', small, '--shards', '4', '--out', file('x.jsonl')], { JOB_COMPLETION_INDEX: '4' });
    expect(outOfRange.status).toBe(2);
    expect(outOfRange.stderr).toMatch(/JOB_COMPLETION_INDEX must be an integer from 0 to 3, got 4/);
    expect((await cli(['run-units', small, '--shard', '4/4', '--out', file('x.jsonl')])).status).toBe(2);
  });

  it('merge reports a missing part, a duplicated part and a tampered part instead of a total', async () => {
    const refused = async (args: string[], pattern: RegExp): Promise<void> => {
      const r = await cli(['merge', units, ...args]);
      expect(r.status, r.stdout).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(pattern);
      expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    };
    await refused(parts.slice(0, 3), /no total given: 1341 unit\(s\) missing \(4021, 4022, 4023, /);
    const copy = file('start6-part-0-again.jsonl');
    copyFileSync(parts[0] as string, copy);
    await refused([...parts, copy], /no total given: 1340 unit\(s\) counted more than once \(0, 1, 2, /);

    const text = readFileSync(parts[2] as string, 'utf8');
    const lines = text.split('\n');
    const edit = (name: string, change: (l: string[]) => void): string => {
      const l = [...lines];
      change(l);
      writeFileSync(file(name), l.join('\n'));
      return file(name);
    };
    // A count changed: its record fails its check, and the unit is not counted.
    const changed = edit(
      'count.jsonl',
      (l) => (l[5] = l[5]!.replace(/(\d)","check"/, (_, d: string) => `${(Number(d) + 1) % 10}","check"`)),
    );
    await refused(
      [parts[0]!, parts[1]!, changed, parts[3]!],
      /line 6: unit 2685's record fails its check.*the records do not match the end line/,
    );
    // A record removed (with its unit): the end line's checksum catches it, and the unit is missing.
    const removed = edit('removed.jsonl', (l) => l.splice(5, 1));
    await refused([parts[0]!, parts[1]!, removed, parts[3]!], /1 unit\(s\) missing \(2685\).*do not match the end line/);
    // Cut short: no end line.
    const cut = edit('cut.jsonl', (l) => l.splice(100));
    await refused([parts[0]!, parts[1]!, cut, parts[3]!], /missing .*no end line/);
    // A record copied in from another part: a duplicate, and the end checksum fails.
    const spliced = edit('spliced.jsonl', (l) => l.splice(3, 0, readFileSync(parts[0] as string, 'utf8').split('\n')[1] as string));
    await refused([parts[0]!, parts[1]!, spliced, parts[3]!], /counted more than once \(0\).*do not match the end line/);
  });

  it('merge and run-units refuse a part or units file of another split, another key set, or a damaged one', async () => {
    const other = file('kiwi.jsonl');
    expect((await cli(['split', '--fen', KIWIPETE, '--depth', '3', '--ply', '1', '--out', other])).status).toBe(0);
    expect((await cli(['run-units', other, '--shard', '0/1', '--out', file('kiwi-part.jsonl')])).status).toBe(0);
    const foreignPart = await cli(['merge', units, ...parts, file('kiwi-part.jsonl')]);
    expect(foreignPart.status).toBe(1);
    expect(foreignPart.stderr).toMatch(/kiwi-part\.jsonl counts another units file/);
    const otherKeys = file('keys-part.jsonl');
    writeFileSync(otherKeys, readFileSync(parts[3] as string, 'utf8').replace(/"keySet":"[^"]*"/, '"keySet":"another-engine/128"'));
    expect((await cli(['merge', units, parts[0]!, parts[1]!, parts[2]!, otherKeys])).stderr).toMatch(
      /counted with engine key set another-engine\/128/,
    );

    const original = readFileSync(units, 'utf8');
    const damaged: Array<[string, string, RegExp]> = [
      ['fen.jsonl', original.replace('"fen":"rnbqkbnr/1ppppppp/8/p7', '"fen":"rnbqkbnr/2pppppp/8/p7'), /checksum does not match its units/],
      ['mult.jsonl', original.replace('"multiplicity":"1"}', '"multiplicity":"2"}'), /multiplicities sum to 8903, the manifest says 8902/],
      ['short.jsonl', original.slice(0, original.lastIndexOf('{')), /the manifest lists 5362 units, the file has 5361/],
      ['torn.jsonl', original.slice(0, -10), /does not end with a newline/],
      [
        'keys.jsonl',
        original.replace(/"keySet":"[^"]*"/, '"keySet":"another-engine/128"'),
        /split with engine key set another-engine\/128, this engine uses/,
      ],
      ['json.jsonl', `${original.split('\n')[0]}\nnot json\n`, /line 2 is not a JSON object/],
      ['empty.jsonl', '', /it is empty/],
      ['journal.jsonl', 'chess-native-journal 1 {} 00\n', /line 1 is not a JSON object/],
    ];
    for (const [name, text, pattern] of damaged) {
      writeFileSync(file(name), text);
      for (const args of [
        ['merge', file(name), ...parts],
        ['run-units', file(name), '--shard', '0/1', '--out', file('never.jsonl')],
      ]) {
        const r = await cli(args);
        expect(r.status, `${name}: ${r.stderr}`).toBe(1);
        expect(r.stderr).toMatch(pattern);
        expect(r.stderr).toMatch(/refusing the units file/);
      }
    }
    const notPart = await cli(['merge', units, units]);
    expect(notPart.status).toBe(1);
    expect(notPart.stderr).toMatch(/is not a chess-native part file/);
  });
});

describe('splitPerft / runUnits / mergeUnits', { timeout: 120_000 }, () => {
  it('a Chess960 position in three shards sums to its published count; files round-trip', async () => {
    const fen = 'r1k1r2q/p1ppp1pp/8/8/8/8/P1PPP1PP/R1K1R2Q w KQkq - 0 1';
    const set = splitPerft(fen, 5, 2, { chess960: true });
    expect(set.manifest.multiplicity).toBe(published('tricky960.epd', fen, 2));
    writeUnitsFile(file('c960.jsonl'), set);
    const read = readUnitsFile(file('c960.jsonl'));
    expect(read).toEqual(set);
    const parts = [];
    for (let index = 0; index < 3; index++) {
      const part = await runUnits(read, { shard: { index, count: 3 }, threads: 2, hashMb: 4 });
      writePartFile(file(`c960-part-${index}.jsonl`), part);
      parts.push(readPartFile(file(`c960-part-${index}.jsonl`)));
    }
    expect(parts.map((p) => p.problems)).toEqual([[], [], []]);
    expect(mergeUnits(read, parts).nodes).toBe(published('tricky960.epd', fen, 5));
    // One shard of everything gives the same; ply 0 is the root itself.
    expect(mergeUnits(set, [await runUnits(set)]).nodes).toBe(published('tricky960.epd', fen, 5));
    const whole = splitPerft(fen, 4, 0, { chess960: true });
    expect(whole.units).toEqual([{ index: 0, fen: expect.stringMatching(/^r1k1r2q\/.* w KQkq - 0 1$/), multiplicity: 1n }]);
    expect(mergeUnits(whole, [await runUnits(whole)]).nodes).toBe(published('tricky960.epd', fen, 4));
  });

  it('a shard with a checkpoint resumes after an abort; the journal is bound to its shard', async () => {
    const set = splitPerft(START, 7, 2);
    const journal = file('start-shard.journal');
    const controller = new AbortController();
    const run = runUnits(set, {
      shard: { index: 1, count: 2 },
      threads: 2,
      hashMb: 16,
      checkpoint: journal,
      signal: controller.signal,
      onProgress: (p) => p.unitsDone >= 20 && controller.abort(),
    });
    await expect(run).rejects.toBeInstanceOf(AbortError);
    const resumed = await runUnits(set, { shard: { index: 1, count: 2 }, threads: 2, hashMb: 16, checkpoint: journal });
    const other = await runUnits(set, { shard: { index: 0, count: 2 }, threads: 2, hashMb: 16 });
    expect(mergeUnits(set, [other, resumed]).nodes).toBe(published('cpw.epd', START, 7));
    await expect(runUnits(set, { shard: { index: 0, count: 2 }, checkpoint: journal })).rejects.toBeInstanceOf(JournalError);
  });

  it('mergeUnits lists the problems in UnitsError.problems', async () => {
    const set = splitPerft(KIWIPETE, 3, 1);
    const a = await runUnits(set, { shard: { index: 0, count: 2 }, threads: 1 });
    let error: unknown;
    try {
      mergeUnits(set, [a, a]);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(UnitsError);
    const { problems } = error as InstanceType<typeof UnitsError>;
    expect(problems.missing).toEqual(Array.from({ length: 24 }, (_, i) => 24 + i));
    expect(problems.duplicated).toEqual(Array.from({ length: 24 }, (_, i) => i));
    expect(problems.tampered).toEqual([]);
  });

  it('checks its arguments', async () => {
    expect(() => splitPerft(KIWIPETE, 3, 4)).toThrow(RangeError);
    expect(() => splitPerft(KIWIPETE, 3, -1)).toThrow(RangeError);
    expect(() => splitPerft('not a fen', 3, 1)).toThrow(api.FenError);
    const set = splitPerft(KIWIPETE, 2, 1);
    await expect(runUnits(set, { shard: { index: 2, count: 2 } })).rejects.toBeInstanceOf(RangeError);
    await expect(runUnits(set, { shard: 'all' as never })).rejects.toBeInstanceOf(TypeError);
    await expect(runUnits(set, { threads: 0 })).rejects.toBeInstanceOf(RangeError);
  });
});
