import { execFileSync } from 'node:child_process';
import { lstat, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statPaths } from '../../src/file-system/tree.js';
import {
  DIRECTORY,
  NEITHER,
  NUMBERS_PER_PATH,
  REGULAR_FILE,
  statManyPaths,
} from '../../src/file-system/stat-many-paths.js';
import { createTempTree, removeTempTrees } from '../support/temp-tree.js';

describe('statPaths: many paths are stated by a worker, as few are on the main thread', () => {
  let root: string;
  let paths: string[];
  const special = ['plain.ts', 'empty.ts', 'link.ts', 'pipe', 'directory', 'missing.ts'];

  beforeAll(async () => {
    const many = Object.fromEntries(
      // More than the main thread states itself.
      Array.from({ length: 4200 }, (_, index) => [`many/${index}.txt`, 'x'.repeat(index % 1000)]),
    );
    root = await createTempTree({
      ...many,
      'plain.ts': 'export const a = 1;\n',
      'empty.ts': '',
      'directory/inside.ts': 'inside',
    });
    await symlink(join(root, 'plain.ts'), join(root, 'link.ts'));
    execFileSync('mkfifo', [join(root, 'pipe')]);
    paths = [...Object.keys(many), ...special];
  });
  afterAll(removeTempTrees);

  it('gives the worker’s files and directories what the main thread gives the same paths', async () => {
    const [byWorker, byMainThread] = await Promise.all([
      statPaths(root, paths),
      // Below the worker's threshold a batch is stated on the main thread: compared piece by piece.
      Promise.all(
        Array.from({ length: Math.ceil(paths.length / 100) }, (_, batch) =>
          statPaths(root, paths.slice(batch * 100, batch * 100 + 100)),
        ),
      ),
    ]);
    const sorted = <T extends { path: string }>(files: T[]) =>
      [...files].sort((left, right) => (left.path < right.path ? -1 : 1));
    expect(sorted(byWorker.files)).toEqual(sorted(byMainThread.flatMap((part) => part.files)));
    expect(byWorker.directories).toEqual(byMainThread.flatMap((part) => part.directories));
    // Links, pipes and missing paths are neither files nor directories; sizes and identities are
    // the file's own.
    const listed = new Map(byWorker.files.map((file) => [file.path, file]));
    expect(special.filter((path) => listed.has(path))).toEqual(['plain.ts', 'empty.ts']);
    expect(byWorker.directories).toEqual(['directory']);
    const stats = await lstat(join(root, 'many/299.txt'));
    expect(listed.get('many/299.txt')).toEqual({
      path: 'many/299.txt',
      size: 299,
      identity: { device: stats.dev, inode: stats.ino },
      modifiedMs: stats.mtimeMs,
      changedMs: stats.ctimeMs,
    });
  });

  it('tells files from directories and from what is neither, in the paths’ order', async () => {
    const { kinds, numbers } = await statManyPaths(root, special);
    expect([...kinds]).toEqual([REGULAR_FILE, REGULAR_FILE, NEITHER, NEITHER, DIRECTORY, NEITHER]);
    expect(numbers[0]).toBe('export const a = 1;\n'.length);
  });

  it('keeps the paths’ order when the paths are shared out among workers', async () => {
    const repeated = Array.from({ length: 2000 }, () => special).flat();
    const alone = await statManyPaths(root, special);
    const shared = await statManyPaths(root, repeated);
    expect(shared.kinds).toEqual(
      new Uint8Array(repeated.length).map((_, index) => alone.kinds[index % special.length] ?? -1),
    );
    expect(shared.numbers.subarray(-6 * NUMBERS_PER_PATH)).toEqual(alone.numbers);
  });

  it('stops at an abort with its reason', async () => {
    const controller = new AbortController();
    const reason = new Error('stop');
    controller.abort(reason);
    await expect(statManyPaths(root, paths, controller.signal)).rejects.toBe(reason);
    await expect(statPaths(root, paths, controller.signal)).rejects.toBe(reason);
  });
});
