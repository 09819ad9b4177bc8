import ignore, { type Ignore } from 'ignore';

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

/** Ignore rules that grow as a walk finds `.gitignore` files, level by level. */
export interface IgnoreRules {
  add(file: IgnoreFile): void;
  /**
   * The rules' verdict on one path, its directories not consulted: a walk that never enters an
   * ignored directory asks only about paths whose directories are kept.
   */
  ignores(path: string, isDirectory: boolean): boolean;
}

export function createIgnoreRules(files: readonly IgnoreFile[] = []): IgnoreRules {
  const rules = new Map<string, Ignore>();
  const add = (file: IgnoreFile) =>
    rules.set(file.directory, (rules.get(file.directory) ?? ignore()).add(file.content));
  files.forEach(add);
  return {
    add,
    // Each level's directory and what it governs are slices of the path: one pass over it, not
    // one per level. A deeper level's verdict overrides a shallower one's.
    ignores(path, isDirectory) {
      let ignored = false;
      const suffix = isDirectory ? '/' : '';
      for (let start = 0; ;) {
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
    },
  };
}
