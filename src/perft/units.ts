// Work-unit files for batch clusters: `splitPerft` splits perft(fen, depth) at
// a ply into unique positions with multiplicities, written as JSON lines:
//
//   {"format":"chess-native-units","version":1,"fen":...,"chess960":false,"depth":9,"ply":3,
//    "remainingDepth":6,"units":5362,"multiplicity":"8902","checksum":"<sha256>","keySet":...}
//   {"unit":0,"fen":"...","multiplicity":"1"}
//   ...
//
// The first line is the manifest; `multiplicity` sums the units', and
// `checksum` (digest.ts splitChecksum) covers the root, depth, ply and every
// unit in order. Counts are decimal strings (exact beyond 2^53). Reading a
// file checks all of it: a file that fails any check is refused whole.
import * as fs from 'node:fs';

import { allocBytes } from '../core/bytes';
import { checkDepth } from '../core/checks';
import { splitChecksum } from './digest';
import { describe, UnitsError } from '../core/errors';
import { fenArgument, parseFen } from '../core/fen';
import { backend } from '../core/boundary';
import { perftKeySetId } from './perft';
import { splitTree } from './split';

/** The first line of a units file. */
export interface UnitManifest {
  format: 'chess-native-units';
  version: 1;
  /** The root position (as the engine writes it). */
  fen: string;
  chess960: boolean;
  /** The depth of the whole count. */
  depth: number;
  /** The ply the units stand at. */
  ply: number;
  /** Plies to count below every unit: depth - ply. */
  remainingDepth: number;
  /** Number of units. */
  units: number;
  /** Sum of the units' multiplicities: perft(fen, ply). */
  multiplicity: bigint;
  /** SHA-256 over the root, depth, ply and the unit list. */
  checksum: string;
  /** The engine key set of the package that split (see perftKeySetId). */
  keySet: string;
}

/** One work unit: a unique position at the split ply. */
export interface WorkUnit {
  /** Its place in the file, from 0. */
  index: number;
  /** FEN: the four position fields and clocks `0 1`. */
  fen: string;
  /** Move sequences from the root reaching it. */
  multiplicity: bigint;
}

/** A split: the manifest and the units. */
export interface UnitSet {
  manifest: UnitManifest;
  units: WorkUnit[];
}

/** Options of {@link splitPerft}. */
export interface SplitOptions {
  /** Parse the FEN as Chess960. */
  chess960?: boolean;
}

const FORMAT = 'chess-native-units';

/**
 * Splits perft(fen, depth) into the unique positions `ply` plies below the root (0 <= ply <=
 * depth), merged by position (board, side to move, castling rights, en-passant square) with
 * their multiplicities. perft(fen, depth) is the sum of multiplicity * perft(unit, depth - ply).
 * Throws a FenError for a bad FEN, RangeError for a bad depth or ply.
 */
export function splitPerft(fen: string, depth: number, ply: number, options: SplitOptions = {}): UnitSet {
  const text = fenArgument(fen);
  checkDepth(depth);
  if (typeof ply !== 'number' || !Number.isInteger(ply) || ply < 0 || ply > depth) {
    throw new RangeError(`ply must be an integer from 0 to the depth (${depth}), got ${describe(ply)}`);
  }
  if (options.chess960 !== undefined && typeof options.chess960 !== 'boolean') {
    throw new TypeError(`options.chess960 must be a boolean, got ${describe(options.chess960)}`);
  }
  const chess960 = options.chess960 === true;
  const root = allocBytes();
  parseFen(root, text, chess960);
  const split = splitTree(root, ply);
  const units = split.units.map((unit, index): WorkUnit => ({ index, fen: unit.fen, multiplicity: unit.multiplicity }));
  const facts = { fen: backend.fen(root), chess960, depth, ply };
  const manifest: UnitManifest = {
    format: FORMAT,
    version: 1,
    ...facts,
    remainingDepth: depth - ply,
    units: units.length,
    multiplicity: units.reduce((sum, unit) => sum + unit.multiplicity, 0n),
    checksum: splitChecksum(facts, units),
    keySet: perftKeySetId(),
  };
  return { manifest, units };
}

/** The units file's text. */
function formatUnits(set: UnitSet): string {
  const m = set.manifest;
  const lines = [JSON.stringify({ ...m, multiplicity: m.multiplicity.toString() })];
  for (const unit of set.units) {
    lines.push(JSON.stringify({ unit: unit.index, fen: unit.fen, multiplicity: unit.multiplicity.toString() }));
  }
  return `${lines.join('\n')}\n`;
}

