import { describe, expect, it } from 'vitest';
import { posix } from 'node:path';
import { createIgnoreRules } from '../../src/repository/ignore-rules.js';
import type { IgnoreFile } from '../../src/repository/ignore-rules.js';

/**
 * Whether a walk with these rules leaves `path` out: git's semantics, where each `.gitignore`
 * governs its own directory and below, a deeper file overrides a shallower one (negations
 * included), and nothing inside an ignored directory can be re-included (the walk never enters it).
 */
function createIgnoreMatcher(files: readonly IgnoreFile[]): (path: string) => boolean {
  const rules = createIgnoreRules(files);
  const directoryIgnored = (directory: string): boolean =>
    directory !== '.' &&
    (directoryIgnored(posix.dirname(directory)) || rules.ignores(directory, true));
  return (path) => directoryIgnored(posix.dirname(path)) || rules.ignores(path, false);
}

function matcher(files: Record<string, string>): (path: string) => boolean {
  const ignoreFiles: IgnoreFile[] = Object.entries(files).map(([directory, content]) => ({
    directory,
    content,
  }));
  return createIgnoreMatcher(ignoreFiles);
}

describe('ignore rules, as a walk applies them', () => {
  it('ignores nothing without ignore files', () => {
    const isIgnored = createIgnoreMatcher([]);
    expect(isIgnored('src/index.ts')).toBe(false);
    expect(isIgnored('debug.log')).toBe(false);
  });

  describe('a root .gitignore', () => {
    const isIgnored = matcher({ '': 'secret.txt\n/rootonly.txt\n*.log\n# a comment\n\n' });

    it.each([
      ['secret.txt', true],
      ['deep/down/secret.txt', true],
      ['rootonly.txt', true],
      ['sub/rootonly.txt', false],
      ['debug.log', true],
      ['src/server/debug.log', true],
      ['src/index.ts', false],
      ['# a comment', false],
    ])('%s → ignored %s', (path, ignored) => {
      expect(isIgnored(path)).toBe(ignored);
    });
  });

  describe('a nested .gitignore governs only its own directory', () => {
    const isIgnored = matcher({ '': 'root.tmp\n', sub: 'local.txt\n/anchored.txt\n' });

    it.each([
      ['sub/local.txt', true],
      ['sub/deeper/local.txt', true],
      ['sub/anchored.txt', true],
      ['sub/deeper/anchored.txt', false],
      ['local.txt', false],
      ['other/local.txt', false],
      ['subway/local.txt', false],
      ['sub/root.tmp', true],
    ])('%s → ignored %s', (path, ignored) => {
      expect(isIgnored(path)).toBe(ignored);
    });
  });

  describe('negation', () => {
    const isIgnored = matcher({ '': '*.log\n!keep.log\n' });

    it.each([
      ['a.log', true],
      ['keep.log', false],
      ['logs/keep.log', false],
      ['logs/other.log', true],
    ])('%s → ignored %s', (path, ignored) => {
      expect(isIgnored(path)).toBe(ignored);
    });

    it('a later pattern wins over an earlier negation', () => {
      const reIgnored = matcher({ '': '*.log\n!keep.log\nkeep.log\n' });
      expect(reIgnored('keep.log')).toBe(true);
    });
  });

  describe('a deeper file overrides a shallower one', () => {
    const isIgnored = matcher({
      '': '*.log\ngenerated.ts\n',
      sub: '!debug.log\n!generated.ts\n',
      'sub/deeper': 'debug.log\n',
    });

    it.each([
      ['debug.log', true],
      ['other/debug.log', true],
      ['sub/debug.log', false],
      ['sub/nested/debug.log', false],
      ['sub/other.log', true],
      ['sub/deeper/debug.log', true],
      ['generated.ts', true],
      ['sub/generated.ts', false],
    ])('%s → ignored %s', (path, ignored) => {
      expect(isIgnored(path)).toBe(ignored);
    });

    it('the same directory given twice (.git/info/exclude and .gitignore) combines its rules', () => {
      const combined = createIgnoreMatcher([
        { directory: '', content: 'excluded.txt\n' },
        { directory: '', content: 'ignored.txt\n' },
      ]);
      expect(combined('excluded.txt')).toBe(true);
      expect(combined('ignored.txt')).toBe(true);
      expect(combined('kept.txt')).toBe(false);
    });
  });

  describe('a directory pattern', () => {
    const isIgnored = matcher({ '': 'build/\n/out/\n' });

    it.each([
      ['build/bundle.js', true],
      ['build/nested/deep/file.ts', true],
      ['packages/app/build/bundle.js', true],
      ['out/report.txt', true],
      ['packages/out/report.txt', false],
      // a file named like the directory is not a directory
      ['build', false],
      ['src/build', false],
      ['builder/index.ts', false],
      ['src/build.ts', false],
    ])('%s → ignored %s', (path, ignored) => {
      expect(isIgnored(path)).toBe(ignored);
    });
  });

  describe('nothing inside an ignored directory can be re-included', () => {
    it.each([
      // the same file negates a path inside the ignored directory
      [{ '': 'logs/\n!logs/keep.txt\n' }, 'logs/keep.txt'],
      [{ '': 'logs\n!logs/keep.txt\n' }, 'logs/keep.txt'],
      [{ '': 'logs/\n!*.txt\n' }, 'logs/keep.txt'],
      // an ignore file inside the ignored directory negates its own file
      [{ '': 'logs/\n', logs: '!keep.txt\n' }, 'logs/keep.txt'],
      [{ '': 'logs/\n', 'logs/nested': '!keep.txt\n' }, 'logs/nested/keep.txt'],
      // a deeper directory of an ignored one stays ignored whatever it says
      [{ '': 'vendor/\n!vendor/lib/\n' }, 'vendor/lib/index.js'],
    ])('%j keeps %s ignored', (files, path) => {
      expect(matcher(files)(path)).toBe(true);
    });

    it('but the contents, not the directory, can be ignored and then re-included', () => {
      const isIgnored = matcher({ '': 'logs/*\n!logs/keep.txt\n' });
      expect(isIgnored('logs/keep.txt')).toBe(false);
      expect(isIgnored('logs/other.txt')).toBe(true);
    });
  });

  // Checked against `git check-ignore`: the deeper negation of the directory wins for its files.
  it('lets a deeper .gitignore re-include a directory a shallower one excluded', () => {
    const isIgnored = createIgnoreMatcher([
      { directory: '', content: 'gen\n*.log\n' },
      { directory: 'a', content: '!gen\n' },
    ]);
    expect(isIgnored('a/gen/x.ts')).toBe(false);
    expect(isIgnored('a/gen/x.log')).toBe(true);
    expect(isIgnored('b/gen/x.ts')).toBe(true);
  });
});
