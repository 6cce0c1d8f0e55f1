// Part files (one per shard run) and merging them. A part is JSON lines:
//
//   {"format":"chess-native-part","version":1,"unitsChecksum":...,"keySet":...,
//    "shard":"0/4","remainingDepth":6,"units":1341}
//   {"unit":4,"nodes":"123456","check":"<16 hex>"}       one per unit of the shard
//   {"end":true,"units":1341,"checksum":"<sha256>","seconds":12.5}
//
// A record's check binds its unit and count to the split (digest.ts
// recordCheck over the units checksum); the end line's checksum covers every
// record line, so a part cut short, edited or spliced does not pass. Merging
// sums multiplicity * count over the units and refuses to give a total unless
// every unit is counted exactly once by an intact record.
import * as fs from 'node:fs';

import { recordCheck, sha256 } from './digest';
import { UnitsError, type UnitsProblems } from '../core/errors';
import { countField, type UnitManifest, type UnitSet, writeFileAtomically } from './units';

/** The first line of a part file. */
export interface PartHeader {
  format: 'chess-native-part';
  version: 1;
  /** The checksum of the units file the part counts. */
  unitsChecksum: string;
  /** The engine key set that counted it. */
  keySet: string;
  /** "I/N". */
  shard: string;
  remainingDepth: number;
  /** Units in the shard. */
  units: number;
}

/** One unit's count in a part. */
export interface PartRecord {
  unit: number;
  nodes: bigint;
}

/** A part: its header, its intact records, and what is wrong with it (empty when nothing). */
export interface PartFile {
  /** Where it came from (a path), for messages. */
  name: string;
  header: PartHeader;
  records: PartRecord[];
  /** Units of records that fail their check. */
  tamperedUnits: number[];
  /** Each problem found, one line each (unreadable or failing records, a missing or wrong end line). */
  problems: string[];
  /** Seconds the shard run took (from the end line; 0 when unknown). */
  seconds: number;
}

/** What {@link mergeUnits} returns. */
export interface MergeResult {
  /** perft(fen, depth) of the manifest: the sum of multiplicity * count. */
  nodes: bigint;
  units: number;
  parts: number;
  /** The shard runs' seconds, added up. */
  seconds: number;
}

const FORMAT = 'chess-native-part';

function recordLine(checksum: string, unit: number, nodes: bigint): string {
  return JSON.stringify({ unit, nodes: nodes.toString(), check: recordCheck(checksum, unit, nodes) });
}

/** A part from a shard run's results ([unit index, count], in order). */
export function partRecords(
  manifest: UnitManifest,
  shard: { index: number; count: number },
  results: ReadonlyArray<readonly [number, bigint]>,
  seconds: number,
): PartFile {
  const header: PartHeader = {
    format: FORMAT,
    version: 1,
    unitsChecksum: manifest.checksum,
    keySet: manifest.keySet,
    shard: `${shard.index}/${shard.count}`,
    remainingDepth: manifest.remainingDepth,
    units: results.length,
  };
  const records = results.map(([unit, nodes]) => ({ unit, nodes }));
  return { name: `shard ${header.shard}`, header, records, tamperedUnits: [], problems: [], seconds };
}

/** The part file's text. */
function formatPart(part: PartFile): string {
  const lines = part.records.map((r) => recordLine(part.header.unitsChecksum, r.unit, r.nodes));
  const checksum = sha256(lines.map((line) => `${line}\n`).join(''));
  const end = JSON.stringify({ end: true, units: lines.length, checksum, seconds: Math.round(part.seconds * 1000) / 1000 });
  return `${JSON.stringify(part.header)}\n${lines.map((line) => `${line}\n`).join('')}${end}\n`;
}

function parseObject(line: string): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(line) as unknown;
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function readHeader(name: string, line: string | undefined): PartHeader {
  const h = line === undefined ? undefined : parseObject(line);
  const ok =
    h &&
    h.format === FORMAT &&
    h.version === 1 &&
    typeof h.unitsChecksum === 'string' &&
    typeof h.keySet === 'string' &&
    typeof h.shard === 'string' &&
    Number.isInteger(h.remainingDepth) &&
    Number.isInteger(h.units);
  if (!ok) throw new UnitsError(`${name} is not a chess-native part file (its first line is not a part header)`);
  return h as unknown as PartHeader;
}

/**
 * Reads a part file's text. Refuses (UnitsError) only a text that is not a part at all; damaged
 * records and a missing or wrong end line are listed in `problems` for {@link mergeUnits}.
 */
