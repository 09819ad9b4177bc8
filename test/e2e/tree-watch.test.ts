import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { setTimeout } from 'node:timers/promises';
import { dirname, join } from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { reportsChanges } from '../../src/file-system/watch-directories.js';
import { openWorkspace } from '../../src/repository/workspace.js';
import { iterativeRetrieve } from '../../src/retrieve.js';
import { createWorkspaceCache } from '../../src/workspace-cache.js';
import { exampleCopy } from '../support/example-copy.js';
import { removeTempTrees } from '../support/temp-tree.js';

afterEach(removeTempTrees);

/** Where the system cannot watch (not Linux, say), every run lists the tree: nothing to assert. */
const watchable = await reportsChanges(tmpdir());

const TASK = 'Where is the ledgerReconciliationWindow set?';
const MARKED = 'export const ledgerReconciliationWindow = 30;\n';

/** A run's `read repository` log line: whether it took the held workspace, and listed the tree. */
interface ReadLine {
  reused?: boolean;
  listed?: boolean;
}

/**
 * Runs on `root` with a workspace cache, until one takes the workspace without listing: the
 * first reads the tree and starts the watch, the second lists it once the watch is armed.
 */
async function watchedRuns(root: string, cache = createWorkspaceCache()) {
  const lines: ReadLine[] = [];
  const logger = pino(
    { level: 'info' },
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        const line = JSON.parse(chunk.toString()) as ReadLine & { msg: string };
        if (line.msg === 'read repository') lines.push(line);
        done();
      },
    }),
  );
  const run = async () => {
    const pack = await iterativeRetrieve(TASK, {
      root,
      history: false,
      workspaceCache: cache,
      logger,
    });
    return { pack, line: lines.at(-1), paths: pack.files.map((file) => file.path) };
  };
  await run();
  // Armed now, not after the pause a process leaves for a client asking again.
  const watch = cache.get(root)?.watch;
  watch?.arm(0);
  const watching = (await watch?.armed) ?? false;
  await run();
  const unchanged = await run();
  return { run, watching, unchanged };
}

const write = async (root: string, path: string, content: string) => {
  await mkdir(dirname(join(root, path)), { recursive: true });
  await writeFile(join(root, path), content);
};

