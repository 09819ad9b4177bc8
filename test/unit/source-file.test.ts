import { describe, expect, it } from 'vitest';
import {
  analyzeSource,
  indexWords,
  restoreSource,
  restoredTexts,
} from '../../src/repository/source-file.js';
import { StemTable } from '../../src/text/word-postings.js';
import { stem } from '../../src/text/stem.js';
import { type FileKind } from '../../src/contracts/file-kind.js';

const kindOf = (path: string, lines: string[]) => analyzeSource(path, lines.join('\n')).kind;

describe('analyzeSource: kind', () => {
  it.each<[string, string, string[], FileKind]>([
    [
      'a TypeScript module of interfaces and type aliases',
      'src/jsx.ts',
      [
        'export interface HTMLAttributes {',
        '  class?: any',
        '  id?: string',
        '}',
        'export type Props = HTMLAttributes',
      ],
      'declaration',
    ],
    [
      'a TypeScript module that also exports a function',
      'src/options.ts',
      [
        'export interface Options { strict: boolean }',
        'export function defaults(): Options {',
        '  return { strict: true }',
        '}',
      ],
      'source',
    ],
    [
      'a TypeScript module that re-exports values',
      'src/index.ts',
      ['export type Id = string', "export { render } from './render'"],
      'source',
    ],
    [
      'a TypeScript module with a class',
      'src/store.ts',
      ['export interface Entry { id: string }', 'export class Store {}'],
      'source',
    ],
    [
      'a JavaScript file, whatever it holds',
      'src/types.js',
      ['/** @typedef {object} Entry */'],
      'source',
    ],
    ['a .d.ts file', 'index.d.ts', ['export declare function request(): void;'], 'declaration'],
    ['a TypeScript test of types', 'test/types.test.ts', ['type A = string'], 'test'],
    ['a Cucumber feature', 'features/rendering.feature', ['Feature: Rendering'], 'test'],
    ['its step definitions', 'features/step_definitions/site.rb', ['Given(/^I have/) do'], 'test'],
  ])('%s is %s', (_name, path, lines, kind) => {
    expect(kindOf(path, lines)).toBe(kind);
  });
});

describe('analyzeSource: the words of a path', () => {
  it.each<[string, string, string[]]>([
    ['a module named after a format', 'lib/writers/rst.py', ['rst']],
    ['a file in that format', 'docs/writing/tables.rst', ['tables']],
    [
      'a name with dots, and the name as one word',
      'vendor/jquery.dataTables.js',
      ['jquery', 'data', 'tables', 'jquerydatatables'],
    ],
    [
      'a name of a letter and a word, as one word too',
      'src/Lookup/VLookup.php',
      ['v', 'lookup', 'vlookup'],
    ],
    ['a dot file', '.gitignore', ['gitignore']],
  ])('%s: %s', (_name, path, words) => {
    const stems = words.map(stem).sort();
    expect([...analyzeSource(path, '').fileNameStems].sort()).toEqual(stems);
  });
});

describe('analyzeSource: the words of its directories', () => {
  it.each<[string, string, string[]]>([
    ['at the root', 'setup.py', []],
    ['one directory', 'lib/setup.py', ['lib']],
    [
      'nested, each name split',
      'packages/runtime-core/src/apiCreateApp.ts',
      ['packages', 'runtime', 'core', 'src'],
    ],
    ['a word in two of them, once', 'auth/oauth_auth/token.py', ['auth', 'oauth']],
  ])('%s: %s', (_name, path, words) => {
    const stems = [...new Set(words.map(stem))].sort();
    expect([...analyzeSource(path, '').directoryStems].sort()).toEqual(stems);
  });

  it('files of one name share their words', () => {
    expect(analyzeSource('a/index.ts', '').fileNameStems).toBe(
      analyzeSource('b/index.ts', '').fileNameStems,
    );
  });
});

describe('restoreSource: its text', () => {
  const stored = { kind: 'source' as const, lineCount: 2, outline: { imports: [], symbols: [] } };
  const words = {
    table: new StemTable([]),
    postings: { stems: new Uint32Array(0), offsets: Uint32Array.of(0), lines: new Uint32Array(0) },
    longLines: new Uint32Array(0),
    symbolStemIds: { offsets: Uint32Array.of(0), ids: new Uint32Array(0) },
    nameStemIds: new Uint32Array(0),
    directoryStemIds: new Uint32Array(0),
  };

  it('has the name stems of its stored ids, with no text read, and finds none itself', () => {
    const read = analyzeSource('lib/session-store.ts', '');
    const ids = indexWords(read, new StemTable());
    const noText = () => {
      throw new Error('read');
    };
    // Stored for the path it had when the index was built: what a warm run takes as it is.
    const file = restoreSource('api/route-handler.ts', stored, ids, noText, restoredTexts());
    expect([[...file.fileNameStems], [...file.directoryStems]]).toEqual([
      [...read.fileNameStems],
      [...read.directoryStems],
    ]);
    expect([...read.directoryStems]).toEqual(['lib']);
  });

  it('is read when first asked for, and kept while it is among the texts read last', () => {
    let reads = 0;
    const file = restoreSource(
      'src/a.ts',
      stored,
      words,
      () => (reads++, 'first\r\nsecond'),
      restoredTexts(),
    );
    expect(reads).toBe(0);
    expect([file.lineAt(1), file.text, file.lines]).toEqual([
      'second',
      'first\nsecond',
      ['first', 'second'],
    ]);
    expect(reads).toBe(1);
  });

  // A workspace held across runs (a resident process, an MCP server) would otherwise hold the
  // text of every file any run had read.
  it('is let go once enough other texts were read, and read again when asked for', () => {
    let reads = 0;
    const texts = restoredTexts();
    const file = restoreSource('src/a.ts', stored, words, () => (reads++, 'first\nsecond'), texts);
    expect(file.lineAt(0)).toBe('first');
    for (let index = 0; index < 10_000; index++)
      void restoreSource(`src/other${index}.ts`, stored, words, () => 'other', texts).text;
    expect(file.lineAt(1)).toBe('second');
    expect(reads).toBe(2);
  });
});
