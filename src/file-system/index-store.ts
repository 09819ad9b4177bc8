import { createHash, randomUUID } from 'node:crypto';
import { open, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ensurePrivateDirectory, removeIfAbandoned, writeFileAtomically } from './private-store.js';
import { errorCode } from './error-code.js';
import { OPEN_FLAGS } from './tree.js';

/**
 * Stored indexes in a cache directory, one file per searched root. The directory is private to
 * the user (an index holds every word of a repository), writes replace a file whole (a reader
 * sees the old index or the new one), and the directory is kept under a size bound by removing
 * the indexes used least recently.
 */

/** A cache directory and the most bytes its files (indexes and histories) may take together. */
export interface CacheDirectory {
  directory: string;
  /** The least recently used files go first past this. */
  maxBytes: number;
}

const EXTENSION = '.index';
/** A root's git history as last read, beside its index (src/history/history-cache.ts). */
const HISTORY_EXTENSION = '.history';
/** A build's lock older than this belongs to a builder that died. */
const STALE_LOCK_MS = 15 * 60_000;
/** A temporary file this old was left by a writer that died. */
const STALE_TEMPORARY_MS = 60 * 60_000;

const nameOf = (root: string) => createHash('sha256').update(root).digest('hex').slice(0, 32);

/** The index file of a root: named by a hash of its path, so no path is spelt in the cache. */
export function indexFileOf(directory: string, root: string): string {
  return join(directory, nameOf(root) + EXTENSION);
}

/**
 * The socket of a root's resident process (src/resident/), named like its index; undefined when
 * the path is too long for a Unix socket (108 bytes on Linux, 104 on macOS).
 */
export function residentSocketOf(directory: string, root: string): string | undefined {
  const path = join(directory, nameOf(root) + '.sock');
  return Buffer.byteLength(path) < 104 ? path : undefined;
}

/** The history file of a root, named like its index. */
export function historyFileOf(directory: string, root: string): string {
  return join(directory, nameOf(root) + HISTORY_EXTENSION);
}

/**
 * The bytes of an index (or history) file, or undefined when there is none (or it is over
 * `maxBytes`). Read whole into one buffer of its size: an index is large, and chunks joined would
 * hold it twice.
 */
export async function readIndexFile(path: string, maxBytes: number): Promise<Buffer | undefined> {
  let handle;
  try {
    handle = await open(path, OPEN_FLAGS);
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return undefined;
    throw error;
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile() || stats.size > maxBytes) return undefined;
    const bytes = Buffer.allocUnsafe(stats.size);
    let filled = 0;
    while (filled < bytes.length) {
      const { bytesRead } = await handle.read(bytes, filled, bytes.length - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    // Used now: the last to be removed when the cache is over its bound.
    const now = new Date();
    await handle.utimes(now, now).catch(() => undefined);
    // Cut short (replaced while read, say): what was read fails to decode, and is built again.
    return bytes.subarray(0, filled);
  } finally {
    await handle.close();
  }
}

/**
 * Writes an index (or history) file whole, then removes the least recently used ones while the
 * cache is over `maxBytes`.
 */
export async function writeIndexFile(
  directory: string,
  path: string,
  chunks: string | Iterable<Uint8Array>,
  maxBytes: number,
): Promise<void> {
  await ensurePrivateDirectory(directory);
  await writeFileAtomically(path, chunks);
  await pruneCache(directory, path, maxBytes);
}

/** Removes the index file at `path` if it is larger than `maxBytes`. */
export async function removeIndexOver(path: string, maxBytes: number): Promise<void> {
  const size = (await stat(path).catch(() => undefined))?.size;
  if (size !== undefined && size > maxBytes) await rm(path, { force: true });
}

async function pruneCache(directory: string, kept: string, maxBytes: number): Promise<void> {
  const now = Date.now();
  const entries = await Promise.all(
    (await readdir(directory)).map(async (name) => {
      const path = join(directory, name);
      const stats = await stat(path).catch(() => undefined);
      return stats?.isFile() ? { name, path, size: stats.size, used: stats.mtimeMs } : undefined;
    }),
  );
  const indexes = [];
  for (const entry of entries) {
    if (!entry) continue;
    if (entry.name.endsWith(EXTENSION) || entry.name.endsWith(HISTORY_EXTENSION))
      indexes.push(entry);
    else if (entry.name.endsWith('.tmp') && now - entry.used > STALE_TEMPORARY_MS)
      await rm(entry.path, { force: true });
  }
  let total = indexes.reduce((sum, entry) => sum + entry.size, 0);
  for (const entry of indexes.sort((left, right) => left.used - right.used)) {
    if (total <= maxBytes) break;
    if (entry.path === kept) continue;
    await rm(entry.path, { force: true });
    total -= entry.size;
  }
}

/**
 * Takes the lock of an index's build: the release function, or undefined when another build
 * holds it. A lock left by a build that died is taken over once it is stale.
 */
export async function lockIndexBuild(
  directory: string,
  path: string,
): Promise<(() => Promise<void>) | undefined> {
  await ensurePrivateDirectory(directory);
  const lock = `${path}.lock`;
  // What the lock holds names its build: a file made after this one's was removed may take its
  // inode number.
  const token = randomUUID();
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await writeFile(lock, token, { flag: 'wx', mode: 0o600 });
      // Removed only while it is still this build's: a build that outlived its lock's staleness
      // must not remove the lock of the one that took it over.
      return async () => {
        if ((await readFile(lock, 'utf8').catch(() => undefined)) === token)
          await rm(lock, { force: true });
      };
    } catch (error) {
      if (errorCode(error) !== 'EEXIST') throw error;
      const found = await stat(lock).catch(() => undefined);
      if (found && !isStale(found.mtimeMs)) return undefined;
      // Of the builds that found it stale, one takes it away; a fresh one is put back.
      if (found && (await removeIfAbandoned(lock, isStaleFile)) !== 'removed') return undefined;
    }
  }
  return undefined;
}

const isStale = (modifiedMs: number) => Date.now() - modifiedMs >= STALE_LOCK_MS;
const isStaleFile = async (path: string) => {
  const found = await stat(path).catch(() => undefined);
  return found !== undefined && isStale(found.mtimeMs);
};

/** The first `length` bytes of `root`'s index file in `directory`, or undefined when it has none. */
export async function readIndexHead(
  directory: string,
  root: string,
  length: number,
): Promise<Buffer | undefined> {
  let handle;
  try {
    handle = await open(indexFileOf(directory, root), OPEN_FLAGS);
  } catch {
    return undefined;
  }
  try {
    const head = Buffer.alloc(length);
    const { bytesRead } = await handle.read(head, 0, length, 0);
    return head.subarray(0, bytesRead);
  } catch {
    return undefined;
  } finally {
    await handle.close();
  }
}
