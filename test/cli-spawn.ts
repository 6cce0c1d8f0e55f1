// Runs the built command line with its stdout closed early, as `| head` does.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { ROOT } from './helpers';

/** The command line as the package's `bin` names it. */
export const CLI = path.join(
  ROOT,
  (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { bin: Record<string, string> }).bin['chess-native'] as string,
);

/**
 * `chess-native ...args` whose reader closes stdout after `bytes` bytes (0: before
 * anything is written): its exit status and stderr.
 */
export async function runWithStdoutClosed(args: string[], bytes = 0): Promise<{ status: number | null; stderr: string; read: number }> {
  const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  let read = 0;
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  if (bytes === 0) child.stdout.destroy();
  else
    child.stdout.on('data', (d: Buffer) => {
      read += d.length;
      if (read >= bytes) child.stdout.destroy();
    });
  const status = await new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return { status, stderr, read };
}
