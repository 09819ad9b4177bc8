import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { iterativeRetrieve, type ContextPack } from '../../src/index.js';
import { createClaudeJudge } from '../../src/judges/claude/claude-judge.js';
import { createAnthropicClient } from '../../src/llm/anthropic-client.js';
import { loadPrompts } from '../../src/prompts.js';
import { API_URL, createFixtureServer, type RequestInfo } from '../support/anthropic-fixtures.js';
import {
  authorExampleAnswer,
  RATE_LIMIT_TASK,
  TOKEN_EXPIRY_TASK,
} from '../support/example-answers.js';

const EXAMPLE = join(import.meta.dirname, '../fixtures/example-service');
const EXCERPT_TOKENS = 600;
const fixtures = createFixtureServer({ author: authorExampleAnswer });

beforeAll(() => fixtures.server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  // A request with no fixture must fail the test that made it, not pass on the offline fallback.
  expect(fixtures.problems.splice(0)).toEqual([]);
});
afterAll(() => fixtures.server.close());

async function claudeRun(task: string): Promise<{ pack: ContextPack; requests: RequestInfo[] }> {
  const client = createAnthropicClient({
    apiKey: fixtures.mode === 'record' ? process.env.ANTHROPIC_API_KEY : 'test-key',
    baseURL: API_URL,
    maxRetries: 0,
    timeoutMs: 60_000,
  });
  const judge = createClaudeJudge({ client, prompts: await loadPrompts() });
  const first = fixtures.requests.length;
  const pack = await iterativeRetrieve(task, {
    root: EXAMPLE,
    judge,
    concurrency: 4,
    excerptTokens: EXCERPT_TOKENS,
  });
  return { pack, requests: fixtures.requests.slice(first) };
}

describe('the bundled example, Claude judge (recorded fixtures)', () => {
  it('finds the token expiry bug and the files around it', async () => {
    const { pack, requests } = await claudeRun(TOKEN_EXPIRY_TASK);
    const paths = pack.files.map((file) => file.path);
    expect(paths[0]).toBe('src/auth/tokens.ts');
    // The core is what implements the expiry (rated 0.8 or more); the session manager, which
    // only uses it, is named as related.
    expect(paths).toEqual(
      expect.arrayContaining(['src/auth/auth-service.ts', 'src/auth/jwt-utils.ts']),
    );
    expect(pack.related.map((file) => file.path)).toContain('src/auth/session-manager.ts');
    expect(pack.files[0]?.reason).toMatch(/accessTokenTtlSeconds \(seconds\)/);
    expect(pack.judge).toBe('claude');
    // Cycle 1 found the auth module and the refiner asked for the utilities tokens.ts needs; they
    // were fetched by path in cycle 2, which added no highly relevant file, so the run stopped.
    expect(pack.trace[0]?.verdict).toMatchObject({ sufficient: false });
    expect(pack.trace.map((cycle) => cycle.cycle)).toEqual([1, 2]);
    expect(pack.trace[1]?.evaluated).toContain('src/utils/dates.ts');
    expect(pack.stopReason).toBe('no-new-relevant');
    expect(pack.evaluated.every((file) => !file.unevaluated)).toBe(true);
    expect(pack.warnings).toEqual([]);
    expect(pack.usage.calls).toBe(requests.length);
  });

  it('finds rate limiting through "throttle"', async () => {
    const { pack } = await claudeRun(RATE_LIMIT_TASK);
    const paths = pack.files.map((file) => file.path);
    expect(paths.slice(0, 3)).toEqual(
      expect.arrayContaining([
        'src/middleware/throttle.ts',
        'src/routes/index.ts',
        'src/middleware/index.ts',
      ]),
    );
    expect(pack.trace[0]?.query.keywords).toContain('throttle');
    // The refiner judged cycle 1's files sufficient: no second cycle was run.
    expect(pack.stopReason).toBe('sufficient');
    expect(pack.trace).toHaveLength(1);
  });

  it('sends what it should: models, schema, cache marker, the task, and bounded excerpts', async () => {
    const { requests } = await claudeRun(TOKEN_EXPIRY_TASK);
    const byCall = (call: RequestInfo['call']) =>
      requests.filter((request) => request.call === call);
    expect(byCall('initial-query')).toHaveLength(1);
    expect(byCall('evaluate').length).toBeGreaterThan(3);
    for (const { call, body } of requests) {
      expect(body.model).toBe(call === 'evaluate' ? 'claude-haiku-5-5' : 'claude-sonnet-5-5');
      expect(body.system).toHaveLength(1);
      expect(body.system[0]?.cache_control).toEqual({ type: 'ephemeral' });
      expect(body.output_config.format.type).toBe('json_schema');
      expect(body.output_config.format.schema).toMatchObject({
        type: 'object',
        additionalProperties: false,
      });
    }
    for (const { body, path } of byCall('evaluate')) {
      expect(Object.keys(body.output_config.format.schema.properties as object).sort()).toEqual([
        'missingContext',
        'reason',
        'relevance',
      ]);
      // What is shared by every evaluation (instructions, rubric, task) comes first and is marked
      // for caching; the repository overview is the planner's, not sent to rate one file.
      expect(body.system[0]?.text).toContain(
        '<task>\nFix the authentication token expiry bug\n</task>',
      );
      expect(body.system[0]?.text).toContain('0.8–1.0');
      expect(body.system[0]?.text).not.toContain('Each path with the symbols it exports');
      const file = /<file path="[^"]+" kind="\w+" lines="\d+">\n([\s\S]*)\n<\/file>/.exec(
        body.messages[0]?.content ?? '',
      );
      expect(file, `the excerpt of ${path}`).not.toBeNull();
      expect(Math.ceil((file?.[1] ?? '').length / 4)).toBeLessThanOrEqual(EXCERPT_TOKENS);
    }
    expect(byCall('refine')[0]?.body.messages[0]?.content).toMatch(
      /0\.95 src\/auth\/tokens\.ts — issueAccessToken\(\)/,
    );
    // The planner's system text, overview and task included, is the same for the first query and
    // every refinement, so the refinements read it from the cache the first query wrote.
    expect(byCall('refine')[0]?.body.system).toEqual(byCall('initial-query')[0]?.body.system);
    expect(byCall('initial-query')[0]?.body.system[0]?.text).toContain(
      'Each path with the symbols it exports',
    );
  });

  it('adds up usage and cost per cycle and per run', async () => {
    const { pack } = await claudeRun(RATE_LIMIT_TASK);
    // The planner's prefix passes Sonnet's minimum: the first query writes it, the refinement
    // reads it. The evaluator's is below Haiku's, so evaluations neither read nor write.
    expect(pack.usage.cacheWriteTokens).toBeGreaterThan(1024);
    expect(pack.usage.cacheReadTokens).toBe(pack.usage.cacheWriteTokens);
    const sum = (field: 'calls' | 'inputTokens' | 'outputTokens' | 'costUsd') =>
      pack.trace.reduce((total, cycle) => total + cycle.usage[field], 0);
    expect(pack.usage.inputTokens).toBeGreaterThan(0);
    expect(sum('calls')).toBe(pack.usage.calls);
    expect(sum('inputTokens')).toBe(pack.usage.inputTokens);
    expect(sum('outputTokens')).toBe(pack.usage.outputTokens);
    expect(sum('costUsd')).toBeCloseTo(pack.usage.costUsd, 10);
    expect(pack.usage.costUsd).toBeLessThan(0.5);
  });
});
