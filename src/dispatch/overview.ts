import { posix } from 'node:path';
import type { RepoOverview } from '../judges/judge.js';
import type { Workspace } from './workspace.js';

const MAX_DIRECTORIES = 300;

/** The repository at a glance, for a judge's first query. */
export function describeWorkspace(workspace: Workspace): RepoOverview {
  const paths = workspace.files.map((file) => file.path).sort();
  const counts = new Map<string, number>();
  for (const path of paths) {
    for (
      let directory = posix.dirname(path);
      directory !== '.';
      directory = posix.dirname(directory)
    ) {
      counts.set(directory, (counts.get(directory) ?? 0) + 1);
    }
  }
  const directories = [...counts.entries()]
    .sort((left, right) => right[1] - left[1] || (left[0] < right[0] ? -1 : 1))
    .slice(0, MAX_DIRECTORIES)
    .map(([path, fileCount]) => ({ path, fileCount }));
  return { fileCount: paths.length, paths, directories };
}
