import { ensurePrivateDirectory } from '../file-system/private-store.js';
import {
  indexFileOf,
  lockIndexBuild,
  readIndexFile,
  writeIndexFile,
} from '../file-system/index-store.js';
import { decodeIndex, indexChunks, MalformedIndexError, type StoredIndex } from './word-index.js';

/**
 * A cache directory of stored indexes (./word-index.ts), one per searched root: loaded before a
 * run reads the repository, saved after when the run found files changed.
 */
export interface IndexCache {
  directory: string;
  /** The most bytes the directory's indexes may take together; the least recently used go first. */
  maxBytes: number;
}

/**
 * Loaded, or why not: none yet, one that could not be used (it is built again), or a cache
 * directory that cannot be used at all (`unusable`: another user's, open to others, or not
 * creatable), where no index is built either.
 */
export type LoadedIndex =
  { index: StoredIndex } | { index: undefined; problem?: string; unusable?: boolean };

export async function loadIndex(cache: IndexCache, root: string): Promise<LoadedIndex> {
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
    if (error instanceof MalformedIndexError) return { index: undefined, problem: error.message };
    throw error;
  }
}

export async function saveIndex(cache: IndexCache, root: string, index: StoredIndex) {
  await writeIndexFile(
    cache.directory,
    indexFileOf(cache.directory, root),
    indexChunks(index),
    cache.maxBytes,
  );
}

/** The lock of a root's index build, or undefined while another build holds it. */
export function lockBuild(cache: IndexCache, root: string) {
  return lockIndexBuild(cache.directory, indexFileOf(cache.directory, root));
}
