import { posix } from 'node:path';
import type { Query } from '../../query.js';
import type { RepoOverview } from '../judge.js';
import type { TermModel } from './term-model.js';

/**
 * The first query comes from the task alone: its terms, the lexicon's synonyms for them (the
 * offline judge scores a file once, so the codebase's names for the task's ideas must be searched
 * from the start), and any files it names that exist here.
 */
export function initialHeuristicQuery(model: TermModel, overview: RepoOverview): Query {
  const named = model.terms.mentionedPaths.flatMap((mentioned) => {
    const clean = mentioned.replace(/^\.?\//, '');
    const exact = overview.paths.filter((path) => path === clean || path.endsWith(`/${clean}`));
    // A bare file name that several files share names none of them.
    return exact.length === 1 || clean.includes('/') ? exact : [];
  });
  return {
    patterns: ['**/*', ...new Set(named)],
    keywords: model.keywords,
    excludes: [],
    focusAreas: [
      ...new Set(named.map((path) => posix.dirname(path)).filter((directory) => directory !== '.')),
    ],
  };
}
