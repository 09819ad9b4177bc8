import { createHash } from 'node:crypto';
import { mainLanguageOf } from './languages.js';

/**
 * The split of the benchmark by repository, fixed before any tuning on the larger task files
 * (2026-11-22), so that reported figures come from repositories nobody tuned on. It names no
 * repository: it is a rule over whatever task files are given.
 *
 * - A repository is in the language most of its tasks' changed files are written in.
 * - Repositories of the development file (`TUNED_FILE`) are tuning repositories: the offline
 *   judge was tuned on them before this split existed.
 * - In each language with two or more repositories, a third of them (at least one) are tuning
 *   repositories, the development file's counting first; the others are held out. Which ones is
 *   decided by the SHA-256 of the repository's lower-cased `owner/name`, smallest first, which
 *   no one chooses.
 * - A language with one repository is held out whole.
 *
 * Every figure reported in the README and in notes is the held-out one.
 */

export type Split = 'tuning' | 'held-out';

/** The task file whose repositories were tuned on before the split. */
export const TUNED_FILE = 'tasks.dev.jsonl';

export interface SplitTask {
  repo: string;
  gold_files: readonly string[];
  /** Base name of the task file the task comes from. */
  file: string;
}

const keyOf = (repo: string) => repo.toLowerCase();
const hashOf = (repo: string) => createHash('sha256').update(keyOf(repo)).digest('hex');

/** The language of each repository: that of most of its tasks' changed files. */
export function repositoryLanguages(tasks: readonly SplitTask[]): Map<string, string> {
  const files = new Map<string, string[]>();
  for (const task of tasks) {
    const key = keyOf(task.repo);
    files.set(key, [...(files.get(key) ?? []), ...task.gold_files]);
  }
  return new Map([...files].map(([repo, paths]) => [repo, mainLanguageOf(paths)]));
}

/** Each repository's side of the split, keyed by lower-cased `owner/name`. */
export function splitRepositories(tasks: readonly SplitTask[]): Map<string, Split> {
  const languages = repositoryLanguages(tasks);
  const tunedBefore = new Set(
    tasks.filter((task) => task.file === TUNED_FILE).map((task) => keyOf(task.repo)),
  );
  const split = new Map<string, Split>();
  for (const language of new Set(languages.values())) {
    const repositories = [...languages]
      .filter(([, their]) => their === language)
      .map(([repo]) => repo)
      .sort((left, right) => (hashOf(left) < hashOf(right) ? -1 : 1));
    const wanted = repositories.length >= 2 ? Math.max(1, Math.floor(repositories.length / 3)) : 0;
    let tuning = repositories.filter((repo) => tunedBefore.has(repo)).length;
    for (const repo of repositories) {
      const tuned = tunedBefore.has(repo) || (tuning < wanted && ++tuning > 0);
      split.set(repo, tuned ? 'tuning' : 'held-out');
    }
  }
  return split;
}

/** The side of the split `repo` is on. */
export const sideOf = (split: ReadonlyMap<string, Split>, repo: string): Split =>
  split.get(keyOf(repo)) ?? 'held-out';
