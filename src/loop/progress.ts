import type { Query } from '../contracts/query.js';
import type { StopReason } from './stop-conditions.js';

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

/** One human line per step, for a terminal. Logs stay JSON; this is for the person watching. */
export function describeProgress(event: ProgressEvent): string | undefined {
  switch (event.type) {
    case 'read':
      return `read ${event.files} files (${Math.round(event.ms)} ms)`;
    case 'cycle-start':
      return undefined;
    case 'dispatched':
      return `cycle ${event.cycle}: ${event.found} candidates, ${event.fresh} new, judging ${event.evaluating}`;
    case 'evaluated':
      return undefined;
    case 'cycle-end':
      return `cycle ${event.cycle}: kept ${event.kept}, excluded ${event.excluded}, ${event.high} highly relevant so far`;
    case 'stop':
      return `done (${event.reason}): ${event.files} file${event.files === 1 ? '' : 's'}`;
  }
}
