import picomatch from 'picomatch';
import { describe, expect, it } from 'vitest';
import { globProblem } from '../../src/repository/glob-matcher.js';
import { expandBraces } from '../../src/repository/brace-expansion.js';
import { linearGlob } from '../../src/repository/linear-glob.js';
import { seededRandom } from '../support/seeded-random.js';

/** Pieces of globs: picomatch's syntax (with `dot`), and near misses of it. */
const GLOB_PIECES = [
  'a',
  'b',
  'A',
  'B',
  'x',
  '.',
  '-',
  '_',
  '*',
  '?',
  '**',
  '*.*',
  '\\*',
  '[ab]',
  '[!a]',
  '[^a]',
  '[a-c]',
  '[A-Z]',
  '[a-]',
  '{a,b}',
  '{*,b}',
  '[]a]',
  '\\a',
  '{a,.b}',
  '{a}',
  '{,a}',
  '{a,{b,c}}',
  '{1..3}',
  '{3..1}',
  '{a..c}',
];
const PATH_PIECES = [
  'a',
  'b',
  'ab',
  'ba',
  'aab',
  'x',
  'c',
  'A',
  'Ab',
  'B',
  '.a',
  '.b',
  'a.b',
  'b-a',
  'a-',
  '_',
  '1',
  '2',
  '3',
  '*',
];

describe('linearGlob', () => {
  it('matches as picomatch does, with dot, on random globs and paths', () => {
    const random = seededRandom(5);
    const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)] as T;
    const some = (count: number, piece: () => string, separator: string) =>
      Array.from({ length: 1 + Math.floor(random() * count) }, piece).join(separator);
    let compared = 0;
    for (const nocase of [false, true])
      for (let trial = 0; trial < 1_500; trial++) {
        const prefix = random() < 0.05 ? '!' : random() < 0.05 ? './' : '';
        const glob = prefix + some(3, () => some(3, () => pick(GLOB_PIECES), ''), '/');
        // Many braces in a row expand past the bound: refused, and not compared.
        if (globProblem(glob) !== undefined) continue;
        const ours = linearGlob(glob, { nocase });
        const theirs = picomatch(glob, { dot: true, nocase });
        for (let path = 0; path < 20; path++) {
          const tried = some(3, () => pick(PATH_PIECES), '/');
          expect(ours(tried), `${glob} on ${tried} (nocase ${nocase})`).toBe(theirs(tried));
          compared++;
        }
      }
    expect(compared).toBeGreaterThan(55_000);
  });

  it.each([
    ['src/**/*.ts', ['src/a.ts', 'src/x/y/a.ts'], ['a.ts', 'src/a.tsx', 'lib/src/a.ts']],
    ['**/test/**', ['test/a', 'a/test/b/c', 'a/test'], ['tests/a', 'a/tests']],
    ['dir/**', ['dir', 'dir/a', 'dir/a/b'], ['dirs/a']],
    ['**/*.{js,ts}', ['a.js', 'x/a.ts'], ['a.jsx']],
    ['!**/*.md', ['a.ts'], ['a.md', 'x/a.md']],
    ['docs/\\*.txt', ['docs/*.txt'], ['docs/a.txt']],
  ])('reads %s as a user means it', (glob, matched, unmatched) => {
    const test = linearGlob(glob);
    for (const path of matched) expect(test(path), path).toBe(true);
    for (const path of unmatched) expect(test(path), path).toBe(false);
  });

  it('expands braces, nested and ranges, in order', () => {
    expect(expandBraces('a{b,c{d,e}}f')).toEqual(['abf', 'acdf', 'acef']);
    expect(expandBraces('{1..3}{x,y}')).toEqual(['1x', '1y', '2x', '2y', '3x', '3y']);
    expect(expandBraces('\\{a,b}')).toEqual(['\\{a,b}']);
  });
});
