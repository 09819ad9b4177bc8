import {
  closeSync,
  constants,
  fstatSync,
  openSync,
  readSync,
  type Dirent,
  type Stats,
} from 'node:fs';
import { lstat, open, readdir } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { SearchError } from '../errors.js';
import {
  DIRECTORY,
  MIN_PATHS_PER_WORKER,
  NUMBERS_PER_PATH,
  REGULAR_FILE,
  statManyPaths,
  type PathStats,
} from './stat-many-paths.js';

/** The searched tree: listing it, and reading its files within their bounds. */

export interface ListedFile {
  /** POSIX path relative to the root. */
  path: string;
  size: number;
  /** Which file the listing saw, for `readFileWithin` to check that it opens the same one. */
  identity: FileIdentity | undefined;
  /** Last modification time in milliseconds, when the listing saw it: a stored index's key. */
  modifiedMs?: number | undefined;
  /** Last change of its inode (content, or metadata), in milliseconds: no tool sets it back. */
  changedMs?: number | undefined;
}

/** A file's device and inode: the same numbers mean the same file, however it was reached. */
export interface FileIdentity {
  device: number;
  inode: number;
}

/** An entry of a directory the walk reads. */
export interface DirectoryEntry {
  name: string;
  isDirectory: boolean;
}

/**
 * Which entries of a directory (relative to the root, '' for the root) the walk keeps: it never
 * enters a directory left out, nor lists a file left out.
 */
export type EntryFilter = (
  directory: string,
  entries: readonly DirectoryEntry[],
) => Promise<ReadonlySet<string>>;

type ReaddirCallback = (error: NodeJS.ErrnoException | null, entries?: unknown[]) => void;

/**
 * The entries whose names reach them: a name that is not UTF-8 is read with U+FFFD in place of
 * its bytes, and no file has that name. fast-glob, stating it, would drop the whole directory.
 */
async function withReachableNames(directory: string, dirents: Dirent[]): Promise<Dirent[]> {
  if (!dirents.some((dirent) => dirent.name.includes('\uFFFD'))) return dirents;
  const reachable = await Promise.all(
    dirents.map(
      async (dirent) =>
        !dirent.name.includes('\uFFFD') ||
        (await lstat(join(directory, dirent.name)).then(
          () => true,
          () => false,
        )),
    ),
  );
  return dirents.filter((_, index) => reachable[index]);
}

/** fast-glob's `readdir`, with `keep` deciding what each directory holds. */
function filteredReaddir(root: string, keep: EntryFilter) {
  return (path: string, ...rest: unknown[]) => {
    const callback = rest.at(-1) as ReaddirCallback;
    const withFileTypes = (rest[0] as { withFileTypes?: boolean } | undefined)?.withFileTypes;
    readdir(path, { withFileTypes: true })
      .then((dirents) => withReachableNames(path, dirents))
      .then(async (dirents) => {
        const directory = relative(root, path).split(sep).join('/');
        const kept = await keep(
          directory,
          dirents.map((dirent) => ({ name: dirent.name, isDirectory: dirent.isDirectory() })),
        );
        const entries = dirents.filter((dirent) => kept.has(dirent.name));
        callback(null, withFileTypes === true ? entries : entries.map((dirent) => dirent.name));
      })
      .catch((error: NodeJS.ErrnoException) => callback(error));
  };
}

export async function listFiles(root: string, keep?: EntryFilter): Promise<ListedFile[]> {
  try {
    // Loaded here, not at the top: only a search lists a tree, and the CLI's quick answers never do.
    const { default: fastGlob } = await import('fast-glob');
    const entries = await fastGlob('**/*', {
      cwd: root,
      dot: true,
      onlyFiles: true,
      followSymbolicLinks: false,
      stats: true,
      suppressErrors: true,
      ...(keep && { fs: { readdir: filteredReaddir(root, keep) as never } }),
    });
    return entries.map((entry) => ({
      path: entry.path,
      size: entry.stats?.size ?? 0,
      identity: entry.stats && { device: entry.stats.dev, inode: entry.stats.ino },
      modifiedMs: entry.stats?.mtimeMs,
      changedMs: entry.stats?.ctimeMs,
    }));
  } catch (error) {
    throw new SearchError(`could not list files under \`${root}\``, { cause: error, path: root });
  }
}

