import { chmod, readdir, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import fastGlob from 'fast-glob';
import { afterEach, describe, expect, it } from 'vitest';
import { buildIndex } from '../../src/build-index.js';
import { iterativeRetrieve } from '../../src/retrieve.js';
import { openWorkspace } from '../../src/repository/workspace.js';
import { loadIndex } from '../../src/repository/index-cache.js';
import { indexFileOf } from '../../src/file-system/index-store.js';
import type { ContextPack } from '../../src/output/context-pack.js';
import { removeTempTrees } from '../support/temp-tree.js';
import { AN_HOUR_AGO, exampleCopy } from '../support/example-copy.js';

const TASK = 'Fix the authentication token expiry bug';

afterEach(removeTempTrees);

/** What a user sees of a run: everything but its timings. */
const seen = (pack: ContextPack) => ({
  files: pack.files,
  related: pack.related,
  evaluated: pack.evaluated,
  warnings: pack.warnings,
  stats: pack.stats,
});

/** Files a run on `root` reads, the others coming from its stored index. */
async function filesRead(root: string, cacheDirectory: string): Promise<number | undefined> {
  const workspace = await openWorkspace(root, {
    maxFileBytes: 1_000_000,
    maxFiles: 50_000,
    index: loadIndex({ directory: cacheDirectory, maxBytes: 1e9 }, root).then(({ index }) => ({
      stored: index,
    })),
  });
  return workspace.index?.read;
}

describe('a stored index', () => {
  it('gives the same context as reading the files, and spares reading unchanged ones', async () => {
    const { root, cacheDirectory } = await exampleCopy();
    const fresh = await iterativeRetrieve(TASK, { root, history: false });
    const building = await iterativeRetrieve(TASK, { root, cacheDirectory, history: false });
    const reading = await iterativeRetrieve(TASK, { root, cacheDirectory, history: false });
    expect(seen(building)).toEqual(seen(fresh));
    expect(seen(reading)).toEqual(seen(fresh));
    expect(fresh.files.length).toBeGreaterThan(0);
    expect(await filesRead(root, cacheDirectory)).toBe(0);
  });

  it('reads again what changed, forgets what is gone, and sees what is new', async () => {
    const { root, cacheDirectory } = await exampleCopy();
    const built = await buildIndex({ root, cacheDirectory });
    expect(built).toMatchObject({ built: true, read: built.files });
    const paths = await fastGlob('src/**/*.ts', { cwd: root });
    const [changed = '', gone = ''] = paths;
    await writeFile(join(root, changed), 'export const tokenExpiryWindow = 42;\n');
    await rm(join(root, gone));
    await writeFile(join(root, 'src/expiry-clock.ts'), 'export function expiryClock() {}\n');
    for (const path of [changed, 'src/expiry-clock.ts'])
      await utimes(join(root, path), AN_HOUR_AGO, new Date(Date.now() - 60_000));
    const pack = await iterativeRetrieve('expiry clock tokenExpiryWindow', {
      root,
      cacheDirectory,
      history: false,
    });
    const found = pack.evaluated.map((file) => file.path);
    expect(found).toContain('src/expiry-clock.ts');
    expect(found).toContain(changed);
    expect(found).not.toContain(gone);
    // The run saved what it read: only a file touched just now is read again (its time could
    // hide a second change), and nothing else.
    expect(await filesRead(root, cacheDirectory)).toBe(0);
    await writeFile(join(root, changed), 'export const tokenExpiryWindow = 43;\n');
    expect(await filesRead(root, cacheDirectory)).toBe(1);
  });

  it('reads again a file changed in place with its modification time put back', async () => {
    const { root, cacheDirectory } = await exampleCopy();
    await buildIndex({ root, cacheDirectory });
    const [path = ''] = await fastGlob('src/**/*.ts', { cwd: root });
    const { size } = await stat(join(root, path));
    // Same size, same modification time (as `rsync -t` or `touch -r` leave it): only the
    // inode's change time tells.
    await writeFile(join(root, path), 'x'.repeat(size));
    await utimes(join(root, path), AN_HOUR_AGO, AN_HOUR_AGO);
    expect(await filesRead(root, cacheDirectory)).toBe(1);
  });

  it('is private to the user, and one that cannot be read is built again', async () => {
    const { root, cacheDirectory } = await exampleCopy();
    await buildIndex({ root, cacheDirectory });
    expect((await stat(cacheDirectory)).mode & 0o777).toBe(0o700);
    const [name = ''] = await readdir(cacheDirectory);
    expect((await stat(join(cacheDirectory, name))).mode & 0o777).toBe(0o600);
    // Whatever a path looks like, the file is named by a hash: no path is spelt in the cache.
    expect(name).toMatch(/^[0-9a-f]{32}\.index$/);
    await writeFile(join(cacheDirectory, name), 'damaged');
    const pack = await iterativeRetrieve(TASK, { root, cacheDirectory, history: false });
    expect(pack.files.length).toBeGreaterThan(0);
    expect(await filesRead(root, cacheDirectory)).toBe(0);
  });

  it('keeps the cache under its bound, removing the least recently used index first', async () => {
    const [first, second, third] = await Promise.all([exampleCopy(), exampleCopy(), exampleCopy()]);
    const cacheDirectory = first?.cacheDirectory ?? '';
    const roots = [first, second, third].map((made) => made?.root ?? '');
    for (const [age, root] of roots.entries()) {
      await buildIndex({ root, cacheDirectory });
      // Used three, two and one hours ago.
      const used = new Date(Date.now() - (3 - age) * 3_600_000);
      await utimes(indexFileOf(cacheDirectory, root), used, used);
    }
    expect(await readdir(cacheDirectory)).toHaveLength(3);
    const { size } = await stat(indexFileOf(cacheDirectory, roots[1] ?? ''));
    // Room for two: writing the first root's index again removes the oldest of the others.
    await writeFile(join(roots[0] ?? '', 'src/new.ts'), 'export const x = 1;\n');
    await buildIndex({
      root: roots[0] ?? '',
      cacheDirectory,
      maxCacheBytes: Math.floor(size * 2.5),
    });
    const kept = await readdir(cacheDirectory);
    expect(roots.map((root) => kept.includes(basename(indexFileOf(cacheDirectory, root))))).toEqual(
      [true, false, true],
    );
  });

  it('is not read from a directory others can write to', async () => {
    const { root, cacheDirectory } = await exampleCopy();
    await buildIndex({ root, cacheDirectory });
    await chmod(cacheDirectory, 0o777);
    expect(await loadIndex({ directory: cacheDirectory, maxBytes: 1e9 }, root)).toMatchObject({
      index: undefined,
      problem: expect.stringMatching(/is not a private directory/),
      unusable: true,
    });
    // The run goes on without one, and writes nothing there.
    const [name = ''] = await readdir(cacheDirectory);
    const before = (await stat(join(cacheDirectory, name))).mtimeMs;
    await writeFile(join(root, 'src/new.ts'), 'export const tokenExpiry = 1;\n');
    const pack = await iterativeRetrieve(TASK, { root, cacheDirectory, history: false });
    expect(pack.files.length).toBeGreaterThan(0);
    expect(await readdir(cacheDirectory)).toEqual([name]);
    expect((await stat(join(cacheDirectory, name))).mtimeMs).toBe(before);
  });

  it('is not written when it alone would be larger than the whole cache may be', async () => {
    const { root, cacheDirectory } = await exampleCopy();
    await expect(buildIndex({ root, cacheDirectory, maxCacheBytes: 1000 })).rejects.toThrow(
      /more than the cache's 1,000 \(maxCacheBytes\)/,
    );
    const pack = await iterativeRetrieve(TASK, {
      root,
      cacheDirectory,
      maxCacheBytes: 1000,
      history: false,
    });
    expect(pack.files.length).toBeGreaterThan(0);
    expect((await readdir(cacheDirectory)).filter((name) => name.endsWith('.index'))).toEqual([]);
    // One written under a larger bound goes once the bound is lowered below it: the cache is
    // back within its bound, where it stayed over it for good.
    await buildIndex({ root, cacheDirectory });
    await writeFile(join(root, 'src/new.ts'), 'export const tokenExpiry = 1;\n');
    await expect(buildIndex({ root, cacheDirectory, maxCacheBytes: 1000 })).rejects.toThrow(
      /more than the cache's 1,000/,
    );
    expect((await readdir(cacheDirectory)).filter((name) => name.endsWith('.index'))).toEqual([]);
  });

  it('is built by one build at a time', async () => {
    const { root, cacheDirectory } = await exampleCopy();
    const [one, two] = await Promise.all([
      buildIndex({ root, cacheDirectory }),
      buildIndex({ root, cacheDirectory }),
    ]);
    expect([one.built, two.built].sort()).toEqual([false, true]);
  });
});
