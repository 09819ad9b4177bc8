import { isAbsolute, relative, resolve, sep } from 'node:path';
import { ConfigError } from '../errors.js';
import { realDirectory } from '../file-system/roots.js';

/**
 * The directories an MCP client may search. Every path is compared after resolving symbolic
 * links, so a link inside an allowed root that points elsewhere does not widen the boundary.
 */

function contains(directory: string, path: string): boolean {
  const inner = relative(directory, path);
  return inner === '' || (!isAbsolute(inner) && inner.split(sep)[0] !== '..');
}

/** The allowed roots as real directories, relative ones resolved against the working directory. */
export async function resolveAllowedRoots(roots: readonly string[]): Promise<string[]> {
  return Promise.all(roots.map((root) => realDirectory(resolve(root), root)));
}

/**
 * The real directory a call may search: `requested` resolved against the first allowed root (that
 * root itself when nothing is requested). A ConfigError naming the allowed roots refuses a
 * directory outside all of them.
 */
export async function confineRoot(
  requested: string | undefined,
  allowedRoots: readonly string[],
): Promise<string> {
  const [first] = allowedRoots;
  if (first === undefined) throw new ConfigError('no allowed roots configured', { option: 'root' });
  if (requested === undefined) return first;
  const outside = new ConfigError(
    `root \`${requested}\` is outside the allowed roots (${allowedRoots.join(', ')}); search inside them, or start the server with \`--root\` set to a directory that contains it`,
    { option: 'root' },
  );
  const target = resolve(first, requested);
  let real: string;
  try {
    real = await realDirectory(target, requested);
  } catch (error) {
    // Outside the roots, whether a path exists is none of the client's business.
    if (!allowedRoots.some((root) => contains(root, target))) throw outside;
    throw error;
  }
  if (allowedRoots.some((root) => contains(root, real))) return real;
  throw outside;
}
