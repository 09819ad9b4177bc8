import { randomBytes, randomUUID } from 'node:crypto';
import {
  access,
  link,
  lstat,
  mkdir,
  open,
  readdir,
  readFile,
  rename,
  rm,
  rmdir,
  writeFile,
} from 'node:fs/promises';
import { constants } from 'node:fs';
import { userInfo } from 'node:os';
import { dirname, join } from 'node:path';
import { SearchError } from '../errors.js';
import { errorCode } from './error-code.js';

/*
 * Small private files outside the searched tree: the Claude Code hook keeps the context it found
 * for each session here until a starting subagent claims it.
 */

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

/**
 * Why `path` is not (and cannot be made) a private directory of this user that files can be
 * written in; undefined when it is one.
 */
export async function privateDirectoryProblem(path: string): Promise<string | undefined> {
  try {
    await ensurePrivateDirectory(path);
    await access(path, constants.W_OK);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
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

/**
 * Writes a private file so that readers see either nothing or the whole text, never a part. The
 * content may come as chunks, written one after another: a large file is never held whole.
 */
export async function writeFileAtomically(
  path: string,
  content: string | Uint8Array | Iterable<Uint8Array>,
): Promise<void> {
  const temporary = `${path}.${randomUUID()}.tmp`;
  try {
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    if (typeof content === 'string' || content instanceof Uint8Array)
      await writeFile(temporary, content, { mode: 0o600, flag: 'wx' });
    else await writeChunks(temporary, content);
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw new SearchError(`cannot write \`${path}\``, { cause: error, path });
  }
}

async function writeChunks(path: string, chunks: Iterable<Uint8Array>): Promise<void> {
  const handle = await open(path, 'wx', 0o600);
  try {
    for (const chunk of chunks)
      for (let written = 0; written < chunk.length;)
        written += (await handle.write(chunk, written, chunk.length - written)).bytesWritten;
  } finally {
    await handle.close();
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

/** A path's inode number, or undefined when nothing is there: tells a file from its replacement. */
export async function inodeOf(path: string): Promise<number | undefined> {
  try {
    return (await lstat(path)).ino;
  } catch {
    return undefined;
  }
}

/** Removes a file; one that is already gone is fine. */
export async function removeFile(path: string): Promise<void> {
  await rm(path, { force: true });
}

/** Links `existing` at `path`; an `EEXIST` error where a file is already there. */
export async function linkFile(existing: string, path: string): Promise<void> {
  await link(existing, path);
}

/** Moves `path` to `to`: whether it was there to move. */
export async function moveFile(path: string, to: string): Promise<boolean> {
  return rename(path, to).then(
    () => true,
    () => false,
  );
}

/**
 * A short name of its own beside `path`, ending in `.tmp` (which the cache's trim removes): short,
 * because a socket is reached by a path of at most about a hundred bytes.
 */
export const temporaryNameBeside = (path: string) =>
  join(dirname(path), `${randomBytes(6).toString('hex')}.tmp`);

/**
 * Removes the file at `path` where `abandoned` says it is (a stale lock, a dead process's socket),
 * renaming it away first: of the processes that find it abandoned, one rename wins, and a file
 * another put there in between, which is not abandoned, is linked back. `missing` where there was
 * none to take.
 */
export async function removeIfAbandoned(
  path: string,
  abandoned: (movedTo: string) => Promise<boolean>,
): Promise<'missing' | 'removed' | 'kept'> {
  const away = temporaryNameBeside(path);
  if (!(await moveFile(path, away))) return 'missing';
  const removed = await abandoned(away);
  if (!removed) await linkFile(away, path).catch(() => undefined);
  await rm(away, { force: true });
  return removed ? 'removed' : 'kept';
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
