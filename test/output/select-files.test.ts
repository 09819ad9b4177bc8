import { describe, expect, it } from 'vitest';
import { selectFiles, type SelectionOptions } from '../../src/output/select-files.js';

const DEFAULTS: SelectionOptions = {
  minRelevance: 0.5,
  coreRelevance: 0.8,
  maxFiles: 5,
  maxRelated: 10,
};

/** Files named by their relevance, ranked best first as a pack ranks them. */
const ranked = (...relevances: number[]) =>
  relevances.map((relevance, index) => ({ path: `f${index}`, relevance }));

const paths = (files: readonly { path: string }[]) => files.map((file) => file.path);

describe('selectFiles: core and related', () => {
  it.each<[string, number[], Partial<SelectionOptions>, string[], string[]]>([
    [
      'core at 0.8 or above, related down to 0.5',
      [0.95, 0.8, 0.7, 0.5, 0.4],
      {},
      ['f0', 'f1'],
      ['f2', 'f3'],
    ],
    ['the best file is core even below 0.8', [0.6, 0.55, 0.3], {}, ['f0'], ['f1']],
    ['but not below minRelevance: an empty pack', [0.45, 0.3], {}, [], []],
    [
      'at most maxFiles core; the strong rest is related',
      [0.9, 0.9, 0.9],
      { maxFiles: 2 },
      ['f0', 'f1'],
      ['f2'],
    ],
    ['at most maxRelated related', [0.9, 0.7, 0.6, 0.5], { maxRelated: 2 }, ['f0'], ['f1', 'f2']],
    ['maxRelated 0: no related files', [0.9, 0.7], { maxRelated: 0 }, ['f0'], []],
    [
      'coreRelevance below minRelevance: minRelevance still bounds the core',
      [0.9, 0.45],
      { coreRelevance: 0.3 },
      ['f0'],
      [],
    ],
    [
      'coreRelevance 0.5 and maxFiles 8: the version 1 selection',
      [0.9, 0.6, 0.5, 0.4],
      { coreRelevance: 0.5, maxFiles: 8 },
      ['f0', 'f1', 'f2'],
      [],
    ],
  ])('%s', (_name, relevances, options, core, related) => {
    const selection = selectFiles(ranked(...relevances), { ...DEFAULTS, ...options });
    expect(paths(selection.core)).toEqual(core);
    expect(paths(selection.related)).toEqual(related);
  });
});
