import { criticalGaps } from './gaps.js';
import type { JudgedFile } from '../contracts/evaluation.js';
import type { Verdict } from '../contracts/refinement.js';

/**
 * When the loop stops. The controller always stops at an abort, a spent budget, a refined query
 * that finds nothing new, and the cycle cap; before those, it asks the run's stop conditions
 * (`stopWhen`, like the AI SDK's), which say when more cycles cannot help. Each condition is a
 * pure function of the run so far, so the decision stays deterministic whoever judges.
 */

/** Why a run ended. */
export const STOP_REASONS = [
  'sufficient',
  'no-new-relevant',
  'min-files',
  'stop-when',
  'max-cycles',
  'no-new-candidates',
  'budget',
  'aborted',
] as const;
export type StopReason = (typeof STOP_REASONS)[number];

/** What the stop conditions see after each cycle. */
export interface LoopSnapshot {
  completedCycles: number;
  /** Every file judged so far, across all cycles. */
  judged: readonly JudgedFile[];
  /** Relevance at which a file counts as highly relevant. */
  threshold: number;
  /** The refiner's verdict on the files judged so far; undefined until it has refined them. */
  verdict: Verdict | undefined;
}

/**
 * True when the run should stop. A condition made here carries the reason the pack reports;
 * a caller's own function reports `stop-when`.
 */
export interface StopCondition {
  (snapshot: LoopSnapshot): boolean;
  readonly reason?: StopReason;
}

const named = (reason: StopReason, test: (snapshot: LoopSnapshot) => boolean): StopCondition =>
  Object.assign((snapshot: LoopSnapshot) => test(snapshot), { reason });

const noCriticalGap = (snapshot: LoopSnapshot): boolean =>
  criticalGaps(snapshot.judged, snapshot.threshold, snapshot.completedCycles).length === 0;

/** The refiner judged the context sufficient, and no highly relevant file's gap is unsearched. */
export const judgeSaysSufficient = (): StopCondition =>
  named(
    'sufficient',
    (snapshot) => snapshot.verdict?.sufficient === true && noCriticalGap(snapshot),
  );

/** A cycle after the first added no highly relevant file: the search has run dry. */
export const noNewRelevantFiles = (): StopCondition =>
  named(
    'no-new-relevant',
    ({ completedCycles, judged, threshold }) =>
      completedCycles > 1 &&
      !judged.some((file) => file.cycle === completedCycles && file.relevance >= threshold),
  );

/** The seed's rule: `count` highly relevant files are held (across cycles) and no critical gap is open. */
export const highlyRelevantFiles = (count: number): StopCondition =>
  named(
    'min-files',
    (snapshot) =>
      snapshot.judged.filter((file) => file.relevance >= snapshot.threshold).length >= count &&
      noCriticalGap(snapshot),
  );

/** The conditions the CLI and the MCP server name. */
export const STOP_CONDITION_NAMES = ['sufficient', 'no-new-relevant', 'min-files'] as const;
export type StopConditionName = (typeof STOP_CONDITION_NAMES)[number];

export const DEFAULT_STOP_WHEN: readonly StopConditionName[] = ['sufficient', 'no-new-relevant'];

export function stopConditionNamed(name: StopConditionName, minFiles: number): StopCondition {
  switch (name) {
    case 'sufficient':
      return judgeSaysSufficient();
    case 'no-new-relevant':
      return noNewRelevantFiles();
    case 'min-files':
      return highlyRelevantFiles(minFiles);
  }
}

/** What only the controller knows after a cycle: the limits no condition may overrule. */
export interface ControllerState {
  maxCycles: number;
  aborted: boolean;
  /** A call of the last cycle was refused because it would have exceeded a budget. */
  budgetSpent: boolean;
  /** New candidates the last cycle's query found. */
  lastFresh: number;
}

/**
 * The reason to stop now, or undefined to go on. An abort wins; then the caller's conditions,
 * so that a run that is done says so even on its last allowed cycle; then the hard limits.
 */
export function stopReason(
  snapshot: LoopSnapshot,
  state: ControllerState,
  conditions: readonly StopCondition[],
): StopReason | undefined {
  if (state.aborted) return 'aborted';
  const met = conditions.find((condition) => condition(snapshot));
  if (met) return met.reason ?? 'stop-when';
  if (state.budgetSpent) return 'budget';
  // A refined query (any cycle after the first) found nothing not already judged or excluded.
  if (snapshot.completedCycles > 1 && state.lastFresh === 0) return 'no-new-candidates';
  if (snapshot.completedCycles >= state.maxCycles) return 'max-cycles';
  return undefined;
}
