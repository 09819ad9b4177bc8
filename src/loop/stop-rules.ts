import { criticalGaps } from './gaps.js';
import type { JudgedFile } from '../contracts/evaluation.js';

/** Why a run ended. */
export const STOP_REASONS = [
  'sufficient',
  'max-cycles',
  'no-new-candidates',
  'budget',
  'aborted',
] as const;
export type StopReason = (typeof STOP_REASONS)[number];

/** What the stop rules look at after each cycle. */
export interface LoopSnapshot {
  completedCycles: number;
  /** Every file judged so far, across all cycles. */
  judged: readonly JudgedFile[];
  /** New candidates the last cycle's query found. */
  lastFresh: number;
  aborted: boolean;
  /** A call of the last cycle was refused because it would have exceeded a budget. */
  budgetSpent: boolean;
}

export interface StopRuleOptions {
  maxCycles: number;
  threshold: number;
  minFiles: number;
}

export type StopRule = (snapshot: LoopSnapshot, options: StopRuleOptions) => StopReason | undefined;

export const aborted: StopRule = (snapshot) => (snapshot.aborted ? 'aborted' : undefined);

/** Enough highly relevant files are held, counted across all cycles, and no critical gap is open. */
export const sufficientContext: StopRule = (snapshot, options) => {
  const high = snapshot.judged.filter((file) => file.relevance >= options.threshold).length;
  if (high < options.minFiles) return undefined;
  return criticalGaps(snapshot.judged, options.threshold, snapshot.completedCycles).length === 0
    ? 'sufficient'
    : undefined;
};

/** A refined query (any cycle after the first) found nothing that was not already judged or excluded. */
export const noNewCandidates: StopRule = (snapshot) =>
  snapshot.completedCycles > 1 && snapshot.lastFresh === 0 ? 'no-new-candidates' : undefined;

/** A budget (calls, input tokens or cost) refused a call: the run returns what it has. */
export const budgetSpent: StopRule = (snapshot) => (snapshot.budgetSpent ? 'budget' : undefined);

export const cycleCap: StopRule = (snapshot, options) =>
  snapshot.completedCycles >= options.maxCycles ? 'max-cycles' : undefined;

/** The rules in the order they are asked; the first that answers ends the run. */
export const STOP_RULES: readonly StopRule[] = [
  aborted,
  sufficientContext,
  budgetSpent,
  noNewCandidates,
  cycleCap,
];

export function firstStopReason(
  snapshot: LoopSnapshot,
  options: StopRuleOptions,
  rules: readonly StopRule[] = STOP_RULES,
): StopReason | undefined {
  for (const rule of rules) {
    const reason = rule(snapshot, options);
    if (reason) return reason;
  }
  return undefined;
}
