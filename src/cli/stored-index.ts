import { resolve } from 'node:path';
import { cacheDirectoryFor } from './cache-directory.js';
import { hasCurrentIndex, indexDirectoryProblem } from '../repository/index-cache.js';
import type { RetrievalOptions } from '../options.js';
import type { CliArguments } from './flag-values.js';
import type { CliIo } from './cli-io.js';

export interface IndexedRun {
  /** The options a run takes the stored index with: none when there is none yet. */
  options: Pick<RetrievalOptions, 'cacheDirectory'>;
  /** Once the run is answered: starts the index's build in the background when there was none. */
  afterRun(): void;
  /** Why no index is kept (the cache directory cannot be used), for the run to say. */
  warning?: string;
}

/**
 * A run on `root` reads its stored index when there is one (and brings it up to date with the
 * files that changed). When there is none yet (or only one of an older format), the run reads
 * the files as it would without a cache, and the index is built afterwards by
 * `iterative-retrieval index` in a process of its own, so that no answer waits for a whole
 * repository to be indexed.
 */
export async function indexedRun(io: CliIo, args: CliArguments, root: string): Promise<IndexedRun> {
  const directory = cacheDirectoryFor(args, io.env);
  const absolute = resolve(root);
  if (directory === undefined || (await hasCurrentIndex(directory, absolute)))
    return { options: directory ? { cacheDirectory: directory } : {}, afterRun: () => undefined };
  // Where no index can be written, a build would fail after every run: none is started, and
  // the user, who may have named the directory, is told why every run stays cold.
  const problem = await indexDirectoryProblem(directory);
  if (problem !== undefined)
    return {
      options: {},
      afterRun: () => undefined,
      warning: `no stored index is kept, so no run gets faster: ${problem}`,
    };
  return {
    options: {},
    // Below the runs' priority: a run made while it builds (the next subagent's, say) is not
    // slowed down by it (at 50k files, 4.9–5.3 s against 6.7–7.3 s beside a build).
    afterRun: () =>
      io.startInBackground?.(
        [
          'index',
          '--root',
          absolute,
          '--cache-dir',
          directory,
          ...(args.maxRepositoryFiles !== undefined
            ? ['--max-repository-files', String(args.maxRepositoryFiles)]
            : []),
          ...(args.excludes ?? []).flatMap((glob) => ['--exclude', glob]),
        ],
        { lowPriority: true },
      ),
  };
}
