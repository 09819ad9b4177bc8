import { z } from 'zod';
import {
  historyFileOf,
  readIndexFile,
  writeIndexFile,
  type CacheDirectory,
} from '../file-system/index-store.js';
import { runGit } from '../git.js';
import {
  MAX_HISTORY_BYTES,
  gitLocation,
  readGitHistory,
  type GitHistory,
  type HistorySource,
} from './git-log.js';

/**
 * A root's git history, kept beside its stored index and read from git again only when the
 * commit it ends at has moved. Reading 2,000 commits' messages and files takes a second or more
 * on a repository with a long history, in every run, for the same answer: on a 27k-file
 * repository with 18k commits, a warm run took 4.14 s with the history read and 2.51 s without.
 */

const FORMAT = 1;

/** What is kept: the history, and what it was read for. Checked whole when read back. */
const storedHistorySchema = z.object({
  format: z.literal(FORMAT),
  commit: z.string(),
  maxCommits: z.number(),
  maxBytes: z.number(),
  gitDirectory: z.string().nullable(),
  commits: z.array(z.object({ message: z.string(), files: z.array(z.string()) })),
});
type StoredHistory = z.infer<typeof storedHistorySchema>;

/** The commit `source` ends at, as git names it; undefined outside git or for no commit. */
async function commitOf(source: HistorySource): Promise<string | undefined> {
  const output = await runGit(
    [
      ...gitLocation(source),
      'rev-parse',
      '--verify',
      '--quiet',
      '--end-of-options',
      `${source.revision ?? 'HEAD'}^{commit}`,
    ],
    { maxBytes: 200, signal: source.signal },
  );
  const id = output.code === 0 ? output.stdout.toString('utf8').trim() : '';
  return /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/.test(id) ? id : undefined;
}

async function readStored(path: string, maxBytes: number): Promise<StoredHistory | undefined> {
  const bytes = await readIndexFile(path, maxBytes).catch(() => undefined);
  if (!bytes) return undefined;
  try {
    const parsed = storedHistorySchema.safeParse(JSON.parse(bytes.toString('utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    // Cut short or damaged: read from git again, and written anew.
    return undefined;
  }
}

/**
 * `readGitHistory(source)`, taken from `cache` when it holds the history of the same commit read
 * with the same bounds. A history read whole is kept there for the next run; one cut or not
 * read (with a warning) is not.
 */
export async function readHistoryWithCache(
  source: HistorySource,
  cache: CacheDirectory | undefined,
): Promise<GitHistory> {
  const commit = cache && (await commitOf(source));
  if (!cache || !commit) return readGitHistory(source);
  const path = historyFileOf(cache.directory, source.root);
  const key = {
    format: FORMAT,
    commit,
    maxCommits: source.maxCommits,
    maxBytes: source.maxBytes ?? MAX_HISTORY_BYTES,
    gitDirectory: source.gitDirectory ?? null,
  } as const;
  // A history read whole is at most MAX_HISTORY_BYTES of log; its JSON, not much more.
  const stored = await readStored(path, Math.min(cache.maxBytes, 2 * key.maxBytes));
  const fields = Object.keys(key) as (keyof typeof key)[];
  if (stored && fields.every((field) => stored[field] === key[field]))
    return { commits: stored.commits };
  const history = await readGitHistory(source);
  if (history.warning === undefined)
    // A cache that cannot be written costs the next run a read, nothing more.
    await writeIndexFile(
      cache.directory,
      path,
      JSON.stringify({ ...key, commits: history.commits }),
      cache.maxBytes,
    ).catch(() => undefined);
  return history;
}
