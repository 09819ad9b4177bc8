import type { CallToolResult, ServerContext } from '@modelcontextprotocol/server';
import type { Logger } from 'pino';
import type { JudgeChoice } from '../judges/judge-choice.js';
import { startDeadline } from '../deadline.js';
import { RetrievalError } from '../errors.js';
import type { Judge } from '../judges/judge.js';
import type { RetrievalOptions } from '../options.js';
import { formatContextPack } from '../output/format.js';
import { renderHandover } from '../output/handover.js';
import { retrieveOrFallBack } from '../retrieve-or-fall-back.js';
import { confineRoot } from './allowed-roots.js';
import { fitPackToBudget } from './fit-pack.js';
import { createProgressReporter } from './progress.js';
import {
  RETRIEVE_CONTEXT_TOOL,
  type McpTextFormat,
  type RetrieveContextInput,
} from './tool-schema.js';
import { estimateTokens } from '../contracts/tokens.js';

/** What every call of the server shares: its boundary, its defaults and its judge. */
export interface RetrievalServerSettings {
  /** Reported to clients as the server's version. */
  version: string;
  /** Real directories a call may search (see `resolveAllowedRoots`); the first is the default. */
  allowedRoots: readonly string[];
  /** Options every run starts from; a call's `maxCycles` overrides the one here. */
  retrievalOptions: Omit<RetrievalOptions, 'root' | 'judge' | 'logger' | 'signal' | 'onProgress'>;
  /** The judge for a call's `judge` choice, or for the server's default when it gives none. */
  selectJudge(choice: JudgeChoice | undefined, logger: Logger): Promise<Judge>;
  /** Most tokens of a result: the structured pack and the text are each kept within it. */
  budgetTokens: number;
  /** The text format when a call names none. */
  defaultFormat: McpTextFormat;
  logger: Logger;
  /** Aborted when the server is asked to stop: every run in flight returns what it has. */
  signal?: AbortSignal | undefined;
  /**
   * Per call, before its run: options for a root's stored index, what to do once the call is
   * answered (start the index's build when there is none), and why no index is kept, if so.
   */
  indexedRun?:
    | ((root: string) => Promise<{
        options: Pick<RetrievalOptions, 'cacheDirectory'>;
        afterRun(): void;
        warning?: string;
      }>)
    | undefined;
}

function toolError(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

/**
 * Runs one `retrieve_context` call. Every failure comes back as a tool error the model can read
 * (one line, as the command line prints it), never as a thrown error that could end the server.
 */
export async function retrieveContext(
  input: RetrieveContextInput,
  context: ServerContext,
  settings: RetrievalServerSettings,
): Promise<CallToolResult> {
  const logger = settings.logger.child({ tool: RETRIEVE_CONTEXT_TOOL, request: context.mcpReq.id });
  const progress = createProgressReporter(context, logger);
  // The client cancelling this call, or the server stopping, ends the run with what it has.
  const stops = startDeadline([context.mcpReq.signal, settings.signal], undefined);
  try {
    const root = await confineRoot(input.root, settings.allowedRoots);
    const judge = await settings.selectJudge(input.judge, logger);
    const indexed = await settings.indexedRun?.(root);
    if (indexed?.warning !== undefined) logger.warn(indexed.warning);
    // A key the API rejects leaves the client with the offline judge's context, not an error.
    const { pack, notice } = await retrieveOrFallBack(input.task, {
      ...settings.retrievalOptions,
      ...indexed?.options,
      ...(input.maxCycles !== undefined && { maxCycles: input.maxCycles }),
      root,
      judge,
      logger,
      signal: stops.signal,
      ...(progress && { onProgress: (event) => progress.report(event) }),
    });
    indexed?.afterRun();
    await progress?.flush();
    const structured = fitPackToBudget(pack, settings.budgetTokens);
    // Said first, within the same budget as the rest.
    const note = notice ? `Note: ${notice}.\n\n` : '';
    const text =
      (input.format ?? settings.defaultFormat) === 'json'
        ? formatContextPack(structured, 'json')
        : await renderHandover(pack, {
            budgetTokens: Math.max(1, settings.budgetTokens - estimateTokens(note)),
          });
    return { content: [{ type: 'text', text: `${note}${text}` }], structuredContent: structured };
  } catch (error) {
    await progress?.flush();
    if (error instanceof RetrievalError) {
      logger.warn({ error: error.message }, 'retrieve_context failed');
      return toolError(error.message);
    }
    logger.error({ err: error }, 'unexpected error');
    const message = error instanceof Error ? error.message : String(error);
    return toolError(`internal error: ${message} (a bug: please report it)`);
  } finally {
    stops.dispose();
  }
}
