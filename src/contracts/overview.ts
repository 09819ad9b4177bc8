import type { FileKind } from './file-kind.js';

/**
 * What a judge sees of the repository as a whole before its first query: paths, directories,
 * symbols, packages and the commits of its past.
 */

/** A commit of the repository's past: what its message said and which files it changed. */
export interface PastCommit {
  message: string;
  /** Paths relative to the searched root, `/`-separated. */
  files: string[];
}

/** A compact picture of the repository for the first query. */
export interface RepoOverview {
  fileCount: number;
  /** Every path the run may consider, sorted. */
  paths: readonly string[];
  /** What each path is for: source, tests, docs… */
  kinds: Readonly<Record<string, FileKind>>;
  /** Directories with how many files each holds (recursively), largest first. */
  directories: readonly { path: string; fileCount: number }[];
  /** The top-level symbols each file exports (or defines, when it exports nothing), a few per file. */
  symbols: Readonly<Record<string, readonly string[]>>;
  /** Recent commits (newest first) and the files they changed; empty without git history. */
  history: readonly PastCommit[];
  /** The packages the repository's `package.json` files name, each with its directory ('' for the root). */
  packages: readonly { name: string; directory: string }[];
}
