import { constants } from 'node:fs';
import { access, realpath, stat } from 'node:fs/promises';
import { parse } from 'node:path';
import { ConfigError, SearchError } from '../errors.js';
import { errorCode } from './error-code.js';

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