function parsePart(text: string, name = 'part file'): PartFile {
  const lines = text.split('\n');
  const torn = lines.pop() !== ''; // the last line has no newline
  const header = readHeader(name, lines[0]);
  const part: PartFile = { name, header, records: [], tamperedUnits: [], problems: [], seconds: 0 };
  let end: Record<string, unknown> | undefined;
  let recordText = '';
  lines.slice(1).forEach((line, i) => {
    const number = i + 2;
    const value = parseObject(line);
    if (end) {
      part.problems.push(`${name} line ${number}: text after the end line`);
    } else if (value?.end === true) {
      end = value;
    } else {
      const nodes = countField(value?.nodes);
      const unit = value?.unit;
      if (typeof unit !== 'number' || !Number.isInteger(unit)) {
        part.problems.push(`${name} line ${number}: not a unit record`);
      } else if (nodes === undefined || recordCheck(header.unitsChecksum, unit, nodes) !== value?.check) {
        part.problems.push(`${name} line ${number}: unit ${unit}'s record fails its check (edited?)`);
        part.tamperedUnits.push(unit);
      } else {
        part.records.push({ unit, nodes });
      }
      recordText += `${line}\n`;
    }
  });
  if (torn) part.problems.push(`${name}: the last line is cut short`);
  if (!end) {
    part.problems.push(`${name}: no end line (the shard run did not finish, or the file was cut short)`);
  } else {
    if (end.checksum !== sha256(recordText) || end.units !== header.units) {
      part.problems.push(`${name}: the records do not match the end line's checksum and count (edited or spliced)`);
    }
    if (typeof end.seconds === 'number') part.seconds = end.seconds;
  }
  return part;
}

/** Writes a part file (whole or not at all). */
export function writePartFile(file: string, part: PartFile): void {
  writeFileAtomically(file, formatPart(part));
}

/**
 * Reads a part file. Refuses ({@link UnitsError}) only a file that is not a part at all; damaged
 * records and a missing or wrong end line are listed in `problems` for {@link mergeUnits}.
 */
export function readPartFile(file: string): PartFile {
  return parsePart(fs.readFileSync(file, 'utf8'), file);
}

/** Up to 10 numbers, then how many more. */
function listed(units: number[]): string {
  const shown = units.slice(0, 10).join(', ');
  return units.length > 10 ? `${shown}, ... (${units.length - 10} more)` : shown;
}

/** Refuses parts of another split, remaining depth or key set. */
function checkPartHeader(set: UnitSet, part: PartFile): void {
  const m = set.manifest;
  const h = part.header;
  if (h.unitsChecksum !== m.checksum) throw new UnitsError(`${part.name} counts another units file (its units checksum differs)`);
  if (h.keySet !== m.keySet)
    throw new UnitsError(`${part.name} was counted with engine key set ${h.keySet}, the units file's is ${m.keySet}`);
  if (h.remainingDepth !== m.remainingDepth)
    throw new UnitsError(`${part.name} counts to depth ${h.remainingDepth}, the units need ${m.remainingDepth}`);
}

/**
 * Sums the parts of a split: perft(fen, depth) = sum of multiplicity * count. Checks that every
 * unit is counted exactly once by an intact record; otherwise throws a {@link UnitsError} whose
 * `problems` list the missing, duplicated and tampered units (and no total is given). Parts of
 * another units file or key set are refused.
 */
export function mergeUnits(set: UnitSet, parts: readonly PartFile[]): MergeResult {
  const counts = new Map<number, bigint>();
  const duplicated = new Set<number>();
  const tamperedUnits = new Set<number>();
  const problems: UnitsProblems = { missing: [], duplicated: [], tampered: [] };
  const unitCount = set.units.length;
  for (const part of parts) {
    checkPartHeader(set, part);
    problems.tampered.push(...part.problems);
    part.tamperedUnits.forEach((unit) => tamperedUnits.add(unit));
    for (const { unit, nodes } of part.records) {
      if (unit < 0 || unit >= unitCount) problems.tampered.push(`${part.name}: unit ${unit} is not in the units file`);
      else if (counts.has(unit)) duplicated.add(unit);
      else counts.set(unit, nodes);
    }
  }
  for (let unit = 0; unit < unitCount; unit++) if (!counts.has(unit) && !tamperedUnits.has(unit)) problems.missing.push(unit);
  problems.duplicated = [...duplicated].sort((a, b) => a - b);
  if (problems.missing.length || problems.duplicated.length || problems.tampered.length) {
    const what = [
      problems.missing.length ? `${problems.missing.length} unit(s) missing (${listed(problems.missing)})` : '',
      problems.duplicated.length ? `${problems.duplicated.length} unit(s) counted more than once (${listed(problems.duplicated)})` : '',
      ...problems.tampered,
    ].filter(Boolean);
    throw new UnitsError(`the parts do not add up, no total given: ${what.join('; ')}`, problems);
  }
  let nodes = 0n;
  for (const unit of set.units) nodes += unit.multiplicity * (counts.get(unit.index) as bigint);
  return { nodes, units: unitCount, parts: parts.length, seconds: parts.reduce((sum, p) => sum + p.seconds, 0) };
}
