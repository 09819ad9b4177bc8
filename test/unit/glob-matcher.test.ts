import picomatch from 'picomatch';
import { describe, expect, it } from 'vitest';
import { globMatcher, globProblem, requiredLiterals } from '../../src/repository/glob-matcher.js';
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

/**
 * Every path of one to three of those parts. Not with a trailing `/`, which no listing gives: for
 * a few shapes of glob (a name's `*.map`, say) picomatch takes one, for others not.
 */
function generatedPaths(): string[] {
  const paths: string[] = [];
  for (const first of PARTS) {
    paths.push(first);
    for (const second of PARTS) {
      paths.push(`${first}/${second}`);
      for (const third of ['.git', 'x.map', 'key.pem', '..', '', 'Server.KEY'])
        paths.push(`${first}/${second}/${third}`, `/${first}/${second}/${third}`);
    }
  }
  return paths.filter((path) => !path.endsWith('/'));
}

describe('globMatcher', () => {
  it.each([{}, { nocase: true }, { nocase: true, ignore: ['**/*.pub', '**/*.env.{ts,js}'] }])(
    'agrees with picomatch (dot) on every path of the usual shapes (%o)',
    (options) => {
      const lists = [
        [...DEFAULT_EXCLUDED_DIRECTORIES, ...DEFAULT_EXCLUDED_FILES],
        SECRET_FILE_PATTERNS,
        ['**/out/**', '**/x.map', '**/*.lock', 'src/**'],
      ];
      const paths = generatedPaths();
      for (const globs of lists) {
        const ours = globMatcher(globs, options);
        const theirs = picomatch([...globs], { ...options, dot: true });
        for (const path of paths) expect(ours(path), path).toBe(theirs(path));
      }
    },
  );

  it.each([{}, { nocase: true }, { nocase: true, ignore: ['**/*.pub'] }])(
    'agrees with picomatch (dot) on every glob and path (%o)',
    (options) => {
      for (const glob of GLOBS) {
        const ours = globMatcher([glob], options);
        const theirs = picomatch(glob, { ...options, dot: true });
        for (const path of PATHS) expect(ours(path), `${glob} on ${path}`).toBe(theirs(path));
      }
      const all = globMatcher(GLOBS, options);
      const allTheirs = picomatch([...GLOBS], { ...options, dot: true });
      for (const path of PATHS) expect(all(path), path).toBe(allTheirs(path));
    },
  );

  it('reads no glob it cannot match in linear time: it matches nothing, and says why', () => {
    for (const [glob, problem] of [
      ['**/+(a|b).md', 'extglobs such as @(a|b) are not supported'],
      ['[[:alpha:]]*', 'POSIX classes such as [[:alpha:]] are not supported'],
      ['{a,b}'.repeat(9), 'its braces expand to more than 256 globs'],
      ['{1..1000}', 'its braces expand to more than 256 globs'],
      [`${'a'.repeat(1_025)}`, 'longer than 1024 characters'],
    ]) {
      expect(globProblem(glob ?? ''), glob).toBe(problem);
      expect(globMatcher([glob ?? '', 'x.md'])('a.md')).toBe(false);
    }
    expect(globProblem('src/**/*.{ts,tsx}')).toBeUndefined();
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
