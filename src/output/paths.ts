import type { ContextPack } from './context-pack.js';
import { quotePathLikeGit } from '../text/quote-path.js';

export interface PathsOptions {
  /**
   * Ends each path with a NUL byte and writes it raw, for `xargs -0` (as `git ls-files -z`
   * does). Default false: one path per line, a name with a line break or quote quoted.
   */
  nullSeparated?: boolean | undefined;
}

/**
 * The selected files' paths in the pack's order, one per line, quoted as `git ls-files` quotes
 * a name that would not survive a line (`"a\nb.ts"`); empty when nothing was selected.
 */
export function formatPaths(pack: ContextPack, options: PathsOptions = {}): string {
  if (options.nullSeparated) return pack.files.map((file) => `${file.path}\0`).join('');
  return pack.files.map((file) => `${quotePathLikeGit(file.path)}\n`).join('');
}
