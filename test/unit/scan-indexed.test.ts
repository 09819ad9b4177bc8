import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import fastGlob from 'fast-glob';
import { compileKeyword, type KeywordPattern } from '../../src/dispatch/keyword.js';
import { scanFile } from '../../src/dispatch/scan-file.js';
import { analyzeSource, indexWords, type SourceFile } from '../../src/repository/source-file.js';
import { identifiersOf } from '../../src/text/identifiers.js';
import { StemTable, indexText, linesOfStem } from '../../src/text/word-postings.js';

/** The same file, searched by its stored words instead of its text. */
function indexed(file: SourceFile, table: StemTable): SourceFile {
  return Object.assign(analyzeSource(file.path, file.text), {
    words: indexWords(file, table),
  });
}

/** A small deterministic generator: the same texts on every run. */
function generator(seed: number) {
  let state = seed;
  const next = () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  return { next, pick };
}

const WORDS = [
  'config',
  'Configuration',
  'parse',
  'parsing',
  'parseHTTPResponse',
  'refresh_token',
  'refreshToken',
  'REFRESH-TOKEN',
  'null',
  'pointer',
  'NullPointer',
  'empty',
  'file',
  'files',
  'İstanbul',
  'Kelvin',
  // The Kelvin sign, whose lower case is `k`, and a capital sigma, whose lower case depends on
  // the letters around it: texts searched as strings, and lines lower-cased one by one.
  '\u212aelvin',
  'ΟΔΟΣ',
  'café',
  'expiry',
  'expires',
  'auth',
  'authentication',
  'rate',
  'limit',
  'throttle',
  'ok',
  '$scope',
  '_private',
  'x1',
  '42',
  '中文',
  'Coarsen',
  'construct',
  'self',
];
const GLUE = [
  ' ',
  ' ',
  '.',
  '(',
  ')',
  ' = ',
  ', ',
  '->',
  '::',
  '#',
  '\n',
  '\n',
  '\r\n',
  '\n\n',
  '\t',
];

function randomText(random: ReturnType<typeof generator>): string {
  const parts: string[] = [];
  const length = Math.floor(random.next() * 400);
  for (let index = 0; index < length; index++) {
    parts.push(random.pick(WORDS), random.pick(GLUE));
    // Now and then a line too long to be a match.
    if (random.next() < 0.01) parts.push('config '.repeat(160));
  }
  return parts.join('');
}

const KEYWORDS = [
  'config',
  'configuration file',
  'parse',
  'HTTP response',
  'refreshToken',
  'refresh token',
  'null pointer',
  'NullPointerException',
  'empty',
  'files',
  'istanbul',
  'Kelvin',
  'expiration',
  'auth',
  'rate limit',
  'throttle',
  'Coarsen.construct',
  'self.parse',
  '中文',
  'scope',
  'private',
  'x1',
  'the file',
];

function expectSameScans(files: readonly SourceFile[], keywords: readonly KeywordPattern[]) {
  const table = new StemTable();
  for (const file of files)
    expect(scanFile(indexed(file, table), keywords), file.path).toEqual(scanFile(file, keywords));
}

describe('searching a file by its indexed words', () => {
  it('finds what searching its text finds, on generated texts', () => {
    const random = generator(7);
    const files = Array.from({ length: 300 }, (_, index) =>
      analyzeSource(
        random.pick(['src/config.ts', 'lib/parse_file.py', `pkg/auth/token${index}.go`, 'a.md']),
        randomText(random),
      ),
    );
    const keywords = KEYWORDS.map((keyword) => compileKeyword(keyword)).filter(
      (pattern): pattern is KeywordPattern => pattern !== undefined,
    );
    expectSameScans(files, keywords);
  });

  it('finds what searching its text finds, on this repository’s sources', async () => {
    const paths = await fastGlob('src/**/*.ts');
    const files = paths.map((path) => analyzeSource(path, readFileSync(path, 'utf8')));
    // Keywords as a task would name them: identifiers of the code itself, and pairs of them.
    const random = generator(11);
    const tokens = files.flatMap((file) => identifiersOf(file.text.slice(0, 2000)));
    const keywords = Array.from({ length: 60 }, (_, index) =>
      index % 3 === 0 ? `${random.pick(tokens)} ${random.pick(tokens)}` : random.pick(tokens),
    )
      .map((keyword) => compileKeyword(keyword))
      .filter((pattern): pattern is KeywordPattern => pattern !== undefined);
    expectSameScans(files, keywords);
  });

  it('lists each word’s lines once, in order, across identifiers that share it', () => {
    const table = new StemTable();
    const { postings } = indexText('parseFile(files)\nfile = 1\n\nthe_file FILE\n', table);
    const lines = (word: string) => [...linesOfStem(postings, table.idOf(word) ?? -1)];
    expect(lines('file')).toEqual([0, 1, 3]);
    expect(lines('pars')).toEqual([0]);
    expect(lines('the')).toEqual([3]);
    expect(lines('absent')).toEqual([]);
  });
});
