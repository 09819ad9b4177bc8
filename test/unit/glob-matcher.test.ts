import picomatch from 'picomatch';
import { describe, expect, it } from 'vitest';
import { globMatcher, requiredLiterals } from '../../src/repository/glob-matcher.js';
import {
  DEFAULT_EXCLUDED_DIRECTORIES,
  DEFAULT_EXCLUDED_FILES,
} from '../../src/repository/default-excludes.js';
import { SECRET_FILE_PATTERNS } from '../../src/repository/secret-files.js';

const GLOBS = [
  ...DEFAULT_EXCLUDED_DIRECTORIES,
  ...DEFAULT_EXCLUDED_FILES,
  ...SECRET_FILE_PATTERNS,
  '**/*',
  'src/**/*.ts',
  'out/**',
  '**/id_{rsa,dsa}[._-]*',
  '**/*.{js,ts}',
  '**/+(a|b).md',
  '**/@(x|y)/*.py',
  '**/[abc]*.go',
  '!**/*.md',
  'docs/\\*.txt',
  'a/b/c.ts',
  '**/.env.*',
];

const PATHS = [
  'node_modules/x/index.js',
  'a/node_modules/b.js',
  'out/x.js',
  'src/out/x.js',
  'layout/x.js',
  'src/index.ts',
  'src/deep/a/b.ts',
  '.env',
  'config/.env.local',
  'deploy/production.env',
  'keys/ID_RSA',
  'keys/id_rsa.old',
  'keys/id_dsa_work',
  'keys/id_rsa.pub',
  'certs/Server.KEY',
  'package-lock.json',
  'web/package-lock.json',
  'a.md',
  'b.md',
  'c.md',
  'x/y/main.py',
  'z/main.py',
  'cmd/apple.go',
  'cmd/zebra.go',
  'docs/*.txt',
  'docs/a.txt',
  'a/b/c.ts',
  'a/b/c.tsx',
  'README.md',
  'target/debug/x.rs',
  '.git/config',
  'src/.github/workflows/ci.yml',
];

describe('globMatcher', () => {
  it.each([
    { dot: true },
    { dot: true, nocase: true },
    { dot: true, nocase: true, ignore: ['**/*.pub'] },
  ])('agrees with picomatch on every glob and path (%o)', (options) => {
    for (const glob of GLOBS) {
      const ours = globMatcher([glob], options);
      const theirs = picomatch(glob, options);
      for (const path of PATHS) expect(ours(path), `${glob} on ${path}`).toBe(theirs(path));
    }
    const all = globMatcher(GLOBS, options);
    const allTheirs = picomatch([...GLOBS], options);
    for (const path of PATHS) expect(all(path), path).toBe(allTheirs(path));
  });

  it.each([
    ['**/node_modules/**', ['node_modules']],
    ['**/id_{rsa,dsa}[._-]*', ['id_']],
    ['src/**/*.ts', ['src', '.ts']],
    ['**/+(a|b).md', ['.md']],
    ['**/*', []],
    ['!**/*.md', undefined],
    ['docs/\\*.txt', undefined],
  ])('requires of a path what %s spells out', (glob, literals) => {
    expect(requiredLiterals(glob)).toEqual(literals);
  });
});
