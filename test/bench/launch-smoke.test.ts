import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { offlineEnvironment, runNode } from '../support/run-process.js';
import { createTempTree, removeTempTrees } from '../support/temp-tree.js';

/** `npm run bench:launch` end to end, one round, on the plugin bundle built here. */

const REPOSITORY = join(import.meta.dirname, '../..');

const run = (args: string[]) =>
  runNode(['--import', 'tsx', ...args], { cwd: REPOSITORY, env: offlineEnvironment() });

let plugin: string;
beforeAll(async () => {
  plugin = join(await createTempTree({}), 'plugin');
  const built = await run(['scripts/build-plugin.ts', '--out', plugin]);
  expect(built.code, built.stderr).toBe(0);
}, 120_000);
afterAll(removeTempTrees);

describe('the launch benchmark', () => {
  it(
    'times every launch path against node -e 0 and prints a table',
    { timeout: 120_000 },
    async () => {
      const measured = await run([
        'bench/launch.ts',
        '--cli',
        join(plugin, 'dist/bin/main.js'),
        '--runs',
        '1',
      ]);
      expect(measured.code, measured.stderr).toBe(0);
      const rows = measured.stdout.split('\n').filter((line) => / ms \| .* ms \| /.test(line));
      expect(rows.map((row) => row.split(' | ')[0])).toEqual([
        '| `--version`',
        '| `--help`',
        '| hook: another tool (PreToolUse `Bash`)',
        '| hook: prompt with `[no-context]`',
        '| hook: SubagentStart, context in the prompt only',
        '| hook: SubagentStart, nothing pending in the store (`both`)',
        '| retrieval, offline judge (example repository)',
        '| hook: PreToolUse on the example repository, searching itself (stored index)',
        '| hook: PreToolUse on the example repository, answered by the MCP server (`--resident`)',
        '| `mcp`: `initialize`, then end of input',
      ]);
      for (const row of rows) expect(row).toMatch(/\| \d+\.\d\d× \|$/);
    },
  );
});
