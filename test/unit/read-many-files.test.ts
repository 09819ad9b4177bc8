import { execFileSync } from 'node:child_process';
import { lstat, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileWithin, type FileBytes, type ListedFile } from '../../src/file-system/tree.js';
import { readManyFiles } from '../../src/file-system/read-many-files.js';
import { createTempTree, removeTempTrees } from '../support/temp-tree.js';

const MAX_BYTES = 1000;
const describeIt = (read: FileBytes) =>
  'bytes' in read ? `bytes: ${read.bytes.toString('utf8')}` : `skipped: ${read.skipped}`;

describe('readManyFiles: the worker reads as readFileWithin does', () => {
  let root: string;
  let entries: ListedFile[];

  beforeAll(async () => {
    const many = Object.fromEntries(
      Array.from({ length: 150 }, (_, index) => [`many/${index}.txt`, `file ${index}`]),
    );
    root = await createTempTree({
      ...many,
      'plain.ts': 'export const a = 1;\n',
      'empty.ts': '',
      'large.ts': 'x'.repeat(MAX_BYTES + 1),
      'exact.ts': 'y'.repeat(MAX_BYTES),
      'other.ts': 'another file',
      'directory/inside.ts': 'inside',
    });
    await symlink(join(root, 'plain.ts'), join(root, 'link.ts'));
    execFileSync('mkfifo', [join(root, 'pipe')]);
    const listed = async (path: string, identityOf = path): Promise<ListedFile> => {
      const stats = await lstat(join(root, identityOf)).catch(() => undefined);
      return {
        path,
        size: stats?.size ?? 0,
        identity: stats ? { device: stats.dev, inode: stats.ino } : undefined,
      };
    };
    entries = await Promise.all([
      ...Object.keys(many).map((path) => listed(path)),
      listed('plain.ts'),
      listed('empty.ts'),
      listed('large.ts'),
      listed('exact.ts'),
      listed('link.ts'),
      listed('pipe'),
      listed('directory'),
      listed('missing.ts'),
      // Listed as one file, found to be another when opened: swapped since the listing.
      listed('plain.ts', 'other.ts'),
    ]);
  });
  afterAll(removeTempTrees);

  it('gives every entry, in order, what the one-file reader gives it', async () => {
    const worker: string[] = [];
    await readManyFiles(root, entries, MAX_BYTES, (entry, read) =>
      worker.push(`${entry.path} ${describeIt(read)}`),
    );
    const single = await Promise.all(
      entries.map(
        async (entry) =>
          `${entry.path} ${describeIt(await readFileWithin(root, entry.path, MAX_BYTES, entry.identity))}`,
      ),
    );
    expect(worker).toEqual(single);
    expect(worker.slice(-9)).toEqual([
      'plain.ts bytes: export const a = 1;\n',
      'empty.ts bytes: ',
      'large.ts skipped: too-large',
      `exact.ts bytes: ${'y'.repeat(MAX_BYTES)}`,
      'link.ts skipped: unreadable',
      'pipe skipped: unreadable',
      'directory skipped: unreadable',
      'missing.ts skipped: unreadable',
      'plain.ts skipped: unreadable',
    ]);
  });

  it('stops at an abort with its reason', async () => {
    const controller = new AbortController();
    const reason = new Error('stop');
    let files = 0;
    const reading = readManyFiles(
      root,
      entries,
      MAX_BYTES,
      () => {
        if (++files === 10) controller.abort(reason);
      },
      controller.signal,
    );
    await expect(reading).rejects.toBe(reason);
    expect(files).toBeLessThan(entries.length);
  });

  it('rejects with what the caller threw, and reads nothing more', async () => {
    const failure = new Error('analysis failed');
    let files = 0;
    const reading = readManyFiles(root, entries, MAX_BYTES, () => {
      files++;
      throw failure;
    });
    await expect(reading).rejects.toBe(failure);
    expect(files).toBe(1);
  });
});
