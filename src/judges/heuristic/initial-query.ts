import { posix } from 'node:path';
import type { Query } from '../../contracts/query.js';
import { namedFiles } from './named-files.js';
import type { TermModel } from './term-model.js';
import type { RepoOverview } from '../../contracts/overview.js';

/**
 * The first query comes from the task alone: its terms, the lexicon's synonyms for them (the
 * offline judge scores a file once, so the codebase's names for the task's ideas must be searched
 * from the start), and any files it names that exist here.
 */
export function initialHeuristicQuery(model: TermModel, overview: RepoOverview): Query {
  const named = [...namedFiles(model, overview).named];
  return {
    patterns: ['**/*', ...named],
    keywords: model.keywords,
    excludes: [],
    focusAreas: [
      ...new Set(named.map((path) => posix.dirname(path)).filter((directory) => directory !== '.')),
    ],
  };
}
