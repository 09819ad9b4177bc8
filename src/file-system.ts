import { randomUUID } from 'node:crypto';
import { constants, createReadStream } from 'node:fs';
import {
  access,
  lstat,
  mkdir,
  open,
  readdir,
  readFile,
  realpath,
  rename,
  rm,
  rmdir,
  stat,
  writeFile,
} from 'node:fs/promises';
import { createRequire } from 'node:module';
import { userInfo } from 'node:os';
import { dirname, join, parse, relative, sep } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { ConfigError, SearchError } from './errors.js';

/** The library's only access to the file system. */

export interface ListedFile {
  /** POSIX path relative to the root. */
  path: string;
  size: number;
  /** Which file the listing saw, for `readFileWithin` to check that it opens the same one. */
  identity: FileIdentity | undefined;
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

/** fast-glob's `readdir`, with `keep` deciding what each directory holds. */
function filteredReaddir(root: string, keep: EntryFilter) {
  return (path: string, ...rest: unknown[]) => {
    const callback = rest.at(-1) as ReaddirCallback;
    const withFileTypes = (rest[0] as { withFileTypes?: boolean } | undefined)?.withFileTypes;
    readdir(path, { withFileTypes: true })
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

export async function listFiles(
  root: string,
  ignore: readonly string[],
  keep?: EntryFilter,
): Promise<ListedFile[]> {
  try {
    // Loaded here, not at the top: only a search lists a tree, and the CLI's quick answers never do.
    const { default: fastGlob } = await import('fast-glob');
    const entries = await fastGlob('**/*', {
      cwd: root,
      dot: true,
      onlyFiles: true,
      followSymbolicLinks: false,
      ignore: [...ignore],
      stats: true,
      suppressErrors: true,
      ...(keep && { fs: { readdir: filteredReaddir(root, keep) as never } }),
    });
    return entries.map((entry) => ({
      path: entry.path,
      size: entry.stats?.size ?? 0,
      identity: entry.stats && { device: entry.stats.dev, inode: entry.stats.ino },
    }));
  } catch (error) {
    throw new SearchError(`could not list files under \`${root}\``, { cause: error, path: root });
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
export async function statPaths(root: string, paths: readonly string[]): Promise<StatedPaths> {
  const files: ListedFile[] = [];
  const directories: string[] = [];
  let next = 0;
  // A few workers over one queue: no promise per path, the order of the listing kept per worker.
  const worker = async () => {
    while (next < paths.length) {
      const path = paths[next++] as string;
      const stats = await lstat(join(root, path)).catch(() => undefined);
      if (stats?.isFile())
        files.push({ path, size: stats.size, identity: { device: stats.dev, inode: stats.ino } });
      else if (stats?.isDirectory()) directories.push(path);
    }
  };
  await Promise.all(Array.from({ length: Math.min(STAT_CONCURRENCY, paths.length) }, worker));
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
    const opened = await handle.stat();
    if (!opened.isFile()) return { skipped: 'unreadable' };
    if (listed && (opened.dev !== listed.device || opened.ino !== listed.inode))
      return { skipped: 'unreadable' };
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
 * The text of a stream, refused past `maxBytes` (a ConfigError naming `what`): standard input
 * or a task file may be `/dev/zero`, and must not fill the memory before anything is checked.
 */
export async function readStreamText(
  stream: NodeJS.ReadableStream,
  maxBytes: number,
  what: string,
): Promise<string> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stream) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    total += bytes.length;
    if (total > maxBytes) {
      (stream as NodeJS.ReadableStream & { destroy?: () => void }).destroy?.();
      throw new ConfigError(
        `${what} is longer than ${maxBytes.toLocaleString('en-US')} bytes: give the task, not a whole log`,
        { option: 'task' },
      );
    }
    chunks.push(bytes);
  }
  return Buffer.concat(chunks, total).toString('utf8');
}

/** Text of a task file, within `maxBytes`; errors name the path. */
export async function readTaskFile(path: string, maxBytes: number): Promise<string> {
  try {
    return await readStreamText(createReadStream(path), maxBytes, `the task file \`${path}\``);
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    throw new SearchError(`cannot read \`${path}\``, { cause: error, path });
  }
}

/** Where the plugin bundle keeps the grammars it ships, brotli-compressed, beside its `cli/`. */
const BUNDLED_FILES = new URL('../grammars/', import.meta.url);

/**
 * A file that a dependency ships (a grammar's WebAssembly), or undefined when it is not installed:
 * from the plugin bundle's own copy (`<file>.br`), else from the package in `node_modules`.
 * Read by path, not through the package's `exports`, which may not list the file.
 */
export async function readPackagedFile(
  packageName: string,
  file: string,
): Promise<Uint8Array | undefined> {
  const bundled = await readFile(new URL(`${file}.br`, BUNDLED_FILES)).catch(() => undefined);
  if (bundled) return brotliDecompressSync(bundled);
  for (const directory of createRequire(import.meta.url).resolve.paths(packageName) ?? []) {
    const bytes = await readFile(join(directory, packageName, file)).catch(() => undefined);
    if (bytes) return bytes;
  }
  return undefined;
}

/** Text of a file outside the searched tree (a prompt); errors name the path. */
export async function readTextFile(path: string | URL): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    const shown = typeof path === 'string' ? path : decodeURIComponent(path.pathname);
    throw new SearchError(`cannot read \`${shown}\``, { cause: error, path: shown });
  }
}

/*
 * Small private files outside the searched tree: the Claude Code hook keeps the context it found
 * for each session here until a starting subagent claims it.
 */

const errorCode = (error: unknown): string | undefined =>
  error instanceof Error && 'code' in error ? String(error.code) : undefined;

/** This user's id, or -1 where there is none (Windows, or a container user without an entry). */
function currentUserId(): number {
  try {
    return userInfo().uid;
  } catch {
    return -1;
  }
}

/**
 * Creates `path` (and its parents) if needed and checks that only this user can use it: another
 * user's directory, a symbolic link or open permissions would let others read or plant context.
 */
export async function ensurePrivateDirectory(path: string): Promise<void> {
  let stats;
  try {
    await mkdir(path, { recursive: true, mode: 0o700 });
    stats = await lstat(path);
  } catch (error) {
    throw new SearchError(`cannot create \`${path}\``, { cause: error, path });
  }
  const owner = currentUserId();
  // Without a user id (Windows) there are no owner or permission bits worth checking.
  const foreign =
    owner >= 0 && (stats.uid !== owner || (stats.mode & 0o077) !== 0 || stats.isSymbolicLink());
  if (!stats.isDirectory() || foreign)
    throw new SearchError(
      `\`${path}\` is not a private directory of this user (expected mode 700, owned by uid ${owner})`,
      { path },
    );
}

/** Names in a directory, or none when it does not exist. */
export async function listDirectory(path: string): Promise<string[]> {
  try {
    return await readdir(path);
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return [];
    throw new SearchError(`cannot list \`${path}\``, { cause: error, path });
  }
}

/** Writes a private file so that readers see either nothing or the whole text, never a part. */
export async function writeFileAtomically(path: string, text: string): Promise<void> {
  const temporary = `${path}.${randomUUID()}.tmp`;
  try {
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    await writeFile(temporary, text, { mode: 0o600, flag: 'wx' });
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw new SearchError(`cannot write \`${path}\``, { cause: error, path });
  }
}

/**
 * Renames `from` to `to`; false when `from` is gone. Of several processes renaming the same file
 * at once exactly one succeeds, which makes this a claim.
 */
export async function renameIfPresent(from: string, to: string): Promise<boolean> {
  try {
    await rename(from, to);
    return true;
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return false;
    throw new SearchError(`cannot rename \`${from}\``, { cause: error, path: from });
  }
}

/** Text of a file, or undefined when it does not exist. */
export async function readTextFileIfPresent(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return undefined;
    throw new SearchError(`cannot read \`${path}\``, { cause: error, path });
  }
}

