import { SearchError } from '../errors.js';
import { ensurePrivateDirectory, privateDirectoryProblem } from '../file-system/private-store.js';
import {
  indexFileOf,
  lockIndexBuild,
  readIndexHead,
  readIndexFile,
  removeIndexOver,
  writeIndexFile,
  type CacheDirectory,
} from '../file-system/index-store.js';
import {
  FORMAT_BYTES,
  decodeIndex,
  indexChunks,
  isCurrentFormat,
  type StoredIndex,
} from './word-index.js';

/*
 * A cache directory of stored indexes (./word-index.ts), one per searched root: loaded before a
 * run reads the repository, saved after when the run found files changed.
 */

/**
 * Loaded, or why not: none yet, one that could not be used (it is built again), or a cache
 * directory that cannot be used at all (`unusable`: another user's, open to others, or not
 * creatable), where no index is built either.
 */
export type LoadedIndex =
  { index: StoredIndex } | { index: undefined; problem?: string; unusable?: boolean };

export async function loadIndex(cache: CacheDirectory, root: string): Promise<LoadedIndex> {
  let bytes;
  const problem = (error: unknown) => (error instanceof Error ? error.message : String(error));
  try {
    // An index in a directory others can write could have been planted: it is not read.
    await ensurePrivateDirectory(cache.directory);
  } catch (error) {
    return { index: undefined, problem: problem(error), unusable: true };
  }
  try {
    bytes = await readIndexFile(indexFileOf(cache.directory, root), cache.maxBytes);
  } catch (error) {
    return { index: undefined, problem: problem(error) };
  }
  if (!bytes) return { index: undefined };
  try {
    return { index: decodeIndex(bytes) };
  } catch (error) {
    // Whatever fails in decoding (a string past V8's longest, say) is the index's fault: it is
    // built again, as one `decodeIndex` refuses is.
    return { index: undefined, problem: problem(error) };
  }
}

/**
 * Saves a root's index; a `SearchError` when it cannot be written, or is larger than the whole
 * cache may be (it is then not written: the cache stays within its bound).
 */
export async function saveIndex(cache: CacheDirectory, root: string, index: StoredIndex) {
  const { bytes, chunks } = indexChunks(index);
  if (bytes > cache.maxBytes) {
    // One written under a larger bound would keep the cache over this one for good: no run
    // reads it (it is over the bound), and none writes another in its place.
    await removeIndexOver(indexFileOf(cache.directory, root), cache.maxBytes);
    throw new SearchError(
      `the stored index would take ${bytes.toLocaleString('en-US')} bytes, more than the cache's ${cache.maxBytes.toLocaleString('en-US')} (maxCacheBytes)`,
      { path: cache.directory },
    );
  }
  await writeIndexFile(cache.directory, indexFileOf(cache.directory, root), chunks, cache.maxBytes);
}

/**
 * Whether `root` has an index of this format in the directory: one of another version (written
 * by an older release) is as good as none, and is built again the same way.
 */
export async function hasCurrentIndex(directory: string, root: string): Promise<boolean> {
  const head = await readIndexHead(directory, root, FORMAT_BYTES);
  return head !== undefined && isCurrentFormat(head);
}

/**
 * Why indexes cannot be built in the directory, or undefined when they can: it must be a private
 * directory of this user that can be written (not open to others, not on a read-only file system).
 */
export const indexDirectoryProblem = (directory: string) => privateDirectoryProblem(directory);

/** The lock of a root's index build, or undefined while another build holds it. */
export function lockBuild(cache: CacheDirectory, root: string) {
  return lockIndexBuild(cache.directory, indexFileOf(cache.directory, root));
}
