/**
 * Paths as a task writes them, on the reporter's machine: what they say about this repository
 * before they are matched against its files.
 */

const INSTALLED = 'node_modules/';

/** Dependencies, the runtime and system libraries: not this repository's code. */
export function isLibraryPath(path: string): boolean {
  return /node_modules|site-packages|dist-packages|^node:|^internal\/|\/lib\/python|^\/usr\//.test(
    path,
  );
}

/**
 * The part of a path inside an installed package, from the package's name on (`fetchy/lib/utils.js`
 * of `C:\app\node_modules\fetchy\lib\utils.js`; the innermost of nested packages), or undefined
 * outside `node_modules`.
 */
export function insideNodeModules(path: string): string | undefined {
  const slashed = path.replaceAll('\\', '/');
  const inside = slashed.lastIndexOf(INSTALLED);
  return inside < 0 ? undefined : slashed.slice(inside + INSTALLED.length);
}
