// The optional-tool gate of test/tools.ts: a present tool runs its tests; a
// missing one skips them with one line saying how to get it, or fails where
// CHESS_NATIVE_REQUIRE_TOOLS=1 (as in .ci/run).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { haveTool, type OptionalTool } from './tools';

const missing: OptionalTool = {
  name: 'a tool that is not there',
  probe: ['chess-native-no-such-tool', '--version'],
  install: 'apt-get install no-such-tool',
};
const present: OptionalTool = { name: 'Node', probe: [process.execPath, '--version'], install: 'it runs this test' };

describe('haveTool', () => {
  afterEach(() => vi.restoreAllMocks());

  it('is true for a tool that runs, and says nothing', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect(haveTool(present, { CHESS_NATIVE_REQUIRE_TOOLS: '1' })).toBe(true);
    expect(warn).not.toHaveBeenCalled();
  });

  it('is false for a missing tool, with one line naming it and how to get it', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect(haveTool(missing, {})).toBe(false);
    expect(warn).toHaveBeenCalledTimes(1);
    const line = String(warn.mock.calls[0]![0]);
    expect(line).toMatch(/^skipping tests: a tool that is not there is missing .*get it with: apt-get install no-such-tool$/);
    expect(line).not.toContain('\n');
  });

  it('fails for a missing tool where CHESS_NATIVE_REQUIRE_TOOLS=1', () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect(() => haveTool(missing, { CHESS_NATIVE_REQUIRE_TOOLS: '1' })).toThrow(
      /a tool that is not there is missing .*apt-get install no-such-tool\. CHESS_NATIVE_REQUIRE_TOOLS=1 requires it/,
    );
  });

  it('a tool that exits non-zero counts as missing', () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect(haveTool({ ...present, probe: [process.execPath, '-e', 'process.exit(3)'] }, {})).toBe(false);
  });
});
