import type { ServerContext } from '@modelcontextprotocol/server';
import type { Logger } from 'pino';
import { describeProgress } from '../loop/progress.js';
import type { ProgressEvent } from '../loop/progress.js';

/** MCP progress notifications for one tool call, one per step a person would want to see. */
export interface ProgressReporter {
  /** For the run's `onProgress`. */
  report(event: ProgressEvent): void;
  /** Resolves once every notification so far is written, so that none follows the result. */
  flush(): Promise<void>;
}

/** A reporter when the request asked for progress (it carries a `progressToken`), else undefined. */
export function createProgressReporter(
  context: ServerContext,
  logger: Logger,
): ProgressReporter | undefined {
  const progressToken = context.mcpReq._meta?.progressToken;
  if (progressToken === undefined) return undefined;
  let progress = 0;
  const sent: Promise<void>[] = [];
  return {
    report(event) {
      const message = describeProgress(event);
      if (message === undefined) return;
      // The total is unknown (the run may stop early), so progress only counts the steps.
      progress += 1;
      const notification = context.mcpReq.notify({
        method: 'notifications/progress',
        params: { progressToken, progress, message },
      });
      // A lost progress line must never fail the call it describes.
      sent.push(
        notification.catch((error: unknown) =>
          logger.warn({ err: error }, 'could not send a progress notification'),
        ),
      );
    },
    async flush() {
      await Promise.all(sent);
    },
  };
}
