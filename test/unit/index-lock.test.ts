import { mkdtemp, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { lockIndexBuild } from '../../src/file-system/index-store.js';

const directories: string[] = [];
afterAll(async () => {
  await Promise.all(directories.map((directory) => rm(directory, { recursive: true })));
});

async function cacheDirectory() {
  const directory = await mkdtemp(join(tmpdir(), 'index-lock-'));
  directories.push(directory);
  return { directory, index: join(directory, 'root.index') };
}

/** A lock left an hour ago by a build that died. */
async function staleLock(index: string) {
  await writeFile(`${index}.lock`, '', { mode: 0o600 });
  const hourAgo = new Date(Date.now() - 60 * 60_000);
  await utimes(`${index}.lock`, hourAgo, hourAgo);
}

describe('the lock of an index build', () => {
  it('is held by one build at a time', async () => {
    const { directory, index } = await cacheDirectory();
    const release = await lockIndexBuild(directory, index);
    expect(release).toBeDefined();
    expect(await lockIndexBuild(directory, index)).toBeUndefined();
    await release?.();
    expect(await lockIndexBuild(directory, index)).toBeDefined();
  });

  it('is taken over, when stale, by exactly one of the builds that find it so', async () => {
    const { directory, index } = await cacheDirectory();
    for (let trial = 0; trial < 40; trial++) {
      await staleLock(index);
      const taken = await Promise.all(
        Array.from({ length: 4 }, () => lockIndexBuild(directory, index)),
      );
      expect(taken.filter(Boolean)).toHaveLength(1);
      await taken.find(Boolean)?.();
    }
  });

  it('is not removed by a build whose lock went stale and was taken over', async () => {
    const { directory, index } = await cacheDirectory();
    const slow = await lockIndexBuild(directory, index);
    const hourAgo = new Date(Date.now() - 60 * 60_000);
    await utimes(`${index}.lock`, hourAgo, hourAgo);
    const next = await lockIndexBuild(directory, index);
    expect(next).toBeDefined();
    await slow?.();
    // The next build's lock is still there: a third build waits.
    expect(await stat(`${index}.lock`)).toBeDefined();
    expect(await lockIndexBuild(directory, index)).toBeUndefined();
  });
});
