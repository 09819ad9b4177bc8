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

// Parts that the shaped globs (`**/name/**`, `**/name`, `**/*.suffix`) are about, and near misses.
const PARTS = [
  '.git',
  'node_modules',
  'x.map',
  '.map',
  'A.MAP',
  'map',
  'yarn.lock',
  'ayarn.lock',
  'Cargo.lock',
  'id_rsa',
  'key.pem',
  '.env',
  'a.env',
  'x.min.js',
  'min.js',
  'out',
  'outs',
  'src',
  '.',
  '..',
  '',
  'a\\b',
  '.DS_Store',
  '.ds_store',
  'credentials',
  'CREDENTIALS',
  'x.KEY',
];

/** Every path of one to three of those parts, and the same with a trailing `/`. */
function generatedPaths(): string[] {
  const paths: string[] = [];
  for (const first of PARTS) {
    paths.push(first, `${first}/`);
    for (const second of PARTS) {
      paths.push(`${first}/${second}`);
      for (const third of ['.git', 'x.map', 'key.pem', '..', '', 'Server.KEY'])
        paths.push(`${first}/${second}/${third}`, `/${first}/${second}/${third}`);
    }
  }
  return paths;
}

describe('globMatcher', () => {
  it.each([
    { dot: true },
    { dot: true, nocase: true },
    { dot: true, nocase: true, ignore: ['**/*.pub', '**/*.env.{ts,js}'] },
  ])('agrees with picomatch on every path of the usual shapes (%o)', (options) => {
    const lists = [
      [...DEFAULT_EXCLUDED_DIRECTORIES, ...DEFAULT_EXCLUDED_FILES],
      SECRET_FILE_PATTERNS,
      ['**/out/**', '**/x.map', '**/*.lock', 'src/**'],
    ];
    const paths = generatedPaths();
    for (const globs of lists) {
      const ours = globMatcher(globs, options);
      const theirs = picomatch([...globs], options);
      for (const path of paths) expect(ours(path), path).toBe(theirs(path));
    }
  });

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
