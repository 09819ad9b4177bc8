import type { TokenUsage } from './usage.js';

/**
 * The run's accounts as a judge sees them: it asks before each model call (budgets) and reports
 * after. The loop keeps them (../loop/ledger.ts).
 */

export type CallKind = 'initial-query' | 'evaluate' | 'refine';

export interface Reservation {
  /** The call happened: record what it used (a failed call may still have used tokens). */
  settle(result: {
    kind: CallKind;
    model: string;
    path?: string | undefined;
    usage: TokenUsage;
    ok: boolean;
  }): void;
  /** The call never happened (aborted before sending). */
  release(): void;
}

/** What a judge sees of the run's accounts: it asks before each call and reports after. */
export interface Ledger {
  /** Claims room for a call of about this size; throws BudgetExceededError when it would not fit. */
  reserve(estimate: { model: string; inputTokens: number; outputTokens: number }): Reservation;
  /** A problem the run survived, for the result's warnings. */
  warn(message: string): void;
}
