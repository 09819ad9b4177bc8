import { chmod, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { INDEX_FORMAT } from '../../src/repository/word-index.js';
import { afterEach, describe, expect, it } from 'vitest';
import { cacheDirectoryFor } from '../../src/cli/cache-directory.js';
import { runNode, offlineEnvironment } from '../support/run-process.js';
import { removeTempTrees } from '../support/temp-tree.js';
import { exampleCopy } from '../support/example-copy.js';
import { runInProcess } from './run-in-process.js';

const TASK = 'Fix the authentication token expiry bug';

afterEach(removeTempTrees);

describe('where the CLI keeps stored indexes', () => {
  const none = { cacheDir: undefined, noCache: false };
  it.each([
    ['the flag first', { ...none, cacheDir: '/flag' }, { RETRIEVAL_CACHE_DIR: '/env' }, '/flag'],
    ['then RETRIEVAL_CACHE_DIR', none, { RETRIEVAL_CACHE_DIR: '/env', HOME: '/h' }, '/env'],
    [
      'then the XDG cache',
      none,
      { XDG_CACHE_HOME: '/xdg', HOME: '/h' },
      '/xdg/iterative-retrieval',
    ],
    ['then ~/.cache', none, { HOME: '/h' }, '/h/.cache/iterative-retrieval'],
    ['nowhere without a home', none, {}, undefined],
    [
      'nowhere with RETRIEVAL_CACHE_DIR=off',
      none,
      { RETRIEVAL_CACHE_DIR: 'off', HOME: '/h' },
      undefined,
    ],
    ['nowhere with --no-cache', { ...none, noCache: true }, { HOME: '/h' }, undefined],
  ])('%s', (_, args, env, expected) => {
    expect(cacheDirectoryFor(args, env)).toBe(expected);
  });
});

describe('the CLI and the stored index', () => {
  it('starts the build in the background when a repository has no index, and reads it once built', async () => {
    const { root, cacheDirectory: cache } = await exampleCopy();
    const started: (readonly string[])[] = [];
    const priorities: (boolean | undefined)[] = [];
    const run = () =>
      runInProcess([TASK, '--root', root, '--cache-dir', cache, '--format', 'paths'], {
        startInBackground: (argv, options) => {
          started.push(argv);
          priorities.push(options?.lowPriority);
        },
      });
    const first = await run();
    expect(first.code).toBe(0);
    expect(started).toEqual([['index', '--root', root, '--cache-dir', cache]]);
    // Nobody waits for the build: it yields the processor to the runs made meanwhile.
    expect(priorities).toEqual([true]);

    const built = await runInProcess(['index', '--root', root, '--cache-dir', cache]);
    expect(built.code).toBe(0);
    const summary = JSON.parse(built.stdout) as { built: boolean; files: number; read: number };
    expect(summary).toMatchObject({ root, built: true });
    expect(summary.read).toBe(summary.files);

    const second = await run();
    expect(second.stdout).toBe(first.stdout);
    expect(started).toHaveLength(1);
    const again = JSON.parse(
      (await runInProcess(['index', '--root', root, '--cache-dir', cache])).stdout,
    ) as { read: number };
    expect(again.read).toBe(0);
  });

  it('builds again in the background an index of an older format, not in the run', async () => {
    const { root, cacheDirectory: cache } = await exampleCopy();
    await runInProcess(['index', '--root', root, '--cache-dir', cache]);
    const [name = ''] = await readdir(cache);
    const older = await readFile(join(cache, name));
    older.writeUInt32LE(INDEX_FORMAT - 1, 4);
    await writeFile(join(cache, name), older);
    const started: (readonly string[])[] = [];
    const run = await runInProcess(
      [TASK, '--root', root, '--cache-dir', cache, '--format', 'paths'],
      { startInBackground: (argv) => void started.push(argv) },
    );
    expect(run.code).toBe(0);
    expect(started).toEqual([['index', '--root', root, '--cache-dir', cache]]);
    // The run did not build it itself: the file is as it was.
    expect((await readFile(join(cache, name))).equals(older)).toBe(true);
  });

  it('starts no build where no index can be written, and still answers', async () => {
    const { root, cacheDirectory } = await exampleCopy();
    // A cache directory under a plain file can never be made (root ignores permission bits).
    const blocked = join(cacheDirectory, '..', 'a-file');
    await writeFile(blocked, '');
    const started: unknown[] = [];
    const run = await runInProcess(
      [TASK, '--root', root, '--cache-dir', join(blocked, 'cache'), '--format', 'paths'],
      { startInBackground: (argv) => void started.push(argv) },
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('src/auth/');
    expect(started).toEqual([]);
    expect(run.stderr).toContain('no stored index is kept, so no run gets faster: cannot create');
  });

  it('says why a cache directory others may use keeps no index, and builds none there', async () => {
    const { root, cacheDirectory } = await exampleCopy();
    // As `mkdir` makes it under the usual umask: a directory the user named for the cache.
    await mkdir(cacheDirectory, { recursive: true });
    await chmod(cacheDirectory, 0o755);
    const started: unknown[] = [];
    const run = await runInProcess(
      [TASK, '--root', root, '--cache-dir', cacheDirectory, '--format', 'paths'],
      { startInBackground: (argv) => void started.push(argv) },
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('src/auth/');
    expect(started).toEqual([]);
    const warnings = run.lines.filter((line) => line.includes('no stored index is kept'));
    expect(warnings).toHaveLength(1);
    expect(JSON.parse(warnings[0] ?? '{}')).toMatchObject({
      level: 40,
      msg: expect.stringContaining(`\`${cacheDirectory}\` is not a private directory of this user`),
    });
    expect(await readdir(cacheDirectory)).toEqual([]);
  });

  it('neither reads nor builds an index with --no-cache', async () => {
    const { root, cacheDirectory: cache } = await exampleCopy();
    const started: unknown[] = [];
    const run = await runInProcess(
      [TASK, '--root', root, '--cache-dir', cache, '--no-cache', '--format', 'paths'],
      { startInBackground: (argv) => void started.push(argv) },
    );
    expect(run.code).toBe(0);
    expect(started).toEqual([]);
    expect(await readdir(cache).catch(() => [])).toEqual([]);
  });

  it('says where to put an index when there is nowhere to', async () => {
    const { root } = await exampleCopy();
    const run = await runInProcess(['index', '--root', root]);
    expect(run.code).toBe(2);
    expect(run.lines[0]).toMatch(/^iterative-retrieval: error: `index` needs a cache directory/);
  });

  it('builds the index in a process that outlives the run', { timeout: 120_000 }, async () => {
    const { root, cacheDirectory: cache } = await exampleCopy();
    const env = { ...offlineEnvironment(), RETRIEVAL_CACHE_DIR: cache, LOG_LEVEL: 'silent' };
    const cli = ['--import', 'tsx', 'src/cli/main.ts', TASK, '--root', root, '--format', 'paths'];
    const first = await runNode(cli, { cwd: process.cwd(), env, killAfterMs: 60_000 });
    expect(first.code).toBe(0);
    // The run has ended; its background build writes the index on its own.
    let names: string[] = [];
    for (let waited = 0; waited < 100 && !names.some((name) => name.endsWith('.index')); waited++) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      names = await readdir(cache).catch(() => []);
    }
    expect(names.filter((name) => name.endsWith('.index'))).toHaveLength(1);
    const second = await runNode(cli, {
      cwd: process.cwd(),
      env: { ...env, LOG_LEVEL: 'info' },
      killAfterMs: 60_000,
    });
    expect(second.stdout).toBe(first.stdout);
    expect(second.stderr).toMatch(/"storedIndex":\{"read":0,"reused":\d+\}/);
  });
});
