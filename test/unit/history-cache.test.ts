import { execFileSync } from 'node:child_process';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { historyFileOf } from '../../src/file-system/index-store.js';
import { readGitHistory } from '../../src/history/git-log.js';
import { readHistoryWithCache } from '../../src/history/history-cache.js';
import { createTempTree, removeTempTrees } from '../support/temp-tree.js';

afterEach(removeTempTrees);

const git = (root: string, ...args: string[]) =>
  execFileSync(
    'git',
    ['-C', root, '-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args],
    {
      encoding: 'utf8',
    },
  );

/** A repository with two commits, and an empty cache directory beside it. */
async function repository() {
  const root = await createTempTree({ 'src/a.ts': 'export const a = 1;\n' });
  git(root, 'init', '-q');
  git(root, 'add', '.');
  git(root, 'commit', '-qm', 'Add a');
  await writeFile(join(root, 'src/b.ts'), 'export const b = 2;\n');
  git(root, 'add', '.');
  git(root, 'commit', '-qm', 'Add b');
  const cache = { directory: join(await createTempTree({}), 'cache'), maxBytes: 1e9 };
  return { root, cache, source: { root, maxCommits: 100 } };
}

/** The stored history, with its first commit's message replaced: what only the cache could say. */
async function plant(root: string, directory: string) {
  const path = historyFileOf(directory, root);
  const stored = JSON.parse(await readFile(path, 'utf8')) as { commits: { message: string }[] };
  stored.commits[0] = { ...stored.commits[0], message: 'planted' } as { message: string };
  await writeFile(path, JSON.stringify(stored));
}

describe('readHistoryWithCache', () => {
  it('reads what git says, keeps it, and takes it from the cache while the commit is the same', async () => {
    const { root, cache, source } = await repository();
    const first = await readHistoryWithCache(source, cache);
    expect(first).toEqual(await readGitHistory(source));
    expect(first.commits.map((commit) => commit.message)).toEqual(['Add b', 'Add a']);
    await plant(root, cache.directory);
    const second = await readHistoryWithCache(source, cache);
    expect(second.commits.map((commit) => commit.message)).toEqual(['planted', 'Add a']);
  });

  it('reads git again once the commit has moved', async () => {
    const { root, cache, source } = await repository();
    await readHistoryWithCache(source, cache);
    await plant(root, cache.directory);
    await writeFile(join(root, 'src/c.ts'), 'export const c = 3;\n');
    git(root, 'add', '.');
    git(root, 'commit', '-qm', 'Add c');
    const moved = await readHistoryWithCache(source, cache);
    expect(moved.commits.map((commit) => commit.message)).toEqual(['Add c', 'Add b', 'Add a']);
  });

  it('reads git again for other bounds', async () => {
    const { root, cache, source } = await repository();
    await readHistoryWithCache(source, cache);
    await plant(root, cache.directory);
    const fewer = await readHistoryWithCache({ ...source, maxCommits: 1 }, cache);
    expect(fewer.commits.map((commit) => commit.message)).toEqual(['Add b']);
  });

  it.each([
    ['cut short', (text: string) => text.slice(0, text.length / 2)],
    ['of another shape', () => JSON.stringify({ format: 1, commits: 'none' })],
  ])('reads git again over a stored history %s', async (_, damage) => {
    const { root, cache, source } = await repository();
    await readHistoryWithCache(source, cache);
    const path = historyFileOf(cache.directory, root);
    await writeFile(path, damage(await readFile(path, 'utf8')));
    expect(await readHistoryWithCache(source, cache)).toEqual(await readGitHistory(source));
  });

  it('reads no stored history past twice the log it may hold', async () => {
    const { root, cache } = await repository();
    const source = { root, maxCommits: 100, maxBytes: 10_000 };
    await readHistoryWithCache(source, cache);
    const path = historyFileOf(cache.directory, root);
    const stored = JSON.parse(await readFile(path, 'utf8')) as { commits: { message: string }[] };
    stored.commits[0] = { ...stored.commits[0], message: 'x'.repeat(20_001) };
    await writeFile(path, JSON.stringify(stored));
    expect(await readHistoryWithCache(source, cache)).toEqual(await readGitHistory(source));
  });

  it('keeps nothing for a root outside git', async () => {
    const root = await createTempTree({ 'a.ts': 'export const a = 1;\n' });
    const cache = { directory: join(await createTempTree({}), 'cache'), maxBytes: 1e9 };
    expect(await readHistoryWithCache({ root, maxCommits: 10 }, cache)).toEqual({ commits: [] });
    expect(await readdir(cache.directory).catch(() => [])).toEqual([]);
  });
});
