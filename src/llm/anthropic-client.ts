import Anthropic, {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  AuthenticationError,
  NotFoundError,
  PermissionDeniedError,
} from '@anthropic-ai/sdk';
import { zodOutputFormat } from '@anthropic-ai/sdk/helpers/zod';
import type { Logger } from 'pino';
import type { ZodType } from 'zod';
import { startDeadline } from '../deadline.js';
import { AbortError, describeIssue, ModelCallError, ModelOutputError } from '../errors.js';
import { NO_USAGE, type TokenUsage } from '../contracts/usage.js';

/** The only module that imports the SDK: one structured call, and errors in this library's terms. */

export interface AnthropicClientOptions {
  /** Default: the SDK's own (`ANTHROPIC_API_KEY`). */
  apiKey?: string | undefined;
  /** Default: the SDK's own (`ANTHROPIC_BASE_URL`, else the public API). */
  baseURL?: string | undefined;
  /** Retries the SDK makes on 408, 409, 429, 5xx and connection errors, honouring `retry-after`. */
  maxRetries: number;
  /** Per attempt, in milliseconds. */
  timeoutMs: number;
  /**
   * Per call, every attempt and every wait between attempts included, in milliseconds: a call
   * that has not answered by then fails (the judge falls back), whatever `retry-after` says.
   * Default 60 s.
   */
  callTimeoutMs?: number | undefined;
  logger?: Logger | undefined;
  /** A custom fetch (tests, proxies). */
  fetch?: typeof fetch | undefined;
}

/** A call's whole time, attempts and waits included, when the caller sets none. */
export const DEFAULT_CALL_TIMEOUT_MS = 60_000;

export interface StructuredRequest<T> {
  model: string;
  maxTokens: number;
  /** The part shared by every call of a run; sent as a cached system block. */
  shared: string;
  /** The part of this call alone. */
  perCall: string;
  schema: ZodType<T>;
  signal?: AbortSignal | undefined;
}

export interface StructuredResponse<T> {
  value: T;
  usage: TokenUsage;
  model: string;
}

export interface ModelClient {
  complete<T>(request: StructuredRequest<T>): Promise<StructuredResponse<T>>;
}

const isCount = (value: unknown): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
const isOptionalCount = (value: unknown) => value === undefined || value === null || isCount(value);

/**
 * The answer's usage, or undefined where it is not one: counts that are not whole numbers of
 * tokens (negative, text, missing) would turn the ledger's sums and the budgets' checks into
 * nonsense, and a budget an answer could lift is no bound.
 */
function usageOf(usage: unknown): TokenUsage | undefined {
  if (typeof usage !== 'object' || usage === null) return undefined;
  const counts = usage as Record<string, unknown>;
  if (!isCount(counts.input_tokens) || !isCount(counts.output_tokens)) return undefined;
  if (!isOptionalCount(counts.cache_read_input_tokens)) return undefined;
  if (!isOptionalCount(counts.cache_creation_input_tokens)) return undefined;
  return {
    inputTokens: counts.input_tokens,
    outputTokens: counts.output_tokens,
    cacheReadTokens: (counts.cache_read_input_tokens as number | null | undefined) ?? 0,
    cacheWriteTokens: (counts.cache_creation_input_tokens as number | null | undefined) ?? 0,
  };
}

/**
 * SDK errors in this library's terms: what ends the run, what fails one call, and aborts. Nothing
 * escapes untranslated: an answer the SDK cannot even read is a failed call, never a lost run.
 */
function translate(
  error: unknown,
  model: string,
  call: { stopped: boolean; timeoutMs: number },
): Error {
  if (error instanceof APIUserAbortError) {
    return call.stopped
      ? new AbortError('the model call was aborted', { cause: error })
      : new ModelCallError(
          `the model call took longer than ${call.timeoutMs / 1000} s, retries included`,
          { cause: error, fatal: false },
        );
  }
  if (error instanceof AuthenticationError) {
    return new ModelCallError(
      'the Anthropic API rejected the API key (401): check `ANTHROPIC_API_KEY`',
      { cause: error, fatal: true, status: 401 },
    );
  }
  if (error instanceof PermissionDeniedError) {
    return new ModelCallError(
      `the API key may not use \`${model}\` (403): check the key's workspace and permissions`,
      { cause: error, fatal: true, status: 403 },
    );
  }
  if (error instanceof NotFoundError) {
    return new ModelCallError(`model \`${model}\` was not found (404): check the model names`, {
      cause: error,
      fatal: true,
      status: 404,
    });
  }
  if (error instanceof APIError && error.status === 402) {
    return new ModelCallError(`the API refused for billing reasons (402): ${error.message}`, {
      cause: error,
      fatal: true,
      status: 402,
    });
  }
  if (error instanceof APIConnectionTimeoutError)
    return new ModelCallError('the model call timed out', {
      cause: error,
      fatal: false,
    });
  if (error instanceof APIConnectionError)
    return new ModelCallError(`could not reach the API: ${error.message}`, {
      cause: error,
      fatal: false,
    });
  if (error instanceof APIError) {
    return new ModelCallError(
      `the API answered ${error.status ?? 'with an error'}: ${error.message}`,
      { cause: error, fatal: false, status: error.status },
    );
  }
  // A body cut off or mangled on the way: as unusable as a model's bad answer, and asked again.
  if (error instanceof SyntaxError) {
    return new ModelOutputError(`${model} came back with a body that is not valid JSON`, {
      reason: 'invalid-json',
      rawText: '',
      stopReason: null,
      usage: NO_USAGE,
      cause: error,
    });
  }
  const detail = error instanceof Error ? error.message : String(error);
  return new ModelCallError(`the model call failed: ${detail}`, { cause: error, fatal: false });
}

