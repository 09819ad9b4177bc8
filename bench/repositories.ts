import { execFile } from 'node:child_process';
import { access, mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * Where a repository's git data lives under `--repos DIR`: `DIR/owner+name` or `DIR/owner/name`,
 * each either a bare mirror, a clone (with `.git` inside), or a folder holding a bare mirror
 * named `repo` (the layout the tool library's `fetch` produces).
 */
export async function findGitDirectory(reposDirectory: string, repo: string): Promise<string> {
  const [owner, name] = repo.split('/');
  const candidates = [`${owner}+${name}`, join(owner ?? '', name ?? '')].flatMap((base) =>
    ['repo', '.git', ''].map((inner) => join(reposDirectory, base, inner)),
  );
  for (const candidate of candidates) {
    try {
      await access(join(candidate, 'HEAD'));
      if ((await stat(join(candidate, 'objects'))).isDirectory()) return candidate;
    } catch {
      // Not a git directory; try the next layout.
    }
  }
  throw new Error(
    `no git data for ${repo} under ${reposDirectory} (looked for ${owner}+${name} and ${owner}/${name})`,
  );
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
