import fastGlob from 'fast-glob';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { SearchError } from './errors.js';

/** The library's only access to the file system. */

export interface ListedFile {
  /** POSIX path relative to the root. */
  path: string;
  size: number;
}

export async function assertDirectory(root: string): Promise<void> {
  let stats;
  try {
    stats = await stat(root);
  } catch (error) {
    throw new SearchError(`root \`${root}\` does not exist`, { cause: error, path: root });
  }
  if (!stats.isDirectory())
    throw new SearchError(`root \`${root}\` is not a directory`, { path: root });
}

export async function listFiles(root: string, ignore: readonly string[]): Promise<ListedFile[]> {
  try {
    const entries = await fastGlob('**/*', {
      cwd: root,
      dot: true,
      onlyFiles: true,
      followSymbolicLinks: false,
      ignore: [...ignore],
      stats: true,
      suppressErrors: true,
    });
    return entries
      .map((entry) => ({ path: entry.path, size: entry.stats?.size ?? 0 }))
      .sort((left, right) => (left.path < right.path ? -1 : left.path > right.path ? 1 : 0));
  } catch (error) {
    throw new SearchError(`could not list files under \`${root}\``, { cause: error, path: root });
  }
}

/** The bytes of a file, or undefined when it vanished or cannot be read. */
export async function readBytes(root: string, path: string): Promise<Buffer | undefined> {
  try {
    return await readFile(join(root, path));
  } catch {
    return undefined;
  }
}

/** Text of a file outside the searched tree (a task file, a prompt); errors name the path. */
export async function readTextFile(path: string | URL): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    const shown = typeof path === 'string' ? path : decodeURIComponent(path.pathname);
    throw new SearchError(`cannot read \`${shown}\``, { cause: error, path: shown });
  }
}
