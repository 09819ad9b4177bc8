import { MAX_FILES_PER_COMMIT } from './history-scores.js';
import type { PastCommit } from '../contracts/overview.js';

/**
 * Files that past commits changed together with a given file. A fix often spans files that no
 * word of the task names (a definition and its registration, one backend and its sibling); the
 * history remembers which files move together, so a planner can ask for them by path.
 */

export interface ChangePartner {
  path: string;
  /** How many commits changed both files. */
  commits: number;
}

/** One shared commit is chance; two is a habit. */
const MIN_SHARED_COMMITS = 2;

/**
 * For each of `paths`, up to `limit` partners, most shared commits first, leaving out the files in
 * `exclude` (those already known). Commits that touch more than `MAX_FILES_PER_COMMIT` files are
 * refactors or releases and say nothing about which files belong together.
 */
export function changePartners(
  commits: readonly PastCommit[],
  paths: readonly string[],
  options: { limit: number; exclude?: ReadonlySet<string> },
): Map<string, ChangePartner[]> {
  const wanted = new Set(paths);
  const counts = new Map<string, Map<string, number>>();
  for (const commit of commits) {
    if (commit.files.length > MAX_FILES_PER_COMMIT) continue;
    for (const file of commit.files) {
      if (!wanted.has(file)) continue;
      let partners = counts.get(file);
      if (!partners) counts.set(file, (partners = new Map()));
      for (const other of commit.files)
        if (other !== file && !options.exclude?.has(other))
          partners.set(other, (partners.get(other) ?? 0) + 1);
    }
  }
  const result = new Map<string, ChangePartner[]>();
  for (const path of paths) {
    const partners = [...(counts.get(path) ?? [])]
      .filter(([, shared]) => shared >= MIN_SHARED_COMMITS)
      .sort((left, right) => right[1] - left[1] || (left[0] < right[0] ? -1 : 1))
      .slice(0, options.limit)
      .map(([partner, shared]) => ({ path: partner, commits: shared }));
    if (partners.length > 0) result.set(path, partners);
  }
  return result;
}
