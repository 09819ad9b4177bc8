import { resolve } from 'node:path';
import { ConfigError } from './errors.js';
import { lockBuild, loadIndex, saveIndex } from './repository/index-cache.js';
import { openWorkspace } from './repository/workspace.js';
import { parseRetrievalOptions, type RetrievalOptions } from './options.js';
import { readHistoryWithCache } from './history/history-cache.js';

/** Options of `buildIndex`: the search's own (`RetrievalOptions`), with the same defaults. */
export type BuildIndexOptions = Pick<
  RetrievalOptions,
  | 'root'
  | 'excludes'
  | 'allowSecretFiles'
  | 'maxFileBytes'
  | 'maxRepositoryFiles'
  | 'maxCacheBytes'
  | 'maxHistoryCommits'
  | 'signal'
> & { cacheDirectory: string };

export interface BuiltIndex {
  root: string;
  /** Files the index describes (read, binary or minified). */
  files: number;
  /** Files read for it: all of them the first time, the changed ones after. */
  read: number;
  /** False when another build of the same root was under way: this one did nothing. */
  built: boolean;
  ms: number;
}

/**
 * Builds, or brings up to date, the stored index of `root` in `cacheDirectory`, which later
 * `iterativeRetrieve` runs with the same `cacheDirectory` read instead of the files. One build per
 * root at a time: a second one returns at once with `built: false`.
 */
export async function buildIndex(options: BuildIndexOptions): Promise<BuiltIndex> {
  const started = performance.now();
  const resolved = parseRetrievalOptions(options);
  if (resolved.cacheDirectory === undefined)
    throw new ConfigError('`cacheDirectory` is required: where the index is kept', {
      option: 'cacheDirectory',
    });
  const root = resolve(resolved.root);
  const cache = { directory: resolve(resolved.cacheDirectory), maxBytes: resolved.maxCacheBytes };
  const release = await lockBuild(cache, root);
  if (!release) return { root, files: 0, read: 0, built: false, ms: performance.now() - started };
  try {
    // The git history too, kept beside the index, so that the next run need not read it.
    const history = readHistoryWithCache(
      { root, maxCommits: resolved.maxHistoryCommits, signal: resolved.signal },
      cache,
    );
    const workspace = await openWorkspace(root, {
      excludes: resolved.excludes,
      allowSecretFiles: resolved.allowSecretFiles,
      maxFileBytes: resolved.maxFileBytes,
      maxFiles: resolved.maxRepositoryFiles,
      index: loadIndex(cache, root).then((stored) => ({ stored: stored.index })),
      signal: resolved.signal,
    });
    const index = workspace.index;
    if (index?.changed) await saveIndex(cache, root, index.updated);
    await history;
    return {
      root,
      files: index?.updated.files.size ?? 0,
      read: index?.read ?? 0,
      built: true,
      ms: performance.now() - started,
    };
  } finally {
    await release();
  }
}
