import { execFile } from 'node:child_process';
import { access, mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

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
 * The repository's tree at `commit`, extracted once into `cacheDirectory` and reused by later
 * runs. Extraction goes to a temporary folder first, so an interrupted run leaves no half tree.
 */
export async function materialise(
  gitDirectory: string,
  repo: string,
  commit: string,
  cacheDirectory: string,
): Promise<string> {
  const target = join(cacheDirectory, repo.replace('/', '+'), commit);
  const done = join(target, '.bench-complete');
  try {
    await access(done);
    return target;
  } catch {
    // Not extracted yet.
  }
  const partial = `${target}.partial-${process.pid}`;
  await rm(partial, { recursive: true, force: true });
  await mkdir(partial, { recursive: true });
  const archive = join(partial, '..', `${commit}.${process.pid}.tar`);
  await run('git', ['--git-dir', gitDirectory, 'archive', '--format=tar', '-o', archive, commit], {
    maxBuffer: 1 << 20,
  });
  await run('tar', ['-xf', archive, '-C', partial]);
  await rm(archive, { force: true });
  await writeFile(join(partial, '.bench-complete'), `${repo}@${commit}\n`);
  await rm(target, { recursive: true, force: true });
  await rename(partial, target);
  return target;
}
