import { ConfigError } from '../errors.js';
import { createHeuristicJudge } from '../judges/heuristic/heuristic-judge.js';
import type { Judge } from '../judges/judge.js';
import type { JudgeChoice } from './args.js';

export interface ChosenJudge {
  judge: Judge;
  /** Why this judge, in words, for stderr. */
  because: string;
}

/**
 * `auto` picks Claude when a key is configured and the Claude judge is available, otherwise the
 * offline judge. This version ships only the offline judge, so `claude` is refused up front.
 */
export function chooseJudge(
  choice: JudgeChoice,
  env: Readonly<Record<string, string | undefined>>,
): ChosenJudge {
  const hasKey = Boolean(env.ANTHROPIC_API_KEY?.trim());
  if (choice === 'claude') {
    throw new ConfigError(
      '`--judge claude` is not available in this version; use `--judge heuristic` (the offline judge)',
      { option: '--judge' },
    );
  }
  if (choice === 'heuristic')
    return { judge: createHeuristicJudge(), because: 'requested with --judge heuristic' };
  return {
    judge: createHeuristicJudge(),
    because: hasKey
      ? 'ANTHROPIC_API_KEY is set, but this version has no Claude judge yet'
      : 'no ANTHROPIC_API_KEY configured',
  };
}