function refuse(name: string, why: string): never {
  throw new UnitsError(`${name}: ${why}: refusing the units file`);
}

function jsonLine(name: string, line: string, number: number): Record<string, unknown> {
  try {
    const value = JSON.parse(line) as unknown;
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // reported below
  }
  return refuse(name, `line ${number} is not a JSON object`);
}

/** A decimal count string as a bigint, or undefined. */
export function countField(value: unknown): bigint | undefined {
  return typeof value === 'string' && /^(0|[1-9]\d*)$/.test(value) ? BigInt(value) : undefined;
}

function readManifest(name: string, line: string | undefined): UnitManifest {
  if (line === undefined) refuse(name, 'it is empty');
  const m = jsonLine(name, line, 1);
  if (m.format !== FORMAT || m.version !== 1) refuse(name, 'line 1 is not a chess-native units manifest (format 1)');
  const integer = (key: string): number => {
    const value = m[key];
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) refuse(name, `the manifest's ${key} is not a count`);
    return value;
  };
  const multiplicity = countField(m.multiplicity);
  if (multiplicity === undefined) refuse(name, "the manifest's multiplicity is not a count");
  for (const key of ['fen', 'checksum', 'keySet'] as const) {
    if (typeof m[key] !== 'string') refuse(name, `the manifest has no ${key}`);
  }
  if (typeof m.chess960 !== 'boolean') refuse(name, 'the manifest has no chess960 flag');
  return {
    format: FORMAT,
    version: 1,
    fen: m.fen as string,
    chess960: m.chess960,
    depth: integer('depth'),
    ply: integer('ply'),
    remainingDepth: integer('remainingDepth'),
    units: integer('units'),
    multiplicity,
    checksum: m.checksum as string,
    keySet: m.keySet as string,
  };
}

function readUnit(name: string, line: string, number: number, index: number): WorkUnit {
  const u = jsonLine(name, line, number);
  const multiplicity = countField(u.multiplicity);
  if (u.unit !== index || typeof u.fen !== 'string' || multiplicity === undefined) {
    refuse(name, `line ${number} is not unit ${index} ({"unit":${index},"fen":...,"multiplicity":"<count>"})`);
  }
  return { index, fen: u.fen, multiplicity };
}

/**
 * Reads a units file's text (`name` for messages) and checks it whole: the manifest, every
 * unit, the unit count, the sum of multiplicities, the checksum, and that it was split with
 * this engine's key set. Throws a {@link UnitsError} naming the first problem.
 */
function parseUnits(text: string, name = 'units file'): UnitSet {
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  else if (lines.length > 0) refuse(name, 'it does not end with a newline (truncated?)');
  const manifest = readManifest(name, lines[0]);
  const units = lines.slice(1).map((line, i) => readUnit(name, line, i + 2, i));
  if (units.length !== manifest.units) refuse(name, `the manifest lists ${manifest.units} units, the file has ${units.length}`);
  const sum = units.reduce((total, unit) => total + unit.multiplicity, 0n);
  if (sum !== manifest.multiplicity) refuse(name, `the multiplicities sum to ${sum}, the manifest says ${manifest.multiplicity}`);
  if (manifest.remainingDepth !== manifest.depth - manifest.ply) refuse(name, 'remainingDepth is not depth - ply');
  if (splitChecksum(manifest, units) !== manifest.checksum) refuse(name, 'its checksum does not match its units (damaged or edited)');
  if (manifest.keySet !== perftKeySetId()) {
    refuse(name, `it was split with engine key set ${manifest.keySet}, this engine uses ${perftKeySetId()}`);
  }
  return { manifest, units };
}

/** Writes a units file (to a temporary file first, renamed into place). */
export function writeUnitsFile(file: string, set: UnitSet): void {
  writeFileAtomically(file, formatUnits(set));
}

/**
 * Reads a units file and checks it whole: the manifest, every unit, the unit count, the sum of
 * multiplicities, the checksum, and that it was split with this engine's key set. Throws a
 * {@link UnitsError} naming the first problem.
 */
export function readUnitsFile(file: string): UnitSet {
  return parseUnits(fs.readFileSync(file, 'utf8'), file);
}

/** Writes `text` to `file` whole or not at all: a temporary file, flushed, renamed into place. */
export function writeFileAtomically(file: string, text: string): void {
  const temporary = `${file}.${process.pid}.tmp`;
  const fd = fs.openSync(temporary, 'w');
  try {
    fs.writeSync(fd, text);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(temporary, file);
}
