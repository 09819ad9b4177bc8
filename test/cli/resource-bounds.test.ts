import { spawnSync } from 'node:child_process';
import { chmod } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { iterativeRetrieve } from '../../src/retrieve.js';
import { ConfigError } from '../../src/errors.js';
import { MAX_TASK_BYTES } from '../../src/task-size.js';
import { runHook, preToolUse } from '../hooks/hook-runner.js';
import { offlineEnvironment, runNode } from '../support/run-process.js';
import { createTempTree, removeTempTrees } from '../support/temp-tree.js';
import { runInProcess } from './run-in-process.js';

/** What the CLI reads is bounded, whatever the input claims to be or never stops giving. */

const REPOSITORY = join(import.meta.dirname, '../..');
const CLI = ['--import', 'tsx', 'src/cli/main.ts'];

afterEach(removeTempTrees);

describe('roots that are not repositories', () => {
  // Before: `--root /proc` reached 5.4 GB in 20 s, and the hook with `cwd: "/"` 12.9 GB.
  it.each(['/', '/proc', '/sys'])('refuses --root %s with one line and exit 2', async (root) => {
    const run = await runInProcess(['Fix the token expiry', '--root', root]);
    expect(run.code).toBe(2);
    expect(run.lines).toContainEqual(
      expect.stringMatching(
        /^iterative-retrieval: error: root `\/\w*` is (the whole file system|a system directory)/,
      ),
    );
  });

  it('answers a hook whose session runs in / with no change', async () => {
    const run = await runHook(
      preToolUse({ description: 'Fix expiry', prompt: 'Fix the token expiry' }, { cwd: '/' }),
    );
    expect(run.code).toBe(0);
    expect(run.output).toBeUndefined();
    expect(run.notes).toEqual([
      expect.stringMatching(/^no change: root `\/` is the whole file system/),
    ]);
  });
});

describe('a task without end', () => {
  it('refuses a task file that never ends (/dev/zero) with one line and exit 2', async () => {
    const run = await runInProcess([
      '--task-file',
      '/dev/zero',
      '--root',
      'test/fixtures/example-service',
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('the task file `/dev/zero` is longer than 1,000,000 bytes');
  });

  it('refuses standard input that never ends with one line and exit 2', () => {
    const run = spawnSync(
      'sh',
      [
        '-c',
        `head -c 5000000 /dev/zero | ${process.execPath} ${CLI.join(' ')} --root test/fixtures/example-service`,
      ],
      { cwd: REPOSITORY, env: offlineEnvironment(), encoding: 'utf8', timeout: 50_000 },
    );
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('standard input is longer than 1,000,000 bytes');
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  it('refuses a library task longer than the limit', async () => {
    const task = 'a '.repeat(MAX_TASK_BYTES);
    await expect(iterativeRetrieve(task, { root: '.' })).rejects.toBeInstanceOf(ConfigError);
  });
});

describe('an unreadable root', () => {
  // Before: exit 1, "no readable files". Mode 000 restricts nobody but root, so as root the CLI
  // runs as the unprivileged `nobody`; either way the case is really exercised.
  // Inside a directory of mode 000, it was "does not exist" (realpath's EACCES), though it does.
  it.each(['of mode 000', 'inside a directory of mode 000'])(
    'is exit 3 with one line naming it: a root %s',
    { timeout: 60_000 },
    async (layout) => {
      const parent = await createTempTree({ 'repo/src/a.ts': 'export const token = 1;\n' });
      const root = join(parent, 'repo');
      const locked = layout === 'of mode 000' ? root : parent;
      await chmod(parent, 0o755);
      await chmod(locked, 0o000);
      const asRoot = process.getuid?.() === 0;
      const run = await runNode([...CLI, 'Fix the token expiry', '--root', root], {
        cwd: REPOSITORY,
        env: { ...offlineEnvironment(), HOME: '/tmp' },
        ...(asRoot && { uid: 65534, gid: 65534 }),
        killAfterMs: 50_000,
      });
      await chmod(locked, 0o755);
      expect(run.stderr).toContain(`iterative-retrieval: error: root \`${root}\` cannot be read`);
      expect(run.code).toBe(3);
    },
  );
});
