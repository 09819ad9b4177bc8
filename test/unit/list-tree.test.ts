import { execFileSync } from 'node:child_process';
import { cp, mkdir, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { listTree, walkDirectories } from '../../src/repository/list-tree.js';
import { openWorkspace } from '../../src/repository/workspace.js';
import {
  DEFAULT_EXCLUDED_DIRECTORIES,
  DEFAULT_EXCLUDED_FILES,
} from '../../src/repository/default-excludes.js';
import { createTempTree, removeTempTrees } from '../support/temp-tree.js';

afterEach(removeTempTrees);

const OPTIONS = {
  excludes: [...DEFAULT_EXCLUDED_DIRECTORIES, ...DEFAULT_EXCLUDED_FILES],
  maxIgnoreFileBytes: 100_000,
};

const git = (root: string, ...args: string[]) =>
  execFileSync('git', ['-C', root, '-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args]);

const TREE = {
  '.gitignore': 'ignored/\n*.log\n!keep.log\n',
  'src/app.ts': 'export const app = 1;\n',
  'src/keep.log': 'kept by a negation\n',
  'src/debug.log': 'ignored by a pattern\n',
  'ignored/big.ts': 'export const generated = 1;\n',
  'node_modules/lib/index.js': 'module.exports = 1;\n',
  'package-lock.json': '{}\n',
  'docs/guide.md': '# Guide\n',
  'nested/.gitignore': 'secret-notes/\n',
  'nested/inner.ts': 'export const inner = 1;\n',
  'nested/secret-notes/notes.ts': 'export const notes = 1;\n',
};

async function repository(): Promise<string> {
  const root = await createTempTree(TREE);
  git(root, 'init', '-q');
  git(root, 'add', 'src/app.ts', '.gitignore');
  git(root, 'commit', '-qm', 'Initial import');
  return root;
}

/** What git and the walk both keep of TREE: its ignore rules and the default excludes applied. */
const KEPT = [
  '.gitignore',
  'docs/guide.md',
  'nested/.gitignore',
  'nested/inner.ts',
  'src/app.ts',
  'src/keep.log',
];

const pathsOf = (listing: { files: { path: string }[] }) => listing.files.map((file) => file.path);

describe('listTree', () => {
  it('lets git list a work tree: tracked and untracked files, its ignore rules and ours applied', async () => {
    const root = await repository();
    const listing = await listTree(root, OPTIONS);
    expect(listing.byGit).toBe(true);
    expect(pathsOf(listing)).toEqual(KEPT);
    expect(listing.files.find((file) => file.path === 'src/app.ts')?.size).toBe(22);
  });

  it('lists the same files as the walk with the ignore rules applied', async () => {
    const root = await repository();
    const walked = await createTempTree({});
    await cp(root, walked, { recursive: true });
    await rm(join(walked, '.git'), { recursive: true });
    const read = async (tree: string) =>
      (await openWorkspace(tree, { maxFileBytes: 100_000, maxFiles: 100 })).files.map(
        (file) => file.path,
      );
    expect((await listTree(walked, OPTIONS)).byGit).toBe(false);
    expect(await read(root)).toEqual(await read(walked));
  });

  it('lists a repository nested inside with its own ignore rules', async () => {
    const root = await repository();
    git(join(root, 'nested'), 'init', '-q');
    const listing = await listTree(root, OPTIONS);
    expect(pathsOf(listing)).toContain('nested/inner.ts');
    expect(pathsOf(listing)).not.toContain('nested/secret-notes/notes.ts');
  });

  it('leaves out a tracked file deleted from the work tree, and links', async () => {
    const root = await repository();
    await rm(join(root, 'src/app.ts'));
    execFileSync('ln', ['-s', '/etc/passwd', join(root, 'src/link.ts')]);
    const paths = pathsOf(await listTree(root, OPTIONS));
    expect(paths).not.toContain('src/app.ts');
    expect(paths).not.toContain('src/link.ts');
  });

  it("never runs a program the repository's configuration names (fsmonitor)", async () => {
    const root = await repository();
    const marker = join(root, 'ran');
    git(root, 'config', 'core.fsmonitor', `touch ${marker}; false`);
    expect((await listTree(root, OPTIONS)).byGit).toBe(true);
    expect(existsSync(marker)).toBe(false);
  });

  it.each([
    ['a git work tree', repository],
    ['a tree outside git', () => createTempTree(TREE)],
  ])(
    'stops when its time is up, in %s: git stopped starts no walk of the tree',
    async (_, make) => {
      const root = await make();
      const stop = new AbortController();
      stop.abort(new Error('the time limit'));
      await expect(listTree(root, { ...OPTIONS, signal: stop.signal })).rejects.toThrow(
        'the time limit',
      );
    },
  );

  it('walks a tree outside git with the same rules, never entering an ignored directory', async () => {
    const root = await createTempTree({
      ...TREE,
      'ignored/more.ts': 'export const more = 1;\n',
      'ignored/deeper/most.ts': 'export const most = 1;\n',
    });
    const listing = await listTree(root, OPTIONS);
    expect(listing.byGit).toBe(false);
    expect(pathsOf(listing)).toEqual(KEPT);
    // `ignored/` counts once, its three files unseen; then `src/debug.log` and `secret-notes/`.
    expect(listing.ignored).toBe(3);
  });

  it('walks past a file whose name is not UTF-8, keeping the rest of its directory', async () => {
    const root = await createTempTree({ 'src/app.ts': 'export const app = 1;\n' });
    const name = Buffer.concat([
      Buffer.from(join(root, 'src', 'b')),
      Buffer.of(0xff),
      Buffer.from('.ts'),
    ]);
    await writeFile(name, 'export const b = 1;\n');
    expect(pathsOf(await listTree(root, OPTIONS))).toEqual(['src/app.ts']);
  });
});

describe('walkDirectories', () => {
  it('enters every directory a listing could find a file in, and no other', async () => {
    const root = await createTempTree({ ...TREE, 'src/deep/er/file.ts': 'export {};\n' });
    await mkdir(join(root, 'empty'));
    await mkdir(join(root, 'logs'));
    execFileSync('ln', ['-s', join(root, 'src'), join(root, 'linked')]);
    const entered: string[] = [];
    await walkDirectories(root, OPTIONS, (directory) => entered.push(directory));
    expect(entered.sort()).toEqual([
      '',
      'docs',
      'empty',
      'logs',
      'nested',
      'src',
      'src/deep',
      'src/deep/er',
    ]);
  });
});
