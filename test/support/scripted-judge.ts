import type { Judge } from '../../src/judges/judge.js';
import type { Query } from '../../src/contracts/query.js';
import type { Evaluation } from '../../src/contracts/evaluation.js';

export interface Script {
  initial: Partial<Query>;
  /** Verdicts by path; a path not listed gets `fallback`. */
  verdicts: Record<string, number | Evaluation>;
  fallback?: number;
  /**
   * Queries returned by successive refine calls, each with the refiner's verdict (not sufficient
   * unless `sufficient`); a refine beyond them is a test failure.
   */
  refinements?: (Partial<Query> & { sufficient?: boolean })[];
}

const query = (partial: Partial<Query>): Query => ({
  patterns: ['**/*'],
  keywords: [],
  excludes: [],
  focusAreas: [],
  ...partial,
});

/** A judge that plays a script and records every call, in order. */
export function createScriptedJudge(script: Script): Judge & { calls: string[] } {
  const calls: string[] = [];
  const refinements = [...(script.refinements ?? [])];
  return {
    name: 'scripted',
    calls,
    async initialQuery() {
      calls.push('initial');
      return query(script.initial);
    },
    async evaluate(_task, candidate) {
      calls.push(`evaluate ${candidate.path}`);
      const verdict = script.verdicts[candidate.path] ?? script.fallback ?? 0.3;
      return typeof verdict === 'number'
        ? { relevance: verdict, reason: 'scripted', missingContext: [] }
        : verdict;
    },
    async refine() {
      calls.push('refine');
      const next = refinements.shift();
      if (!next) throw new Error('unexpected refine call: the script has no refinement left');
      const { sufficient = false, ...partial } = next;
      return { ...query(partial), verdict: { sufficient, missing: [], reason: 'scripted' } };
    },
  };
}
