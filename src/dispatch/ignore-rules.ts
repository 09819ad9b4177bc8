import ignore, { type Ignore } from 'ignore';
import { posix } from 'node:path';

/** One ignore file: the directory it governs (relative to the root, '' for the root) and its text. */
export interface IgnoreFile {
  directory: string;
  content: string;
}

/**
 * Git's ignore semantics over a listing: each `.gitignore` governs its own directory and below, a
 * deeper file overrides a shallower one (negations included), `.git/info/exclude` acts at the root,
 * and nothing inside an ignored directory can be re-included.
 */
export function createIgnoreMatcher(files: readonly IgnoreFile[]): (path: string) => boolean {
  const rules = new Map<string, Ignore>();
  for (const file of files) {
    const existing = rules.get(file.directory) ?? ignore();
    rules.set(file.directory, existing.add(file.content));
  }
  const directoryVerdicts = new Map<string, boolean>();

  // The verdict of the rules alone for one path (a directory path ends with '/').
  function verdict(path: string, isDirectory: boolean): boolean {
    let ignored = false;
    const parts = path.split('/');
    for (let depth = 0; depth < parts.length; depth++) {
      const directory = parts.slice(0, depth).join('/');
      const rule = rules.get(directory);
      if (!rule) continue;
      const relative = parts.slice(depth).join('/') + (isDirectory ? '/' : '');
      const result = rule.test(relative);
      if (result.ignored) ignored = true;
      else if (result.unignored) ignored = false;
    }
    return ignored;
  }

  function isDirectoryIgnored(directory: string): boolean {
    if (directory === '' || directory === '.') return false;
    const cached = directoryVerdicts.get(directory);
    if (cached !== undefined) return cached;
    const result = isDirectoryIgnored(posix.dirname(directory)) || verdict(directory, true);
    directoryVerdicts.set(directory, result);
    return result;
  }

  return (path) => isDirectoryIgnored(posix.dirname(path)) || verdict(path, false);
}
