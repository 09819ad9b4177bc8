import { rm, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openWorkspace, type WorkspaceOptions } from '../../src/repository/workspace.js';
import { createWorkspaceCache } from '../../src/workspace-cache.js';
import { createTempTree, removeTempTrees } from '../support/temp-tree.js';

const OPTIONS: WorkspaceOptions = { maxFileBytes: 10_000, maxFiles: 1_000 };
const FILES = {
  'src/auth.ts': 'export function refreshToken() {\n  return 1;\n}\n',
  'src/billing.ts': 'export function charge() {\n  return 2;\n}\n',
  'README.md': '# Readme\n',
};

/** A tree whose files were written long enough ago to be trusted when listed again. */
async function settledTree(files: Record<string, string> = FILES): Promise<string> {
  const root = await createTempTree(files);
  await settle(root, Object.keys(files));
  return root;
}

const settle = (root: string, paths: readonly string[]) =>
  Promise.all(paths.map((path) => utimes(join(root, path), 1_000_000, 1_000_000)));

afterEach(removeTempTrees);

describe('opening a workspace again in the same process', () => {
  it('takes the previous workspace whole when nothing changed, files and all', async () => {
    const root = await settledTree();
    const first = await openWorkspace(root, OPTIONS);
    const second = await openWorkspace(root, { ...OPTIONS, previous: first });
    expect(first.reused).toBeUndefined();
    expect(second.reused).toBe(true);
    expect(second.files).toBe(first.files);
    expect(second.skipped).toEqual(first.skipped);
  });

  it('reads again only what changed: a new, an edited and a deleted file', async () => {
    const root = await settledTree();
    const first = await openWorkspace(root, OPTIONS);
    await writeFile(join(root, 'src/billing.ts'), 'export function refund() {}\n');
    await writeFile(join(root, 'src/new.ts'), 'export const created = true;\n');
    await rm(join(root, 'README.md'));
    const second = await openWorkspace(root, { ...OPTIONS, previous: first });
    expect(second.reused).toBeUndefined();
    expect(second.files.map((file) => file.path)).toEqual([
      'src/auth.ts',
      'src/billing.ts',
      'src/new.ts',
    ]);
    // Unchanged: the very file read before; changed or new: read now.
    expect(second.get('src/auth.ts')).toBe(first.get('src/auth.ts'));
    expect(second.get('src/billing.ts')?.text).toBe('export function refund() {}\n');
    expect(second.get('src/new.ts')?.text).toBe('export const created = true;\n');
  });

  it('trusts no file written close to the listing that read it: it may have changed unseen', async () => {
    // Just written: modified within the two seconds before the first listing.
    const root = await createTempTree(FILES);
    const first = await openWorkspace(root, OPTIONS);
    const second = await openWorkspace(root, { ...OPTIONS, previous: first });
    expect(second.reused).toBeUndefined();
    expect(second.get('src/auth.ts')).not.toBe(first.get('src/auth.ts'));
    expect(second.get('src/auth.ts')?.text).toBe(FILES['src/auth.ts']);
  });

  it.each([
    ['other excludes', { excludes: ['README.md'] }],
    ['another size limit', { maxFileBytes: 5_000 }],
    ['syntax off', { syntax: false }],
  ])('does not take a workspace made with %s', async (_, changed) => {
    const root = await settledTree();
    const first = await openWorkspace(root, OPTIONS);
    const second = await openWorkspace(root, { ...OPTIONS, ...changed, previous: first });
    expect(second.reused).toBeUndefined();
  });

  it('takes one that left files out over the cap only for the same task', async () => {
    const root = await settledTree();
    const capped = { ...OPTIONS, maxFiles: 2 };
    const first = await openWorkspace(root, { ...capped, task: 'refresh the token' });
    expect(first.skipped.overLimit).toBe(1);
    const same = await openWorkspace(root, {
      ...capped,
      task: 'refresh the token',
      previous: first,
    });
    expect(same.reused).toBe(true);
    const other = await openWorkspace(root, { ...capped, task: 'charge a card', previous: first });
    expect(other.reused).toBeUndefined();
  });
});

describe('createWorkspaceCache', () => {
  const workspaceOf = (root: string) => openWorkspace(root, OPTIONS);

  it('holds the last workspace of each root, at most maxRoots of them, the oldest let go first', async () => {
    const [one, two, three] = await Promise.all(
      [1, 2, 3].map(async () => workspaceOf(await settledTree())),
    );
    if (!one || !two || !three) throw new Error('no workspace');
    const cache = createWorkspaceCache({ maxRoots: 2 });
    cache.keep(one);
    cache.keep(two);
    cache.keep(one);
    cache.keep(three);
    expect(cache.get(one.root)).toBe(one);
    expect(cache.get(two.root)).toBeUndefined();
    expect(cache.get(three.root)).toBe(three);
  });

  it.each([
    [{ maxRoots: 0 }, 'maxRoots'],
    [{ idleMs: -1 }, 'idleMs'],
    [{ idleMs: 1.5 }, 'idleMs'],
    [{ maxroots: 2 }, undefined],
  ])('refuses %o, naming the option', (options, option) => {
    expect(() => createWorkspaceCache(options as never)).toThrow(
      expect.objectContaining({ name: 'ConfigError', option }),
    );
  });

  it('lets everything go after idleMs without a run', async () => {
    const workspace = await workspaceOf(await settledTree());
    vi.useFakeTimers();
    try {
      const cache = createWorkspaceCache({ idleMs: 1_000 });
      cache.keep(workspace);
      vi.advanceTimersByTime(999);
      expect(cache.get(workspace.root)).toBe(workspace);
      vi.advanceTimersByTime(1);
      expect(cache.get(workspace.root)).toBeUndefined();
    } finally {
      vi.useRealTimers();
    }
  });
});
