import { spawn } from 'node:child_process';
import { type PastCommit } from '../contracts/overview.js';

/** Where the history comes from: the root's own git, or a git directory at a revision. */
export interface HistorySource {
  root: string;
  /** A git directory (a bare mirror, say) to read instead of the root's repository. */
  gitDirectory?: string | undefined;
  /** The last commit to read; default `HEAD`. Nothing after it is seen. */
  revision?: string | undefined;
  maxCommits: number;
  /** Most bytes of log read. Default `MAX_HISTORY_BYTES`. */
  maxBytes?: number | undefined;
  signal?: AbortSignal | undefined;
}

/** The history as read, and why some of it is missing when it is. */
export interface GitHistory {
  commits: PastCommit[];
  /** Set when history was there but could not be read whole: for the result's warnings. */
  warning?: string | undefined;
}

const RECORD = '\x1e';
const END_OF_MESSAGE = '\x1d';
/**
 * Most bytes of `git log` read. The history is bounded by amount (commits and bytes), never by
 * the clock: a busy machine must not change what the run sees, and so how it ranks.
 */
export const MAX_HISTORY_BYTES = 32 * 1024 * 1024;
/** What git says where there is no history to read: not a warning, just no evidence. */
const NO_HISTORY = /not a git repository|cannot change to|does not have any commits/i;

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
 * The newest `maxCommits` non-merge commits, newest first, from at most `MAX_HISTORY_BYTES` of
 * `git log`. A root outside git or a missing `git` gives an empty history: the past is a hint,
 * never a requirement. When history was there but is missing or cut, `warning` says so.
 */
export function readGitHistory(source: HistorySource): Promise<GitHistory> {
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
  const maxBytes = source.maxBytes ?? MAX_HISTORY_BYTES;
  return new Promise((resolve) => {
    const stdout: Buffer[] = [];
    let stderr = '';
    let size = 0;
    let cut = false;
    const child = spawn('git', args, {
      signal: source.signal,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.on('data', (chunk: Buffer) => {
      if (cut) return;
      size += chunk.length;
      if (size > maxBytes) {
        cut = true;
        stdout.push(chunk.subarray(0, chunk.length - (size - maxBytes)));
        child.kill();
      } else stdout.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 2000) stderr += chunk.toString('utf8');
    });
    let settled = false;
    const finish = (history: GitHistory) => {
      if (!settled) resolve(history);
      settled = true;
    };
    child.on('error', (error: NodeJS.ErrnoException) => {
      if (source.signal?.aborted)
        finish({ commits: [], warning: 'the git history was not read: the run stopped first' });
      // No git on this machine: no evidence, nothing wrong with the repository.
      else finish({ commits: [] });
      void error;
    });
    child.on('close', (code) => {
      const output = Buffer.concat(stdout).toString('utf8');
      if (cut) {
        // The last record may be cut in half: only whole commits count.
        const commits = parseGitLog(output.slice(0, output.lastIndexOf(RECORD)));
        finish({
          commits,
          warning: `the git history was cut at ${commits.length} commits (${Math.round(maxBytes / 1024 / 1024)} MB of log)`,
        });
      } else if (code === 0) finish({ commits: parseGitLog(output) });
      else if (NO_HISTORY.test(stderr)) finish({ commits: [] });
      else
        finish({
          commits: [],
          warning: `the git history could not be read (${stderr.trim().split('\n')[0] || `git exited with ${code}`}): ranked without it`,
        });
    });
  });
}
