import type { UsageTotals } from '../src/loop/ledger.js';

/** One method's answer on one task. */
export interface TaskResult {
  method: string;
  task: string;
  repo: string;
  /** The language of the files the fix changed (./languages.ts). */
  language: string;
  gold: string[];
  /** Every file the method ranked, best first. */
  ranked: string[];
  /** The judge's relevance of each ranked file; absent for a ranking-only baseline. */
  relevance?: number[];
  /** The selected context (`files`); absent for a ranking-only baseline. */
  selected?: string[];
  cycles?: number;
  stopReason?: string;
  /** Tokens a Claude judge would be sent for this run (or, with Claude, was sent). */
  tokens?: number;
  /** The model calls of a Claude judge's run: calls, tokens (cached and not) and cost. */
  usage?: UsageTotals;
  ms: number;
}
