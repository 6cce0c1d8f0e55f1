// How much memory a perft hash table may take: the memory available now
// (Linux: MemAvailable, lowered by a cgroup limit; elsewhere os.freemem()),
// the check of an explicit size against it, and the size `'auto'` picks.
// The one place that reads it, so that a table too big for the machine fails
// at once with a clear error instead of an out-of-memory kill later.
import { readFileSync } from 'node:fs';
import * as os from 'node:os';

const MIB = 1024 * 1024;
/** 'auto' leaves a quarter of the available memory to everything else. */
const AUTO_SHARE = 3 / 4;

/** Memory available for a new allocation, in bytes, and where the figure comes from. */
interface AvailableMemory {
  bytes: number;
  source: string;
}

function readNumber(file: string): number | undefined {
  try {
    const text = readFileSync(file, 'utf8').trim();
    return /^\d+$/.test(text) ? Number(text) : undefined; // cgroup v2 writes "max" for no limit
  } catch {
    return undefined;
  }
}

function memAvailable(): number | undefined {
  try {
    const match = /^MemAvailable:\s+(\d+) kB$/m.exec(readFileSync('/proc/meminfo', 'utf8'));
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** Room left under this process's cgroup memory limit (v2, then v1), if one is set. */
function cgroupRoom(): { bytes: number; source: string } | undefined {
  const v2 = readNumber('/sys/fs/cgroup/memory.max');
  if (v2 !== undefined) {
    return { bytes: v2 - (readNumber('/sys/fs/cgroup/memory.current') ?? 0), source: 'cgroup memory.max' };
  }
  const v1 = readNumber('/sys/fs/cgroup/memory/memory.limit_in_bytes');
  if (v1 !== undefined && v1 < Number.MAX_SAFE_INTEGER / 2) {
    const used = readNumber('/sys/fs/cgroup/memory/memory.usage_in_bytes') ?? 0;
    return { bytes: v1 - used, source: 'cgroup memory.limit_in_bytes' };
  }
  return undefined;
}

function availableMemory(): AvailableMemory {
  if (os.platform() === 'linux') {
    const available = memAvailable();
    const cgroup = cgroupRoom();
    if (cgroup && (available === undefined || cgroup.bytes < available)) {
      return { bytes: Math.max(0, cgroup.bytes), source: cgroup.source };
    }
    if (available !== undefined) return { bytes: available, source: '/proc/meminfo MemAvailable' };
  }
  return { bytes: os.freemem(), source: 'os.freemem()' };
}

function mib(bytes: number): string {
  return `${Math.floor(bytes / MIB)} MiB`;
}

/** The largest power of two at most `bytes`, at least 1. */
function powerOfTwoBelow(bytes: number): number {
  return bytes < 1 ? 1 : 2 ** Math.floor(Math.log2(bytes));
}

/** Throws a RangeError when a table of `mb` MiB is more than the memory available now. */
export function checkTableFits(option: string, mb: number): void {
  const available = availableMemory();
  if (mb * MIB > available.bytes) {
    throw new RangeError(
      `${option} ${mb} MiB is more than the ${mib(available.bytes)} of memory available ` +
        `(${available.source}); use a smaller size or 'auto'`,
    );
  }
}

/** The table size 'auto' picks, in MiB (0 when less than 1 MiB is free), and why. */
export function autoHashMb(maxBytes: number): { mb: number; reason: string } {
  const available = availableMemory();
  const target = Math.min(available.bytes * AUTO_SHARE, maxBytes);
  const mb = target < MIB ? 0 : powerOfTwoBelow(target / MIB);
  return {
    mb,
    reason: `${mb} MiB: 3/4 of the ${mib(available.bytes)} available (${available.source}), rounded down to a power of two`,
  };
}
