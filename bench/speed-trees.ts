import { execFile } from 'node:child_process';
import { mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { checkOut } from './checkout.js';

/**
 * Trees of a given size for the speed benchmark, built from bare git repositories: each one's
 * HEAD extracted in turn under its own directory until the tree holds the size asked for (the
 * last one cut to fit; the repositories extracted again under `copy-2/`, `copy-3/`… when they
 * hold too few files), then committed, so the tree is a git work tree like a clone. Built once
 * per size and kept in the cache directory.
 */

const run = promisify(execFile);
const BIG_OUTPUT = { maxBuffer: 1024 * 1024 * 1024 };

/**
 * A repository's `.gitattributes`: committed in the tree, its own attributes (an encoding to
 * convert from) can make `git add` fail, and the tree is for timing a search, not for checking
 * out again. They are removed and not counted.
 */
const ATTRIBUTES = /(^|\/)\.gitattributes$/;

/** The files of `git ls-tree` for a repository's HEAD, in git's order. */
async function pathsAtHead(gitDirectory: string): Promise<string[]> {
  const { stdout } = await run(
    'git',
    ['--git-dir', gitDirectory, 'ls-tree', '-r', '-z', '--name-only', 'HEAD'],
    BIG_OUTPUT,
  );
  return stdout.split('\0').filter(Boolean);
}

/** `owner+name` for `…/owner+name/repo` and for `…/owner+name`. */
function nameOf(gitDirectory: string): string {
  const parts = gitDirectory.split('/').filter(Boolean);
  return (parts.at(-1) === 'repo' ? parts.at(-2) : parts.at(-1)) ?? 'repository';
}

/** Writes HEAD of `gitDirectory` into `target`, then removes the `unwanted` paths. */
async function extract(gitDirectory: string, target: string, unwanted: readonly string[]) {
  await mkdir(target, { recursive: true });
  await checkOut(gitDirectory, 'HEAD', target, `${target}.index`);
  await rm(`${target}.index`, { force: true });
  for (const path of unwanted) await rm(join(target, path), { force: true });
}

/**
 * A git work tree of about `size` files under `cacheDirectory`, built from `repositories` (bare
 * git directories, taken in the order given).
 */
export async function treeOfSize(
  size: number,
  repositories: readonly string[],
  cacheDirectory: string,
): Promise<string> {
  const root = join(cacheDirectory, `tree-${size}`);
  const done = join(root, '.git', 'bench-complete');
  if (
    await stat(done).then(
      () => true,
      () => false,
    )
  )
    return root;
  const partial = `${root}.partial-${process.pid}`;
  await rm(partial, { recursive: true, force: true });
  let count = 0;
  for (let copy = 1; count < size; copy++) {
    for (const repository of repositories) {
      if (count >= size) break;
      const paths = await pathsAtHead(repository);
      const files = paths.filter((path) => !ATTRIBUTES.test(path));
      if (files.length === 0) continue;
      const keep = Math.min(files.length, size - count);
      const name = nameOf(repository);
      const target = join(partial, copy === 1 ? name : join(`copy-${copy}`, name));
      // A partial mirror (objects missing) cannot be extracted: the next one is taken.
      const unwanted = [...paths.filter((path) => ATTRIBUTES.test(path)), ...files.slice(keep)];
      const extracted = await extract(repository, target, unwanted).then(
        () => true,
        () => rm(target, { recursive: true, force: true }).then(() => false),
      );
      if (extracted) count += keep;
    }
    if (copy > 1000) throw new Error('the repositories hold no files');
  }
  const git = (...args: string[]) =>
    run(
      'git',
      ['-C', partial, '-c', 'user.name=bench', '-c', 'user.email=bench@invalid', ...args],
      BIG_OUTPUT,
    );
  await git('init', '-q');
  await git('add', '-A');
  await git('commit', '-qm', `${size} files`);
  await rm(root, { recursive: true, force: true });
  await rename(partial, root);
  await writeFile(done, '');
  return root;
}

/** The bare git directories under `directory`: `owner+name/repo` or `owner+name` themselves. */
export async function bareRepositories(directory: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of (await readdir(directory, { withFileTypes: true })).sort((left, right) =>
    left.name < right.name ? -1 : 1,
  )) {
    if (!entry.isDirectory()) continue;
    for (const candidate of [join(directory, entry.name, 'repo'), join(directory, entry.name)]) {
      if (
        await stat(join(candidate, 'HEAD')).then(
          () => true,
          () => false,
        )
      ) {
        found.push(candidate);
        break;
      }
    }
  }
  return found;
}
