import { runGit } from '../git.js';
import { type PastCommit } from '../contracts/overview.js';
import { splitBytes } from '../text/split-bytes.js';

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
const RECORD_BYTE = 0x1e;
const END_OF_MESSAGE = '\x1d';
/**
 * Most bytes of `git log` read. The history is bounded by amount (commits and bytes), never by
 * the clock: a busy machine must not change what the run sees, and so how it ranks.
 */
export const MAX_HISTORY_BYTES = 32 * 1024 * 1024;
/** What git says where there is no history to read: not a warning, just no evidence. */
const NO_HISTORY = /not a git repository|cannot change to|does not have any commits/i;

/** Where git reads the history: the git directory given, else the root's repository. */
export const gitLocation = (source: HistorySource) =>
  source.gitDirectory ? ['--git-dir', source.gitDirectory] : ['-C', source.root];

/** One commit of that log: its message, and after it the files it changed, a line each. */
function parseRecord(record: string): PastCommit {
  const [message = '', names = ''] = record.split(END_OF_MESSAGE);
  return {
    message: message.trim(),
    files: names
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean),
  };
}

/** Parses `git log --name-only --format=<RECORD>%s%n%b<END_OF_MESSAGE>`. */
export function parseGitLog(output: string | Buffer): PastCommit[] {
  // From bytes, each commit's text is its own: what is kept of one keeps no other alive.
  const records =
    typeof output === 'string' ? output.split(RECORD) : splitBytes(output, RECORD_BYTE);
  return records.slice(1).map(parseRecord);
}

/**
 * The newest `maxCommits` non-merge commits, newest first, from at most `MAX_HISTORY_BYTES` of
 * `git log`. A root outside git or a missing `git` gives an empty history: the past is a hint,
 * never a requirement. When history was there but is missing or cut, `warning` says so.
 */
export async function readGitHistory(source: HistorySource): Promise<GitHistory> {
  const args = [
    ...gitLocation(source),
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
  const output = await runGit(args, { maxBytes, signal: source.signal });
  if (output.missing)
    return source.signal?.aborted
      ? { commits: [], warning: 'the git history was not read: the run stopped first' }
      : // No git on this machine: no evidence, nothing wrong with the repository.
        { commits: [] };
  const log = output.stdout;
  if (output.cut) {
    // The last record may be cut in half: only whole commits count.
    const commits = parseGitLog(log.subarray(0, Math.max(0, log.lastIndexOf(RECORD_BYTE))));
    return {
      commits,
      warning: `the git history was cut at ${commits.length} commits (${Math.round(maxBytes / 1024 / 1024)} MB of log)`,
    };
  }
  if (output.code === 0) return { commits: parseGitLog(log) };
  if (NO_HISTORY.test(output.stderr)) return { commits: [] };
  return {
    commits: [],
    warning: `the git history could not be read (${output.stderr.trim().split('\n')[0] || `git exited with ${output.code}`}): ranked without it`,
  };
}
