import ignore, { type Ignore } from 'ignore';
import { posix } from 'node:path';

/** One ignore file: the directory it governs (relative to the root, '' for the root) and its text. */
export interface IgnoreFile {
  directory: string;
  content: string;
}

interface TestResult {
  ignored: boolean;
  unignored: boolean;
}

interface RuleManager {
  test(path: string, mode: string): TestResult;
}

/**
 * One level's verdict on a path alone. `ignore`'s public `test` checks the path's parents first,
 * so a directory excluded at this level would hide its re-inclusion by a deeper `.gitignore`.
 * Parents are settled by the caller, level by level, so this asks `ignore`'s rule manager, which
 * judges the path alone (it is what `test` calls); the public `test` is the fallback.
 */
function testAlone(rules: Ignore, path: string): TestResult {
  const manager = (rules as unknown as { _rules?: Partial<RuleManager> })._rules;
  return typeof manager?.test === 'function' ? manager.test(path, 'regex') : rules.test(path);
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

  // The verdict of the rules alone for one path (a directory path ends with '/'). Each level's
  // directory and what it governs are slices of the path: one pass over it, not one per level.
  function verdict(path: string, isDirectory: boolean): boolean {
    let ignored = false;
    const suffix = isDirectory ? '/' : '';
    for (let start = 0; ; ) {
      const rule = rules.get(start === 0 ? '' : path.slice(0, start - 1));
      if (rule) {
        const result = testAlone(rule, path.slice(start) + suffix);
        if (result.ignored) ignored = true;
        else if (result.unignored) ignored = false;
      }
      const slash = path.indexOf('/', start);
      if (slash < 0) break;
      start = slash + 1;
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