/**
 * The entries of `directory` under `root` ('' for the root), or undefined when it cannot be read.
 * A link is neither a file nor a directory here: the walk never follows one.
 */
export async function readDirectory(
  root: string,
  directory: string,
): Promise<DirectoryEntry[] | undefined> {
  try {
    const dirents = await readdir(directory ? join(root, directory) : root, {
      withFileTypes: true,
    });
    return dirents.map((dirent) => ({ name: dirent.name, isDirectory: dirent.isDirectory() }));
  } catch {
    return undefined;
  }
}

/** What `statPaths` found: the regular files among the paths, and the directories. */
export interface StatedPaths {
  files: ListedFile[];
  directories: string[];
}

const STAT_CONCURRENCY = 64;

/**
 * The paths under `root` (from a listing such as git's) that are regular files, with their sizes,
 * and those that are directories. Links are neither: the walk never follows them either. A path
 * gone since it was listed is left out.
 */
export async function statPaths(
  root: string,
  paths: readonly string[],
  signal?: AbortSignal,
): Promise<StatedPaths> {
  // Below one worker's share, starting a worker costs more than it saves (a 1k-file run was slower).
  if (paths.length >= MIN_PATHS_PER_WORKER) {
    const stated = await statManyPaths(root, paths, signal).catch((error: unknown) => {
      if (signal?.aborted) throw error;
      // No worker on this platform, or it failed: stated here instead.
      return undefined;
    });
    if (stated) return statedPaths(paths, stated);
  }
  const files: ListedFile[] = [];
  const directories: string[] = [];
  let next = 0;
  // A few workers over one queue: no promise per path, the order of the listing kept per worker.
  const worker = async () => {
    while (next < paths.length) {
      const path = paths[next++] as string;
      const stats = await lstat(join(root, path)).catch(() => undefined);
      if (stats?.isFile())
        files.push({
          path,
          size: stats.size,
          identity: { device: stats.dev, inode: stats.ino },
          modifiedMs: stats.mtimeMs,
          changedMs: stats.ctimeMs,
        });
      else if (stats?.isDirectory()) directories.push(path);
    }
  };
  await Promise.all(Array.from({ length: Math.min(STAT_CONCURRENCY, paths.length) }, worker));
  return { files, directories };
}

function statedPaths(paths: readonly string[], { kinds, numbers }: PathStats): StatedPaths {
  const files: ListedFile[] = [];
  const directories: string[] = [];
  paths.forEach((path, index) => {
    if (kinds[index] === DIRECTORY) directories.push(path);
    if (kinds[index] !== REGULAR_FILE) return;
    // Read by index, not destructured from a view: this runs for every listed path.
    const at = index * NUMBERS_PER_PATH;
    files.push({
      path,
      size: numbers[at] ?? 0,
      identity: { device: numbers[at + 1] ?? 0, inode: numbers[at + 2] ?? 0 },
      modifiedMs: numbers[at + 3],
      changedMs: numbers[at + 4],
    });
  });
  return { files, directories };
}

/** True when `root` is the top directory of a git work tree: it holds `.git` (a directory or a file). */
export async function isWorkTreeRoot(root: string): Promise<boolean> {
  return lstat(join(root, '.git')).then(
    (stats) => stats.isDirectory() || stats.isFile(),
    () => false,
  );
}

/** What reading a file of the searched tree gave: its bytes, or why there are none. */
export type FileBytes = { bytes: Buffer } | { skipped: 'too-large' | 'unreadable' };

const CHUNK_BYTES = 64 * 1024;
// Not blocking on a FIFO swapped in after the listing, and never following a link at the end.
export const OPEN_FLAGS =
  constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0);

/** What was opened is a regular file, and the one the listing saw when it says which. */
const isTheListedFile = (opened: Stats, listed: FileIdentity | undefined) =>
  opened.isFile() && (!listed || (opened.dev === listed.device && opened.ino === listed.inode));

/**
 * At most `maxBytes` of a regular file under `root`, whatever its size claims to be: files of
 * `/proc` say 0 and never end, so the size is never trusted. What is not a regular file once
 * opened (a device, a pipe, a socket, a link) or cannot be read is `unreadable`, and so is a
 * file other than the `listed` one: the listing never follows links, but a directory on the way
 * may have been swapped for a link out of the root since.
 */
