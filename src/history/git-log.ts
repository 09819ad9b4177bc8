import { execFile } from 'node:child_process';

/** A commit of the repository's past: what its message said and which files it changed. */
export interface PastCommit {
  message: string;
  /** Paths relative to the searched root, `/`-separated. */
  files: string[];
}

/** Where the history comes from: the root's own git, or a git directory at a revision. */
export interface HistorySource {
  root: string;
  /** A git directory (a bare mirror, say) to read instead of the root's repository. */
  gitDirectory?: string | undefined;
  /** The last commit to read; default `HEAD`. Nothing after it is seen. */
  revision?: string | undefined;
  maxCommits: number;
  signal?: AbortSignal | undefined;
}

const RECORD = '\x1e';
const END_OF_MESSAGE = '\x1d';
const TIMEOUT_MS = 10_000;

/** Parses `git log --name-only --format=<RECORD>%s%n%b<END_OF_MESSAGE>`. */
export function parseGitLog(output: string): PastCommit[] {
  return output
    .split(RECORD)
    .slice(1)
    .map((record) => {
      const [message = '', names = ''] = record.split(END_OF_MESSAGE);
      return {
        message: message.trim(),
        files: names
          .split('\n')
          .map((line) => line.trim())
          .filter(Boolean),
      };
    });
}

/**
 * The newest `maxCommits` non-merge commits, newest first. A root outside git, a missing `git`
 * or a slow one gives an empty history: the past is a hint, never a requirement.
 */
export function readGitHistory(source: HistorySource): Promise<PastCommit[]> {
  const location = source.gitDirectory ? ['--git-dir', source.gitDirectory] : ['-C', source.root];
  const args = [
    ...location,
    '-c',
    'core.quotepath=off',
    'log',
    `--max-count=${source.maxCommits}`,
    '--no-merges',
    '--name-only',
    `--format=${RECORD}%s%n%b${END_OF_MESSAGE}`,
    // Inside a larger repository, only the root's files, with paths relative to it.
    ...(source.gitDirectory ? [] : ['--relative']),
    // A repository's own configuration must not make `git log` verify signatures (run a program).
    '--no-show-signature',
    // Whatever the caller passes as a revision is never read as an option.
    '--end-of-options',
    source.revision ?? 'HEAD',
    '--',
  ];
  return new Promise((resolve) => {
    execFile(
      'git',
      args,
      { maxBuffer: 256 * 1024 * 1024, timeout: TIMEOUT_MS, signal: source.signal },
      (error, stdout) => resolve(error ? [] : parseGitLog(stdout)),
    );
  });
}
