import type { ProgressEvent } from '../loop/progress.js';

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
