import type { Query } from '../contracts/query.js';
import type { Verdict } from '../contracts/refinement.js';
import type { UsageTotals } from './ledger.js';

/** What one cycle did, as the pack's `trace` reports it (../output/context-pack.ts checks it). */
export interface CycleTrace {
  cycle: number;
  query: Query;
  /** Files the query matched, including ones judged before. */
  candidatesFound: number;
  /** Files the query matched that were not judged or excluded before. */
  newCandidates: number;
  evaluated: string[];
  /** Judged this cycle at or above `minRelevance`. */
  kept: string[];
  /** Judged this cycle below 0.2: never dispatched again. */
  excluded: string[];
  /** The query the judge proposed for the next cycle. */
  refinement: Query | null;
  /** The refiner's verdict on the context after this cycle; null when it did not refine. */
  verdict: Verdict | null;
  usage: UsageTotals;
  durationMs: number;
}
