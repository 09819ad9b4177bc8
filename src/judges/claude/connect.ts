import type { Logger } from 'pino';
import { createAnthropicClient } from '../../llm/anthropic-client.js';
import { loadPrompts } from '../../prompts.js';
import type { Judge } from '../judge.js';
import { createClaudeJudge } from './claude-judge.js';

export interface ConnectClaudeOptions {
  /** Default: the SDK's own (`ANTHROPIC_API_KEY`). */
  apiKey?: string | undefined;
  /** A gateway, proxy or local server that speaks the Messages API. Default: the SDK's own (`ANTHROPIC_BASE_URL`). */
  baseURL?: string | undefined;
  evaluatorModel?: string | undefined;
  refinerModel?: string | undefined;
  /** A directory with tuned copies of `initial-query.md`, `evaluate.md` and `refine.md`. */
  promptsDirectory?: string | undefined;
  /** Retries per call on 408/409/429/5xx and connection errors, honouring `retry-after`. Default 4. */
  maxRetries?: number | undefined;
  /** Per attempt. Default 60 s. */
  timeoutMs?: number | undefined;
  logger?: Logger | undefined;
  fetch?: typeof fetch | undefined;
}

/** The Claude judge over the Anthropic API, with the prompts read from disk. */
export async function connectClaudeJudge(options: ConnectClaudeOptions = {}): Promise<Judge> {
  const prompts = await loadPrompts(options.promptsDirectory);
  const client = createAnthropicClient({
    apiKey: options.apiKey,
    baseURL: options.baseURL,
    maxRetries: options.maxRetries ?? 4,
    timeoutMs: options.timeoutMs ?? 60_000,
    logger: options.logger,
    fetch: options.fetch,
  });
  return createClaudeJudge({
    client,
    prompts,
    evaluatorModel: options.evaluatorModel,
    refinerModel: options.refinerModel,
  });
}
