import { runGit } from '../git.js';
import { splitBytes } from '../text/split-bytes.js';

/**
 * The files git sees in a work tree, the way `git status` does: tracked ones and untracked ones
 * that no `.gitignore`, `.git/info/exclude` or global excludes file leaves out. Git keeps this
 * list in its index, so it lists a 50,000-file tree in a fraction of a second, and never enters an
 * ignored directory.
 */

export interface GitListing {
  /** POSIX paths relative to the work tree's root. */
  paths: string[];
  /**
   * Repositories inside it (untracked ones, which git shows as `dir/`, and submodules, listed
   * among the paths), which git does not look into: the caller lists them the same way.
   */
  nested: string[];
}

/** Most bytes of listing read: 200,000 paths of 300 characters. Past it, the caller walks. */
const MAX_LISTING_BYTES = 64 * 1024 * 1024;

const ARGS = [
  // A repository's own configuration must not make git run a program (an fsmonitor hook).
  '-c',
  'core.fsmonitor=false',
  '-c',
  'core.quotepath=off',
  'ls-files',
  '-z',
];

/**
 * Tracked files come from git's index at once; untracked ones take a walk of the work tree
 * (most of the listing's time), so they are listed apart, and the caller can look at the
 * tracked files meanwhile.
 */
const WHICH = { tracked: ['--cached'], untracked: ['--others', '--exclude-standard'] } as const;

/**
 * The tracked or untracked files of the work tree whose top directory is `root`, or undefined
 * when git cannot give them (no git, not a repository, a repository git refuses to read, a
 * listing past its bound): the caller then walks the tree itself.
 */
export async function listGitFiles(
  root: string,
  which: keyof typeof WHICH,
  signal?: AbortSignal,
): Promise<GitListing | undefined> {
  const output = await runGit(['-C', root, ...ARGS, ...WHICH[which]], {
    maxBytes: MAX_LISTING_BYTES,
    signal,
  });
  if (output.missing || output.cut || output.code !== 0) return undefined;
  const paths = new Set<string>();
  const nested: string[] = [];
  for (const entry of splitBytes(output.stdout, 0)) {
    if (!entry) continue;
    // A conflicted file is listed once per stage.
    if (entry.endsWith('/')) nested.push(entry.slice(0, -1));
    else paths.add(entry);
  }
  return { paths: [...paths], nested };
}
