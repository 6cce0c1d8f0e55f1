// Optional tools some tests use (GNU parallel, ...). A contributor's `npm test`
// needs only Node, npm, make and a C compiler: where a tool is missing, its
// tests skip with one line saying how to get it. CHESS_NATIVE_REQUIRE_TOOLS=1
// (.ci/run sets it) makes a missing tool a failure instead.
import { spawnSync } from 'node:child_process';

export interface OptionalTool {
  /** What the tool is, for the skip line: 'GNU parallel'. */
  name: string;
  /** A command that exits 0 when the tool works: ['parallel', '--version']. */
  probe: readonly string[];
  /** How to get it: 'apt-get install parallel (macOS: brew install parallel)'. */
  install: string;
}

/** True when the tool runs; false (after one line on stderr) when it is missing and not required; throws when it is missing and required. */
export function haveTool(tool: OptionalTool, env: NodeJS.ProcessEnv = process.env): boolean {
  const [command, ...args] = tool.probe;
  const r = spawnSync(command!, args, { encoding: 'utf8', stdio: 'ignore' });
  if (!r.error && r.status === 0) return true;
  const line = `${tool.name} is missing (\`${tool.probe.join(' ')}\` failed); get it with: ${tool.install}`;
  if (env.CHESS_NATIVE_REQUIRE_TOOLS === '1') throw new Error(`${line}. CHESS_NATIVE_REQUIRE_TOOLS=1 requires it.`);
  console.warn(`skipping tests: ${line}`);
  return false;
}

export const GNU_PARALLEL: OptionalTool = {
  name: 'GNU parallel',
  probe: ['parallel', '--version'],
  install: 'apt-get install parallel (macOS: brew install parallel)',
};
