import { http, HttpResponse } from 'msw';
import { setupServer, type SetupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { createAnthropicClient, type ModelClient } from '../../src/llm/anthropic-client.js';

/**
 * A mock Messages API for tests: msw intercepts every request, and nothing reaches the network.
 *
 * The responses below are written by hand, after the `Message` and `Usage` types of
 * @anthropic-ai/sdk 1.12.0 and the API's documented error bodies; they are not recordings.
 */

export const API_BASE_URL = 'https://api.anthropic.test';
export const MESSAGES_URL = `${API_BASE_URL}/v1/messages`;

/** The token counts of a response's `usage`. */
export interface ApiTokens {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
}

export type StopReason = 'end_turn' | 'max_tokens' | 'refusal' | 'model_context_window_exceeded';

export interface MessageOptions {
  model?: string;
  stopReason?: StopReason;
  usage?: Partial<ApiTokens>;
}

/** A Messages API response whose one text block is `text`. */
export function messageBody(text: string, options: MessageOptions = {}) {
  const tokens: ApiTokens = {
    input_tokens: 120,
    output_tokens: 40,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
    ...options.usage,
  };
  const stopReason = options.stopReason ?? 'end_turn';
  return {
    id: 'msg_01TestMessage0000000000',
    type: 'message',
    role: 'assistant',
    model: options.model ?? 'claude-haiku-5-5',
    content: [{ type: 'text', text, citations: null }],
    stop_reason: stopReason,
    stop_sequence: null,
    stop_details:
      stopReason === 'refusal' ? { type: 'refusal', category: null, explanation: null } : null,
    container: null,
    diagnostics: null,
    usage: {
      ...tokens,
      cache_creation: {
        ephemeral_5m_input_tokens: tokens.cache_creation_input_tokens,
        ephemeral_1h_input_tokens: 0,
      },
      server_tool_use: null,
      service_tier: 'standard',
      inference_geo: 'global',
      output_tokens_details: { thinking_tokens: 0 },
      speed: 'standard',
    },
  };
}

/** A 200 response carrying `value` as the model's JSON answer. */
export function answer(value: unknown, options: MessageOptions = {}): Response {
  return HttpResponse.json(messageBody(JSON.stringify(value), options), {
    headers: { 'request-id': 'req_test_ok' },
  });
}

/** A 200 response whose text is `text` as is (for unusable answers). */
export function answerText(text: string, options: MessageOptions = {}): Response {
  return HttpResponse.json(messageBody(text, options), {
    headers: { 'request-id': 'req_test_ok' },
  });
}

const ERROR_TYPES: Record<number, string> = {
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error',
};

/** An API error response, as the API sends it: `{type:'error', error:{type, message}}`. */
export function apiError(status: number, headers: Record<string, string> = {}): Response {
  const type = ERROR_TYPES[status] ?? 'api_error';
  return HttpResponse.json(
    { type: 'error', error: { type, message: `mocked ${type}` } },
    { status, headers: { 'request-id': `req_test_${status}`, ...headers } },
  );
}

/**
 * A fetch that reads error bodies to the end. msw 2.x never settles the cancel of a mocked body
 * (mswjs/interceptors#799), and the SDK cancels the error body before each retry: without this a
 * retried call hangs.
 */
export const bufferingFetch: typeof fetch = async (input, init) => {
  const response = await fetch(input, init);
  if (response.ok) return response;
  return new Response(await response.arrayBuffer(), {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
};

/** The global fetch as it is at call time (after msw has patched it). */
const currentFetch: typeof fetch = (input, init) => fetch(input, init);

export function testClient(
  options: { maxRetries?: number; timeoutMs?: number; fetch?: typeof fetch } = {},
): ModelClient {
  return createAnthropicClient({
    apiKey: 'test-key',
    baseURL: API_BASE_URL,
    maxRetries: options.maxRetries ?? 0,
    timeoutMs: options.timeoutMs ?? 10_000,
    fetch: options.fetch ?? currentFetch,
  });
}

/** The request body as the client sends it (the parts tests look at). */
export interface SentRequest {
  model: string;
  max_tokens: number;
  system: { type: string; text: string; cache_control?: { type: string } }[];
  messages: { role: string; content: string }[];
  output_config: { format: { type: string; schema: { properties?: Record<string, unknown> } } };
}

export type CallKind = 'initial-query' | 'evaluate' | 'refine' | 'unknown';

/**
 * Which judge call a request is: the evaluator's system text is its own; the planner's is shared
 * by the first query and the refinements (so that they share a cache), told apart by the message.
 */
export function callKindOf(request: SentRequest): CallKind {
  const firstLine = (request.system[0]?.text.split('\n', 1)[0] ?? '').trim();
  if (firstLine === '# Relevance evaluator') return 'evaluate';
  if (firstLine !== '# Search planner') return 'unknown';
  return /^## After cycle \d+/m.test(request.messages[0]?.content ?? '')
    ? 'refine'
    : 'initial-query';
}

/** The path of the file an evaluate request is about. */
export function evaluatedPath(request: SentRequest): string {
  const attribute = /<file path="((?:[^"\\]|\\.)*)"/.exec(request.messages[0]?.content ?? '')?.[1];
  // The attribute's value is a JSON string (src/output/quote-path.ts): a plain path is itself.
  return attribute === undefined ? '' : (JSON.parse(`"${attribute}"`) as string);
}

export interface Received {
  request: SentRequest;
  kind: CallKind;
  /** For evaluate calls; '' otherwise. */
  path: string;
  /** 0-based position among all requests. */
  index: number;
}

/** Starts msw for the test file: unhandled requests fail, handlers reset after each test. */
export function useMockApi(): SetupServer {
  const server = setupServer();
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterEach(() => server.resetHandlers());
  afterAll(() => server.close());
  return server;
}

/** Answers every Messages API request with `respond`, and records each one as it arrives. */
export function mockMessages(
  server: SetupServer,
  respond: (received: Received) => Response | Promise<Response>,
): Received[] {
  const received: Received[] = [];
  server.use(
    http.post(MESSAGES_URL, async ({ request }) => {
      const body = (await request.json()) as SentRequest;
      const kind = callKindOf(body);
      const entry: Received = {
        request: body,
        kind,
        path: kind === 'evaluate' ? evaluatedPath(body) : '',
        index: received.length,
      };
      received.push(entry);
      return respond(entry);
    }),
  );
  return received;
}

/**
 * A careless model: every query asks for everything, by the names given too, and every file it
 * is shown is rated relevant, so a test sees all that a run could send.
 */
export function mockCarelessModel(
  server: SetupServer,
  asked: { patterns: string[]; keywords: string[] },
): Received[] {
  return mockMessages(server, ({ kind, path, request }) =>
    kind === 'evaluate'
      ? answer(
          { relevance: 0.8, reason: `about ${path}`, missingContext: [] },
          { model: request.model },
        )
      : answer(
          {
            patterns: ['**/*', ...asked.patterns],
            keywords: asked.keywords,
            excludes: [],
            focusAreas: [],
          },
          { model: request.model },
        ),
  );
}
