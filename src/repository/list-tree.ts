import { posix } from 'node:path';
import pLimit from 'p-limit';
import {
  isWorkTreeRoot,
  listFiles,
  readBytes,
  readDirectory,
  statPaths,
  type EntryFilter,
  type ListedFile,
} from '../file-system/tree.js';
import { createIgnoreRules } from './ignore-rules.js';
import { listGitFiles, type GitListing } from './git-files.js';
import { globMatcher } from './glob-matcher.js';

/**
 * The files of the searched tree, git's ignore rules applied. At the top of a git work tree, git
 * lists them (./git-files.ts), and repositories nested inside are listed the same way; elsewhere,
 * or when git cannot, the tree is walked, each directory's `.gitignore` read before its entries
 * are kept or left out, so the walk never enters an ignored directory. Either way `excludes`
 * (globs, fast-glob style: a pattern that matches a directory leaves out everything in it) apply.
 */

export interface TreeListing {
  /** Sorted by path. */
  files: ListedFile[];
  /** True when git listed the tree. */
  byGit: boolean;
  /** Files and directories the walk left out by ignore rules (git does not count them). */
  ignored: number;
}

export interface ListTreeOptions {
  excludes: readonly string[];
  /** Most bytes of an ignore file read. */
  maxIgnoreFileBytes: number;
  signal?: AbortSignal | undefined;
}

/** How deep repositories nested in repositories are followed. */
const MAX_NESTING = 8;

const byPath = (left: ListedFile, right: ListedFile) =>
  left.path < right.path ? -1 : left.path > right.path ? 1 : 0;

/** Whether a path or any directory above it matches one of `globs`; directories' verdicts kept. */
function exclusionTest(globs: readonly string[]): (path: string) => boolean {
  const matches = globMatcher(globs);
  const directories = new Map<string, boolean>();
  const directoryExcluded = (directory: string): boolean => {
    if (directory === '.' || directory === '') return false;
    let verdict = directories.get(directory);
    if (verdict === undefined) {
      verdict = directoryExcluded(posix.dirname(directory)) || matches(directory);
      directories.set(directory, verdict);
    }
    return verdict;
  };
  return (path) => directoryExcluded(posix.dirname(path)) || matches(path);
}

export async function listTree(root: string, options: ListTreeOptions): Promise<TreeListing> {
  if (await isWorkTreeRoot(root)) {
    const excluded = exclusionTest(options.excludes);
    const files = await listRepository(root, '', excluded, options, 0);
    if (files) return { files: files.sort(byPath), byGit: true, ignored: 0 };
  }
  // git stopped by the time limit is not git failing: the run is over, and no walk starts.
  options.signal?.throwIfAborted();
  const walked = await walkTree(root, options);
  return { ...walked, files: walked.files.sort(byPath) };
}

/** The walk, `.git/info/exclude`, each directory's `.gitignore` and the excludes applied as it goes. */
async function walkTree(root: string, options: ListTreeOptions): Promise<TreeListing> {
  const walk = await ignoreAwareWalk(root, options);
  const files = await listFiles(root, walk.keep);
  return { files, byGit: false, ignored: walk.ignored() };
}

/** Directories read at once by `walkDirectories`. */
const DIRECTORIES_AT_ONCE = 8;

/**
 * Every directory the walk enters ('' for the root), each told to `beforeReading` before it is
 * read: never an ignored or excluded one, nor one behind a link. What a watch of the tree must
 * watch to see each file the walk or git could list. Only directories are tested against the
 * rules, and nothing is stated.
 */
export async function walkDirectories(
  root: string,
  options: ListTreeOptions,
  beforeReading: (directory: string) => void,
): Promise<void> {
  const walk = await ignoreAwareWalk(root, options, { directoriesOnly: true });
  const limit = pLimit(DIRECTORIES_AT_ONCE);
  const subdirectories = async (directory: string) => {
    beforeReading(directory);
    const entries = (await readDirectory(root, directory)) ?? [];
    const kept = await walk.keep(directory, entries);
    return entries.flatMap((entry) => {
      const path = directory ? `${directory}/${entry.name}` : entry.name;
      return entry.isDirectory && kept.has(entry.name) ? [path] : [];
    });
  };
  const visit = async (directory: string): Promise<void> => {
    await Promise.all((await limit(subdirectories, directory)).map(visit));
  };
  await visit('');
}

/**
 * What a walk keeps of each directory: not what the ignore rules found so far leave out (counted),
 * nor what the excludes do, read as they are for git's listing (not by fast-glob, whose matcher
 * expands braces and backtracks).
 */
async function ignoreAwareWalk(
  root: string,
  options: ListTreeOptions,
  { directoriesOnly = false } = {},
): Promise<{ keep: EntryFilter; ignored: () => number }> {
  const rules = createIgnoreRules();
  const gitExclude = await readBytes(root, '.git/info/exclude', options.maxIgnoreFileBytes);
  if (gitExclude) rules.add({ directory: '', content: gitExclude.toString('utf8') });
  const excluded = exclusionTest(options.excludes);
  let ignored = 0;
  const keep: EntryFilter = async (directory, entries) => {
    options.signal?.throwIfAborted();
    if (entries.some((entry) => entry.name === '.gitignore' && !entry.isDirectory)) {
      const path = directory ? `${directory}/.gitignore` : '.gitignore';
      const content = await readBytes(root, path, options.maxIgnoreFileBytes);
      if (content) rules.add({ directory, content: content.toString('utf8') });
    }
    const kept = new Set<string>();
    for (const entry of entries) {
      if (directoriesOnly && !entry.isDirectory) continue;
      const path = directory ? `${directory}/${entry.name}` : entry.name;
      if (rules.ignores(path, entry.isDirectory)) ignored++;
      else if (!excluded(path)) kept.add(entry.name);
    }
    return kept;
  };
  return { keep, ignored: () => ignored };
}

/** The files of the repository at `prefix` under `root`, with paths relative to `root`. */
async function listRepository(
  root: string,
  prefix: string,
  excluded: (path: string) => boolean,
  options: ListTreeOptions,
  depth: number,
): Promise<ListedFile[] | undefined> {
  const here = prefix ? posix.join(root, prefix) : root;
  const rooted = (path: string) => (prefix ? `${prefix}/${path}` : path);
  const stat = (listing: GitListing) =>
    statPaths(
      root,
      listing.paths.map(rooted).filter((path) => !excluded(path)),
      options.signal,
    );
  // Tracked files come from git's index at once: they are stated while git walks the tree for
  // the untracked ones.
  const untracked = listGitFiles(here, 'untracked', options.signal);
  const tracked = await listGitFiles(here, 'tracked', options.signal);
  if (!tracked) {
    await untracked;
    return undefined;
  }
  const statingTracked = stat(tracked);
  const others = await untracked;
  if (!others) {
    await statingTracked;
    return undefined;
  }
  const stated = await Promise.all([statingTracked, stat(others)]);
  const files = stated.flatMap((part) => part.files);
  const nested = [
    ...stated.flatMap((part) => part.directories),
    ...[...tracked.nested, ...others.nested].map(rooted),
  ].filter((path) => !excluded(`${path}/`) && !excluded(path));
  if (depth >= MAX_NESTING) return files;
  for (const directory of nested) {
    const inner =
      (await listRepository(root, directory, excluded, options, depth + 1)) ??
      // Not a repository git can list (an empty submodule, say): walked instead.
      (await walkTree(posix.join(root, directory), options)).files.map((file) => ({
        ...file,
        path: `${directory}/${file.path}`,
      }));
    files.push(...inner);
  }
  return files;
}
