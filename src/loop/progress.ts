import type { Query } from '../query.js';
import type { StopReason } from './stop-rules.js';

/** What a run reports as it goes, for progress displays and logs. */
export type ProgressEvent =
  | { type: 'read'; files: number; ms: number }
  | { type: 'cycle-start'; cycle: number; query: Query }
  | { type: 'dispatched'; cycle: number; found: number; fresh: number; evaluating: number }
  | {
      type: 'evaluated';
      cycle: number;
      path: string;
      relevance: number;
      done: number;
      total: number;
    }
  | { type: 'cycle-end'; cycle: number; kept: number; high: number; excluded: number }
  | { type: 'stop'; reason: StopReason; files: number };