const git = (root: string, ...args: string[]) =>
  execFileSync('git', ['-C', root, '-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args]);

describe('a held tree, watched (workspaceCache)', () => {
  it('is taken again without listing while nothing changes, with what a fresh run finds', async () => {
    const { root } = await exampleCopy();
    const { watching, unchanged } = await watchedRuns(root);
    expect(watching).toBe(watchable);
    if (watchable) expect(unchanged.line).toMatchObject({ reused: true, listed: false });
    const fresh = await iterativeRetrieve(TASK, { root, history: false });
    expect(unchanged.pack.files).toEqual(fresh.files);
  });

  it.each<{
    change: string;
    before?: (root: string) => Promise<unknown>;
    path: string;
    after?: (root: string) => Promise<unknown>;
  }>([
    {
      change: 'a file written in a directory with no file',
      before: (root: string) => mkdir(join(root, 'src/empty')),
      path: 'src/empty/ledger.ts',
    },
    {
      change: 'a file written among ignored files only',
      before: (root: string) => write(root, 'logs/run.log', 'started\n'),
      path: 'logs/ledger.ts',
    },
    {
      change: 'a file written in a new directory',
      path: 'src/ledgers/window.ts',
    },
    {
      change: 'a file rewritten',
      before: (root: string) => write(root, 'src/ledger.ts', 'export const other = 1;\n'),
      path: 'src/ledger.ts',
    },
    {
      change: 'a file no longer ignored',
      before: async (root: string) => {
        await write(root, 'src/ledger.ts', MARKED);
        await write(root, '.gitignore', 'src/ledger.ts\n');
      },
      path: 'src/ledger.ts',
      after: (root: string) => write(root, '.gitignore', '\n'),
    },
    {
      change: "a file no longer excluded by git's info/exclude",
      before: async (root: string) => {
        await write(root, 'src/ledger.ts', MARKED);
        git(root, 'init', '-q');
        git(root, 'add', '-A');
        git(root, 'commit', '-qm', 'example');
        await write(root, '.git/info/exclude', 'src/ledger.ts\n');
        await rm(join(root, 'src/ledger.ts'));
        git(root, 'commit', '-qam', 'ledger gone');
        await write(root, 'src/ledger.ts', MARKED);
      },
      path: 'src/ledger.ts',
      after: (root: string) => write(root, '.git/info/exclude', '\n'),
    },
  ])('sees $change in the next run', async ({ before, path, after }) => {
    const { root } = await exampleCopy();
    await before?.(root);
    const { run, unchanged } = await watchedRuns(root);
    expect(unchanged.paths).not.toContain(path);
    // The change, unless the row says otherwise: the file written, holding the marked words.
    await (after ? after(root) : write(root, path, MARKED));
    const changed = await run();
    expect(changed.paths).toContain(path);
    expect(changed.line?.reused).toBeUndefined();
  });

  it('watches a directory made since, empty when the runs after saw it', async () => {
    const { root } = await exampleCopy();
    const { run } = await watchedRuns(root);
    await mkdir(join(root, 'src/ledgers'));
    await run();
    await run();
    await write(root, 'src/ledgers/window.ts', MARKED);
    expect((await run()).paths).toContain('src/ledgers/window.ts');
  });

  it('watches the directory of a file git lists from now on, inside an ignored one', async () => {
    const { root } = await exampleCopy();
    await write(root, '.gitignore', 'generated/\n');
    await write(root, 'generated/ledger.ts', 'export const other = 1;\n');
    git(root, 'init', '-q');
    git(root, 'add', '-A');
    git(root, 'commit', '-qm', 'example');
    const { run } = await watchedRuns(root);
    // Tracked, it is listed although ignored: its directory was never walked.
    git(root, 'add', '-f', 'generated/ledger.ts');
    for (let again = 0; again < 3; again++) await run();
    await write(root, 'generated/ledger.ts', MARKED);
    expect((await run()).paths).toContain('generated/ledger.ts');
  });

  it('does not watch a tree read over the cap, which another task reads again anyway', async () => {
    const { root } = await exampleCopy();
    const workspaceCache = createWorkspaceCache();
    await iterativeRetrieve(TASK, { root, history: false, workspaceCache, maxRepositoryFiles: 5 });
    expect(workspaceCache.get(root)?.watch).toBeUndefined();
    await iterativeRetrieve(TASK, { root, history: false, workspaceCache });
    expect(workspaceCache.get(root)?.watch).toBeDefined();
  });

  it('lists the tree in every run when told not to watch', async () => {
    const { root } = await exampleCopy();
    const { unchanged } = await watchedRuns(root, createWorkspaceCache({ watch: false }));
    expect(unchanged.line).toMatchObject({ reused: true, listed: true });
  });
});

describe('a watched workspace opened again (openWorkspace)', () => {
  it('lists the tree again once watched, so that the next opening need not list it', async () => {
    const { root } = await exampleCopy();
    const options = { maxFileBytes: 100_000, maxFiles: 1_000, watch: true };
    const first = await openWorkspace(root, options);
    first.watch?.arm(0);
    expect(await first.watch?.armed).toBe(watchable);
    // Each opening below is a new workspace: only the background listing can change the first.
    let again = await openWorkspace(root, { ...options, previous: first });
    for (let wait = 0; wait < 100 && watchable && !again.watched; wait++) {
      await setTimeout(20);
      again = await openWorkspace(root, { ...options, previous: first });
    }
    expect(again.watched ?? false).toBe(watchable);
    first.watch?.close();
  });

  it('sees a file written just before, with nothing awaited between', async () => {
    const { root } = await exampleCopy();
    const options = { maxFileBytes: 100_000, maxFiles: 1_000, watch: true };
    let previous = await openWorkspace(root, options);
    previous.watch?.arm(0);
    await previous.watch?.armed;
    previous = await openWorkspace(root, { ...options, previous });
    for (let round = 0; round < 20; round++) {
      writeFileSync(join(root, 'src/ledger.ts'), `export const round = ${round};\n`);
      const opened = await openWorkspace(root, { ...options, previous });
      expect(opened.watched).not.toBe(true);
      expect(opened.get('src/ledger.ts')?.text).toBe(`export const round = ${round};\n`);
      // Taken again until the watch has heard of nothing since a listing: the write's event
      // may arrive during the listing above.
      previous = opened;
      for (let again = 0; again < 3 && !previous.watched; again++)
        previous = await openWorkspace(root, { ...options, previous });
      if (watchable) expect(previous.watched).toBe(true);
    }
    previous.watch?.close();
  });
});
