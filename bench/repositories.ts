import { execFile } from 'node:child_process';
import { access, mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { checkOut } from './checkout.js';

const run = promisify(execFile);

/** The entry of `directory` named `name`, compared without case (GitHub names are not case-sensitive). */
async function entryNamed(directory: string, name: string): Promise<string> {
  const entries = await readdir(directory).catch(() => [] as string[]);
  return entries.find((entry) => entry.toLowerCase() === name.toLowerCase()) ?? name;
}

/**
 * Where a repository's git data lives under `--repos DIR`: `DIR/owner+name` or `DIR/owner/name`
 * (either in any case), each either a bare mirror, a clone (with `.git` inside), or a folder
 * holding a bare mirror named `repo` (the layout the tool library's `fetch` produces). Undefined
 * when there is none: the repository could not be fetched.
 */
export async function findGitDirectory(
  reposDirectory: string,
  repo: string,
): Promise<string | undefined> {
  const [owner = '', name = ''] = repo.split('/');
  const joined = join(reposDirectory, await entryNamed(reposDirectory, `${owner}+${name}`));
  const ownerDirectory = join(reposDirectory, await entryNamed(reposDirectory, owner));
  const nested = join(ownerDirectory, await entryNamed(ownerDirectory, name));
  for (const base of [joined, nested])
    for (const inner of ['repo', '.git', '']) {
      const candidate = join(base, inner);
      try {
        await access(join(candidate, 'HEAD'));
        if ((await stat(join(candidate, 'objects'))).isDirectory()) return candidate;
      } catch {
        // Not a git directory; try the next layout.
      }
    }
  return undefined;
}

/**
 * The repository's tree at `commit`, checked out once into `cacheDirectory` and reused by later
 * runs: a git work tree like a user's clone (its index lists the tracked files, so the tool lists
 * them with git, as it would there; its objects are the mirror's). Checked out to a temporary
 * folder first, so an interrupted run leaves no half tree.
 */
export async function materialise(
  gitDirectory: string,
  repo: string,
  commit: string,
  cacheDirectory: string,
): Promise<string> {
  const target = join(cacheDirectory, repo.replace('/', '+'), commit);
  // In .git, not in the tree the tool searches. A tree without it (an older layout, or an
  // interrupted run) is checked out again.
  const done = join(target, '.git', 'bench-checkout');
  try {
    await access(done);
    return target;
  } catch {
    // Not checked out yet.
  }
  const partial = `${target}.partial-${process.pid}`;
  await rm(partial, { recursive: true, force: true });
  await mkdir(partial, { recursive: true });
  await run('git', ['init', '-q', partial]);
  await writeFile(
    join(partial, '.git', 'objects', 'info', 'alternates'),
    `${resolve(gitDirectory, 'objects')}\n`,
  );
  await checkOut(gitDirectory, commit, partial, join(partial, '.git', 'index'));
  await writeFile(join(partial, '.git', 'bench-checkout'), `${repo}@${commit}\n`);
  await rm(target, { recursive: true, force: true });
  await rename(partial, target);
  return target;
}
