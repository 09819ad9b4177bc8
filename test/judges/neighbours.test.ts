import { describe, expect, it } from 'vitest';
import type { Candidate } from '../../src/contracts/candidate.js';
import { strongestNeighbour } from '../../src/judges/heuristic/neighbours.js';

const candidate = (path: string, imports: string[]): Candidate => ({
  path,
  kind: 'source',
  lineCount: 10,
  relativeLength: 1,
  matches: [],
  rankScore: 1,
  explicit: false,
  inFocusArea: false,
  imports: imports.map((resolved, index) => ({
    specifier: resolved,
    names: [],
    line: index + 1,
    resolved,
  })),
  symbols: [],
  excerpt: '',
  lineRanges: [],
  redactions: 0,
});

describe('strongestNeighbour', () => {
  const relevance = new Map([
    ['src/runtime/builder.rs', 0.9],
    ['src/runtime/metrics.rs', 0.75],
    ['src/other/builder.rs', 0.95],
    ['src/runtime/weak.rs', 0.5],
  ]);

  it.each<[string, string, string[], Record<string, string[]>, string | undefined]>([
    [
      'a file lifted by a relevant file it uses',
      'src/runtime/handle.rs',
      ['src/runtime/builder.rs'],
      {},
      'src/runtime/builder.rs',
    ],
    [
      'by the most relevant of them',
      'src/runtime/handle.rs',
      ['src/runtime/metrics.rs', 'src/runtime/builder.rs'],
      {},
      'src/runtime/builder.rs',
    ],
    [
      'a file lifted by a relevant file that uses it',
      'src/runtime/handle.rs',
      [],
      { 'src/runtime/handle.rs': ['src/runtime/builder.rs'] },
      'src/runtime/builder.rs',
    ],
    ['not across directories', 'src/runtime/handle.rs', ['src/other/builder.rs'], {}, undefined],
    ['not by a weak file', 'src/runtime/handle.rs', ['src/runtime/weak.rs'], {}, undefined],
    [
      'not a module index for the files it declares',
      'src/runtime/mod.rs',
      ['src/runtime/builder.rs'],
      {},
      undefined,
    ],
    [
      'not a package index either',
      'src/runtime/__init__.py',
      ['src/runtime/builder.rs'],
      {},
      undefined,
    ],
    [
      'nor one that a relevant file uses',
      'src/runtime/mod.rs',
      [],
      { 'src/runtime/mod.rs': ['src/runtime/builder.rs'] },
      undefined,
    ],
  ])('%s', (_name, path, imports, importers, expected) => {
    const found = strongestNeighbour(
      candidate(path, imports),
      relevance,
      new Map(Object.entries(importers)),
    );
    expect(found?.path).toBe(expected);
  });

  it('lifts to 65% of the neighbour', () => {
    const found = strongestNeighbour(
      candidate('src/runtime/handle.rs', ['src/runtime/builder.rs']),
      relevance,
      new Map(),
    );
    expect(found).toEqual({
      path: 'src/runtime/builder.rs',
      direction: 'uses',
      relevance: 0.9,
      lifted: 0.59,
    });
  });
});