/**
 * The SDK's promise, or a rejection as soon as `signal` aborts: the SDK honours the signal while
 * it fetches and sleeps, and this makes it hold whatever the SDK is doing (reading a body that
 * stalls, say), so a call never outlasts its time limit.
 */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(new APIUserAbortError());
    if (signal.aborted) return abort();
    signal.addEventListener('abort', abort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort));
  });
}

/**
 * Claude over the Messages API with structured output. The request carries the schema as
 * `output_config.format` (from `zodOutputFormat`); the answer is checked here rather than by
 * `messages.parse`, which reads the text without looking at `stop_reason`, so that a refusal or
 * a truncated answer is reported as what it is.
 */
export function createAnthropicClient(options: AnthropicClientOptions): ModelClient {
  const callTimeoutMs = options.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS;
  const client = new Anthropic({
    ...(options.apiKey !== undefined && { apiKey: options.apiKey }),
    ...(options.baseURL !== undefined && { baseURL: options.baseURL }),
    maxRetries: options.maxRetries,
    timeout: options.timeoutMs,
    logLevel: 'warn',
    ...(options.logger && { logger: options.logger }),
    ...(options.fetch && { fetch: options.fetch }),
  });
  return {
    async complete<T>(request: StructuredRequest<T>): Promise<StructuredResponse<T>> {
      let message: Anthropic.Message;
      const deadline = startDeadline([request.signal], callTimeoutMs);
      try {
        message = await untilAborted(
          client.messages.create(
            {
              model: request.model,
              max_tokens: request.maxTokens,
              system: [
                { type: 'text', text: request.shared, cache_control: { type: 'ephemeral' } },
              ],
              messages: [{ role: 'user', content: request.perCall }],
              output_config: { format: zodOutputFormat(request.schema) },
            },
            { signal: deadline.signal },
          ),
          deadline.signal,
        );
      } catch (error) {
        throw translate(error, request.model, {
          stopped: request.signal?.aborted ?? false,
          timeoutMs: callTimeoutMs,
        });
      } finally {
        deadline.dispose();
      }
      // The body is the API's (or a proxy's): read only in the shape the SDK's types promise.
      const body = message as { usage?: unknown; content?: unknown } | null;
      const usage = usageOf(body?.usage);
      if (usage === undefined || !Array.isArray(body?.content))
        throw new ModelOutputError(`${request.model} answered with a body that is not a message`, {
          reason: 'invalid-json',
          rawText: '',
          stopReason: null,
          usage: usage ?? NO_USAGE,
        });
      const text = (body.content as { type?: unknown; text?: unknown }[])
        .flatMap((block) =>
          block?.type === 'text' && typeof block.text === 'string' ? [block.text] : [],
        )
        .join('');
      const fail = (reason: ModelOutputError['reason'], detail: string, cause?: unknown) =>
        new ModelOutputError(`${request.model} ${detail}`, {
          reason,
          rawText: text,
          stopReason: message.stop_reason,
          usage,
          cause,
        });
      if (message.stop_reason === 'refusal') throw fail('refusal', 'refused to answer');
      if (
        message.stop_reason === 'max_tokens' ||
        message.stop_reason === 'model_context_window_exceeded'
      ) {
        throw fail('truncated', `stopped at ${message.stop_reason} before finishing its answer`);
      }
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch (error) {
        throw fail('invalid-json', 'answered with text that is not JSON', error);
      }
      const parsed = request.schema.safeParse(json);
      if (!parsed.success) {
        throw fail(
          'schema-mismatch',
          `answered outside the schema: ${describeIssue(parsed.error)}`,
          parsed.error,
        );
      }
      return { value: parsed.data, usage, model: message.model };
    },
  };
}