/** When a file or directory last changed (milliseconds since the epoch), or undefined if gone. */
export async function modifiedAt(path: string): Promise<number | undefined> {
  try {
    return (await lstat(path)).mtimeMs;
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return undefined;
    throw new SearchError(`cannot read \`${path}\``, { cause: error, path });
  }
}

/** Removes a file; one that is already gone is fine. */
export async function removeFile(path: string): Promise<void> {
  await rm(path, { force: true });
}

/** Removes a directory if it is empty; a full or missing one is left as it is. */
export async function removeDirectoryIfEmpty(path: string): Promise<void> {
  try {
    await rmdir(path);
  } catch (error) {
    const code = errorCode(error);
    if (code === 'ENOENT' || code === 'ENOTEMPTY' || code === 'EEXIST') return;
    throw new SearchError(`cannot remove \`${path}\``, { cause: error, path });
  }
}

/**
 * Directories that are not a repository, whatever they hold: the file system's root, and the
 * kernel's pseudo file systems, whose files never end and whose trees never stop.
 */
const SYSTEM_DIRECTORIES = ['/proc', '/sys', '/dev'];

/** The real path of an existing directory; a SearchError names the path as the caller gave it. */
export async function realDirectory(path: string, shown: string): Promise<string> {
  let real: string;
  try {
    real = await realpath(path);
  } catch (error) {
    if (errorCode(error) === 'EACCES') throw unreadableRoot(shown, error);
    throw new SearchError(`root \`${shown}\` does not exist`, { cause: error, path: shown });
  }
  if (!(await stat(real)).isDirectory())
    throw new SearchError(`root \`${shown}\` is not a directory`, { path: shown });
  return real;
}

/**
 * Checks that `root` is a directory this run can search: it exists and can be read (else a
 * SearchError naming it), and it is not the file system's root nor `/proc`, `/sys` or `/dev`
 * (a ConfigError). Checked when a search starts, not when an MCP server is given its roots, so
 * that a server started in `/` still answers each call, with this error when it names no project.
 */
export async function assertSearchableRoot(root: string): Promise<void> {
  const real = await realDirectory(root, root);
  const system = SYSTEM_DIRECTORIES.find(
    (directory) => real === directory || real.startsWith(`${directory}/`),
  );
  if (parse(real).root === real || system !== undefined)
    throw new ConfigError(
      `root \`${root}\` is ${system ? `a system directory (${system}), not a repository` : 'the whole file system'}: pass a project directory with --root (or run from one)`,
      { option: 'root' },
    );
  try {
    await access(real, constants.R_OK | constants.X_OK);
  } catch (error) {
    throw unreadableRoot(root, error);
  }
}

const unreadableRoot = (shown: string, cause: unknown) =>
  new SearchError(`root \`${shown}\` cannot be read (permission denied)`, { cause, path: shown });
