import { delay, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AbortError, ModelCallError, ModelOutputError } from '../../src/errors.js';
import type { StructuredRequest } from '../../src/llm/anthropic-client.js';
import {
  answer,
  answerText,
  apiError,
  bufferingFetch,
  messageBody,
  mockMessages,
  testClient,
  useMockApi,
  type StopReason,
} from '../support/msw-anthropic.js';

const server = useMockApi();

const verdictSchema = z
  .object({ relevance: z.number().min(0).max(1), reason: z.string() })
  .strict();

const request = (
  overrides: Partial<StructuredRequest<z.infer<typeof verdictSchema>>> = {},
): StructuredRequest<z.infer<typeof verdictSchema>> => ({
  model: 'claude-haiku-5-5',
  maxTokens: 512,
  shared: 'You rate files.\n\nThe task: fix the token expiry bug.',
  perCall: '<file path="src/auth/tokens.ts">…</file>',
  schema: verdictSchema,
  ...overrides,
});

const USAGE = {
  input_tokens: 321,
  output_tokens: 45,
  cache_creation_input_tokens: 1200,
  cache_read_input_tokens: 800,
};
const MAPPED = { inputTokens: 321, outputTokens: 45, cacheReadTokens: 800, cacheWriteTokens: 1200 };

async function failure(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail');
}

describe('createAnthropicClient().complete', () => {
  it('sends the model, the cached shared part as system, the per-call part and the schema', async () => {
    const received = mockMessages(server, () => answer({ relevance: 0.9, reason: 'defines it' }));
    await testClient().complete(request());

    expect(received).toHaveLength(1);
    const body = received[0]!.request;
    expect(body.model).toBe('claude-haiku-5-5');
    expect(body.max_tokens).toBe(512);
    expect(body.system).toEqual([
      {
        type: 'text',
        text: 'You rate files.\n\nThe task: fix the token expiry bug.',
        cache_control: { type: 'ephemeral' },
      },
    ]);
    expect(body.messages).toEqual([
      { role: 'user', content: '<file path="src/auth/tokens.ts">…</file>' },
    ]);
    expect(body.output_config.format.type).toBe('json_schema');
    expect(Object.keys(body.output_config.format.schema.properties ?? {}).sort()).toEqual([
      'reason',
      'relevance',
    ]);
  });

  it('returns the parsed answer, the model and the usage in its own terms', async () => {
    mockMessages(server, () =>
      answer({ relevance: 0.85, reason: 'defines isTokenExpired' }, { usage: USAGE }),
    );
    const response = await testClient().complete(request());
    expect(response).toEqual({
      value: { relevance: 0.85, reason: 'defines isTokenExpired' },
      usage: MAPPED,
      model: 'claude-haiku-5-5',
    });
  });

  it.each<[string, string, StopReason, ModelOutputError['reason']]>([
    ['a refusal', 'I cannot help with that.', 'refusal', 'refusal'],
    ['an answer cut off at max_tokens', '{"relevance": 0.8, "reas', 'max_tokens', 'truncated'],
    ['text that is not JSON', 'The file is relevant.', 'end_turn', 'invalid-json'],
    ['JSON outside the schema', '{"relevance":1.5,"reason":"very"}', 'end_turn', 'schema-mismatch'],
  ])('reports %s as ModelOutputError, with its usage', async (_label, text, stopReason, reason) => {
    mockMessages(server, () => answerText(text, { stopReason, usage: USAGE }));
    const error = await failure(testClient().complete(request()));
    expect(error).toBeInstanceOf(ModelOutputError);
    expect(error).toMatchObject({ reason, rawText: text, stopReason, usage: MAPPED });
  });

  it.each<[string, () => Response]>([
    ['content that is null', () => HttpResponse.json({ ...messageBody('{}'), content: null })],
    ['no usage', () => HttpResponse.json({ ...messageBody('{}'), usage: undefined })],
    ['an empty object', () => HttpResponse.json({})],
    [
      'negative token counts',
      () =>
        HttpResponse.json({
          ...messageBody('{"relevance":0.7,"reason":"related"}'),
          usage: { input_tokens: -1_000_000, output_tokens: 40 },
        }),
    ],
    [
      'token counts that are text',
      () =>
        HttpResponse.json({
          ...messageBody('{"relevance":0.7,"reason":"related"}'),
          usage: { input_tokens: 100, output_tokens: 'x' },
        }),
    ],
  ])('reports a body of %s as an unusable answer, not a crash', async (_label, respond) => {
    mockMessages(server, respond);
    const error = await failure(testClient().complete(request()));
    expect(error).toBeInstanceOf(ModelOutputError);
    expect(error).toMatchObject({ reason: 'invalid-json' });
  });

  it.each<[number, RegExp]>([
    [401, /ANTHROPIC_API_KEY/],
    [403, /claude-haiku-5-5.*403/],
    [404, /claude-haiku-5-5.*not found/],
  ])('ends the run on %i: a fatal ModelCallError, not retried', async (status, message) => {
    const received = mockMessages(server, () => apiError(status));
    const client = testClient({ maxRetries: 2, fetch: bufferingFetch });
    const error = await failure(client.complete(request()));
    expect(error).toBeInstanceOf(ModelCallError);
    expect(error).toMatchObject({ fatal: true, status });
    expect((error as Error).message).toMatch(message);
    expect(received).toHaveLength(1);
  });

  it.each<[string, (n: number) => Response, number]>([
    [
      'a 429 with retry-after',
      (n) => (n < 1 ? apiError(429, { 'retry-after': '0.001' }) : ok()),
      2,
    ],
    ['529 overloaded twice', (n) => (n < 2 ? apiError(529, { 'retry-after-ms': '1' }) : ok()), 3],
  ])('retries %s and succeeds', async (_label, respond, requests) => {
    const received = mockMessages(server, ({ index }) => respond(index));
    const client = testClient({ maxRetries: 2, fetch: bufferingFetch });
    const response = await client.complete(request());
    expect(response.value).toEqual({ relevance: 0.7, reason: 'related' });
    expect(received).toHaveLength(requests);
  });

  it('gives up after maxRetries on a 500 every time: a ModelCallError that is not fatal', async () => {
    const received = mockMessages(server, () => apiError(500, { 'retry-after-ms': '1' }));
    const client = testClient({ maxRetries: 2, fetch: bufferingFetch });
    const error = await failure(client.complete(request()));
    expect(error).toBeInstanceOf(ModelCallError);
    expect(error).toMatchObject({ fatal: false, status: 500 });
    expect(received).toHaveLength(3);
  });

  it('reports a response slower than timeoutMs as a call that timed out, not fatal', async () => {
    mockMessages(server, async () => {
      await delay(1000);
      return ok();
    });
    const started = performance.now();
    const error = await failure(testClient({ timeoutMs: 50 }).complete(request()));
    expect(error).toBeInstanceOf(ModelCallError);
    expect(error).toMatchObject({ fatal: false });
    expect((error as Error).message).toMatch(/timed out/);
    expect(performance.now() - started).toBeLessThan(900);
  });

  it('rejects with AbortError when the signal fires mid-call', async () => {
    const controller = new AbortController();
    mockMessages(server, async () => {
      controller.abort();
      await delay(1000);
      return ok();
    });
    const error = await failure(testClient().complete(request({ signal: controller.signal })));
    expect(error).toBeInstanceOf(AbortError);
  });
});

function ok(): Response {
  return answer({ relevance: 0.7, reason: 'related' });
}
