import type { ContextPack } from './context-pack.js';
import { quotePathLikeGit } from '../text/quote-path.js';

export interface PathsOptions {
  /**
   * Ends each path with a NUL byte and writes it raw, for `xargs -0` (as `git ls-files -z`
   * does). Default false: one path per line, a name with a line break or quote quoted.
   */
  nullSeparated?: boolean | undefined;
  /** The related files' paths follow the core ones. Default false: the core only. */
  related?: boolean | undefined;
}

/**
 * The core files' paths in the pack's order (then the related ones', if asked), one per line,
 * quoted as `git ls-files` quotes a name that would not survive a line (`"a\nb.ts"`); empty when
 * nothing was selected.
 */
export function formatPaths(pack: ContextPack, options: PathsOptions = {}): string {
  const paths = [
    ...pack.files.map((file) => file.path),
    ...(options.related ? pack.related.map((file) => file.path) : []),
  ];
  if (options.nullSeparated) return paths.map((path) => `${path}\0`).join('');
  return paths.map((path) => `${quotePathLikeGit(path)}\n`).join('');
}