export async function readFileWithin(
  root: string,
  path: string,
  maxBytes: number,
  listed?: FileIdentity,
): Promise<FileBytes> {
  let handle;
  try {
    handle = await open(join(root, path), OPEN_FLAGS);
  } catch {
    return { skipped: 'unreadable' };
  }
  try {
    if (!isTheListedFile(await handle.stat(), listed)) return { skipped: 'unreadable' };
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, maxBytes + 1 - total));
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, null);
      if (bytesRead === 0) break;
      chunks.push(chunk.subarray(0, bytesRead));
      total += bytesRead;
      if (total > maxBytes) return { skipped: 'too-large' };
    }
    return { bytes: Buffer.concat(chunks, total) };
  } catch {
    return { skipped: 'unreadable' };
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/** The bytes of a file under `root` within `maxBytes`, or undefined when there are none to read. */
export async function readBytes(
  root: string,
  path: string,
  maxBytes: number,
): Promise<Buffer | undefined> {
  const read = await readFileWithin(root, path, maxBytes);
  return 'bytes' in read ? read.bytes : undefined;
}

/**
 * `readFileWithin`, synchronously: in a worker that reads many files, or for a file whose
 * analysis came from a stored index, read only when a search or an excerpt needs its text.
 */
export function readFileWithinSync(
  root: string,
  path: string,
  maxBytes: number,
  listed?: FileIdentity,
): FileBytes {
  let descriptor: number | undefined;
  try {
    descriptor = openSync(join(root, path), OPEN_FLAGS);
    const stats = fstatSync(descriptor);
    if (!isTheListedFile(stats, listed)) return { skipped: 'unreadable' };
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      // Sized by what the file claims, plus one byte to see that it ends: most files are read
      // in one call. The claim is a hint only, as above: past it, whole chunks.
      const claimed = stats.size + 1 - total;
      const wanted = Math.min(claimed > 0 ? claimed : CHUNK_BYTES, CHUNK_BYTES);
      const chunk = Buffer.allocUnsafe(Math.min(wanted, maxBytes + 1 - total));
      const bytesRead = readSync(descriptor, chunk, 0, chunk.length, null);
      if (bytesRead === 0) break;
      chunks.push(chunk.subarray(0, bytesRead));
      total += bytesRead;
      if (total > maxBytes) return { skipped: 'too-large' };
    }
    const [only] = chunks;
    return { bytes: chunks.length === 1 && only ? only : Buffer.concat(chunks, total) };
  } catch {
    return { skipped: 'unreadable' };
  } finally {
    if (descriptor !== undefined) closeSync(descriptor);
  }
}

/**
 * A file under `root` read into `into`, as `readFileWithinSync` reads it but into memory given:
 * how many bytes, or undefined when it cannot be read as listed or fills `into` (past its bound).
 */
export function readIntoWithin(
  root: string,
  path: string,
  into: Uint8Array,
  listed?: FileIdentity,
): number | undefined {
  let descriptor: number | undefined;
  try {
    descriptor = openSync(join(root, path), OPEN_FLAGS);
    if (!isTheListedFile(fstatSync(descriptor), listed)) return undefined;
    let total = 0;
    for (;;) {
      const bytesRead = readSync(descriptor, into, total, into.length - total, null);
      if (bytesRead === 0) return total;
      total += bytesRead;
      if (total === into.length) return undefined;
    }
  } catch {
    return undefined;
  } finally {
    if (descriptor !== undefined) closeSync(descriptor);
  }
}

/**
 * A listed file's text read again, as its bytes decode: '' where it is gone, is another file now,
 * or grew past `maxBytes`.
 */
export function readTextAgain(
  root: string,
  path: string,
  maxBytes: number,
  listed?: FileIdentity,
): string {
  return readBytesSync(root, path, maxBytes, listed)?.toString('utf8') ?? '';
}

/** The bytes `readFileWithinSync` reads, or undefined when there are none within the bounds. */
export function readBytesSync(
  root: string,
  path: string,
  maxBytes: number,
  listed?: FileIdentity,
): Buffer | undefined {
  const read = readFileWithinSync(root, path, maxBytes, listed);
  return 'bytes' in read ? read.bytes : undefined;
}
