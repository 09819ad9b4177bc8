import { join } from 'node:path';
import { delay } from 'msw';
import { describe, expect, it } from 'vitest';
import { JudgeError } from '../../src/errors.js';
import { createClaudeJudge } from '../../src/judges/claude/claude-judge.js';
import { createHeuristicJudge } from '../../src/judges/heuristic/heuristic-judge.js';
import type { Judge } from '../../src/judges/judge.js';
import type { ModelClient } from '../../src/llm/anthropic-client.js';
import type { RetrievalOptions } from '../../src/options.js';
import { loadPrompts } from '../../src/prompts.js';
import { iterativeRetrieve } from '../../src/retrieve.js';
import {
  answer,
  answerText,
  apiError,
  bufferingFetch,
  mockMessages,
  testClient,
  useMockApi,
  type ApiTokens,
  type CallKind,
  type Received,
} from '../support/msw-anthropic.js';
import type { Evaluation } from '../../src/contracts/evaluation.js';

const server = useMockApi();

const ROOT = join(import.meta.dirname, '../fixtures/example-service');
const TASK = 'Fix the authentication token expiry bug';
const FIRST_QUERY = {
  patterns: ['src/**/*.ts'],
  keywords: ['token', 'expiry', 'session', 'auth', 'user', 'request', 'error'],
  excludes: [],
  focusAreas: ['src/auth'],
};
const REFINED_QUERY = {
  ...FIRST_QUERY,
  keywords: ['refreshToken', 'expiresAt', 'order'],
  verdict: { sufficient: false, missing: ['the token store'], reason: 'no store found yet' },
};
/** Claude's verdict in these tests: auth files are relevant, the rest tangential. */
const verdict = (path: string, relevance = path.startsWith('src/auth/') ? 0.9 : 0.3) => ({
  relevance,
  reason: `mocked verdict on ${path}`,
  missingContext: [],
});

type Respond = (received: Received) => Response | undefined | Promise<Response | undefined>;

/** The mock API: each kind of call answered by `overrides`, or else by a valid answer. */
function api(overrides: Partial<Record<CallKind, Respond>> = {}): Received[] {
  return mockMessages(server, async (received) => {
    const custom = await overrides[received.kind]?.(received);
    if (custom) return custom;
    const model = received.request.model;
    if (received.kind === 'evaluate') return answer(verdict(received.path), { model });
    return answer(received.kind === 'refine' ? REFINED_QUERY : FIRST_QUERY, { model });
  });
}

const ofKind = (received: Received[], kind: CallKind) => received.filter((r) => r.kind === kind);

/** Runs the Claude judge on the example; the offline fallback's verdicts are recorded. */
async function run(options: RetrievalOptions = {}, client: ModelClient = testClient()) {
  const heuristic = createHeuristicJudge();
  const offline = new Map<string, Evaluation>();
  const fallback: Judge = {
    ...heuristic,
    evaluate: async (task, candidate, context) => {
      const evaluation = await heuristic.evaluate(task, candidate, context);
      offline.set(candidate.path, evaluation);
      return evaluation;
    },
  };
  const judge = createClaudeJudge({ client, prompts: await loadPrompts(), fallback });
  const pack = await iterativeRetrieve(TASK, { root: ROOT, judge, maxCycles: 1, ...options });
  return { pack, offline };
}

const TOKENS = 'src/auth/tokens.ts';
const NO_RETRY = { 'x-should-retry': 'false' };
type JudgeCall = Exclude<CallKind, 'unknown'>;
const tokens = (input: number, output: number, cacheWrite: number, cacheRead: number) => ({
  input_tokens: input,
  output_tokens: output,
  cache_creation_input_tokens: cacheWrite,
  cache_read_input_tokens: cacheRead,
});
/** Usage each kind of call reports in the cost test. */
const USAGE: Record<JudgeCall, ApiTokens> = {
  'initial-query': tokens(300, 100, 2000, 0),
  evaluate: tokens(200, 50, 0, 1000),
  refine: tokens(400, 150, 0, 2000),
};
const refusal = (model: string) =>
  answerText('I cannot help with that.', { stopReason: 'refusal', model });

describe('the Claude judge in a run', () => {
  it('goes on when some evaluate calls fail: those files keep the offline score, unevaluated', async () => {
    const failing = ['src/auth/tokens.ts', 'src/routes/auth.ts'];
    const received = api({
      evaluate: ({ path }) => (failing.includes(path) ? apiError(500, NO_RETRY) : undefined),
    });
    const client = testClient({ maxRetries: 2, fetch: bufferingFetch });
    const { pack, offline } = await run({}, client);

    expect(pack.evaluated).toHaveLength(12);
    expect([...offline.keys()].sort()).toEqual(failing);
    for (const file of pack.evaluated) {
      if (failing.includes(file.path)) {
        expect(file).toMatchObject({
          unevaluated: true,
          relevance: offline.get(file.path)?.relevance,
        });
        expect(file.reason).toMatch(/^not judged by Claude/);
        expect(ofKind(received, 'evaluate').filter((r) => r.path === file.path)).toHaveLength(1);
      } else {
        expect(file).toMatchObject({ ...verdict(file.path), unevaluated: false });
      }
    }
    expect(pack.warnings).toContainEqual(
      expect.stringMatching(/^2 of 12 files could not be judged/),
    );
  });

  it.each<[string, ((model: string) => Response)[], boolean]>([
    [
      'a refusal, then a valid answer',
      [refusal, (model) => answer(verdict(TOKENS, 0.8), { model })],
      false,
    ],
    [
      'a refusal, then text that is not JSON',
      [refusal, (model) => answerText('Relevant.', { model })],
      true,
    ],
    [
      'relevance 1.5 twice',
      [1, 2].map(() => (model) => answer(verdict(TOKENS, 1.5), { model })),
      true,
    ],
    [
      'relevance -0.2 twice',
      [1, 2].map(() => (model) => answer(verdict(TOKENS, -0.2), { model })),
      true,
    ],
  ])('asks once more after %s', async (_label, answers, unevaluated) => {
    const path = TOKENS;
    let attempt = 0;
    const received = api({
      evaluate: (r) => (r.path === path ? answers[attempt++]?.(r.request.model) : undefined),
    });
    const { pack } = await run();

    expect(ofKind(received, 'evaluate').filter((r) => r.path === path)).toHaveLength(2);
    const file = pack.evaluated.find((f) => f.path === path);
    expect(file?.unevaluated).toBe(unevaluated);
    if (!unevaluated) expect(file?.relevance).toBe(0.8);
    for (const f of pack.evaluated) expect(f.relevance >= 0 && f.relevance <= 1).toBe(true);
    expect(pack.usage.calls).toBe(received.length);
  });

  it.each([1, 4])(
    'ends the run on a 401, naming ANTHROPIC_API_KEY, with no call after it (concurrency %i)',
    async (concurrency) => {
      const received = api({ evaluate: () => apiError(401) });
      const error: unknown = await run({ concurrency }).catch((caught: unknown) => caught);

      expect(error).toBeInstanceOf(JudgeError);
      expect(error).toMatchObject({
        call: 'evaluate',
        message: expect.stringMatching(/ANTHROPIC_API_KEY/),
      });
      const evaluateCalls = ofKind(received, 'evaluate').length;
      if (concurrency === 1) expect(evaluateCalls).toBe(1);
      expect(evaluateCalls).toBeLessThanOrEqual(concurrency);
      await delay(100);
      expect(ofKind(received, 'evaluate')).toHaveLength(evaluateCalls);
    },
  );

  // A body cut off on the way used to escape as a SyntaxError: exit 5 and no output at all.
  it('treats a body that is not valid JSON as a failed call: asked again, then offline', async () => {
    const cutOff = () =>
      new Response('{"id":"msg_01","type":"message","content":[{"type":"te', {
        status: 200,
        headers: { 'content-type': 'application/json' },
      });
    const broken = new Set(['src/auth/tokens.ts', 'src/routes/auth.ts']);
    const received = api({ evaluate: ({ path }) => (broken.has(path) ? cutOff() : undefined) });
    const { pack } = await run();

    for (const path of broken) {
      expect(ofKind(received, 'evaluate').filter((r) => r.path === path)).toHaveLength(2);
      const file = pack.evaluated.find((f) => f.path === path);
      expect(file?.unevaluated).toBe(true);
      expect(file?.reason).toMatch(/not valid JSON/);
    }
    expect(pack.evaluated.filter((file) => !file.unevaluated)).toHaveLength(10);
  });

  it('stops asking after 3 calls in a row have failed, and judges the rest offline', async () => {
    const received = api({ evaluate: () => apiError(500, NO_RETRY) });
    const { pack } = await run({ concurrency: 1 });

    expect(ofKind(received, 'evaluate')).toHaveLength(3);
    expect(pack.evaluated).toHaveLength(12);
    expect(pack.evaluated.every((file) => file.unevaluated)).toBe(true);
    expect(pack.warnings).toContainEqual(
      expect.stringMatching(/the API failed 3 calls in a row \(last: the API answered 500/),
    );
  });

  it('stops asking after 3 calls in a row gave nothing usable, each asked twice', async () => {
    const received = api({ evaluate: () => answerText('The file is relevant.') });
    const { pack } = await run({ concurrency: 1 });

    expect(ofKind(received, 'evaluate')).toHaveLength(6);
    expect(pack.evaluated.every((file) => file.unevaluated)).toBe(true);
    expect(pack.warnings).toContainEqual(expect.stringMatching(/failed 3 calls in a row/));
  });

  it('leaves out the blank strings of a query, rather than ending the run', async () => {
    const received = api({
      'initial-query': ({ request }) =>
        answer(
          { ...FIRST_QUERY, keywords: ['token', '', ' '], patterns: [' ', 'src/**/*.ts'] },
          { model: request.model },
        ),
    });
    const { pack } = await run({ maxCycles: 1 });
    expect(ofKind(received, 'initial-query')).toHaveLength(1);
    expect(pack.trace[0]?.query.keywords).toEqual(['token']);
    expect(pack.trace[0]?.query.patterns).toEqual(['src/**/*.ts']);
  });

  it('cuts a reason and missing context past their bounds', async () => {
    api({
      evaluate: (r) =>
        answer(
          {
            ...verdict(r.path),
            reason: 'x'.repeat(100_000),
            missingContext: Array(100).fill('y'.repeat(1_000)),
          },
          { model: r.request.model },
        ),
    });
    const { pack } = await run({ maxCycles: 1 });
    const [file] = pack.evaluated;
    expect(file?.reason.length).toBeLessThanOrEqual(2_000);
    expect(file?.missingContext.length).toBeLessThanOrEqual(20);
    expect(file?.missingContext.every((gap) => gap.length <= 500)).toBe(true);
  });

  it('refines offline, with a warning, when the refine call fails', async () => {
    const received = api({
      evaluate: (r) => answer(verdict(r.path, 0.3), { model: r.request.model }),
      refine: () => apiError(500, NO_RETRY),
    });
    const { pack } = await run({ maxCycles: 2 });

    expect(ofKind(received, 'refine')).toHaveLength(1);
    expect(pack.trace).toHaveLength(2);
    expect(pack.trace[0]?.refinement).not.toBeNull();
    // The offline judge's verdict, not the mock's.
    expect(pack.trace[0]?.verdict?.reason).toMatch(/rated 0\.7 or more/);
    expect(pack.warnings).toContainEqual(
      expect.stringMatching(/refinement of cycle 1 failed.*the offline judge refined it/),
    );
  });

  it('plans the first search offline, with a warning, when the initial-query call fails', async () => {
    api({ 'initial-query': () => apiError(500, NO_RETRY) });
    const { pack } = await run();
    const offline = await iterativeRetrieve(TASK, { root: ROOT, maxCycles: 1 });

    expect(pack.trace[0]?.query).toEqual(offline.trace[0]?.query);
    expect(pack.evaluated.length).toBeGreaterThan(0);
    expect(pack.warnings).toContainEqual(
      expect.stringMatching(
        /initial query call failed.*the offline judge planned the first search/,
      ),
    );
  });

  it('keeps at most `concurrency` calls in flight and runs them side by side', async () => {
    const latency = 150;
    let inFlight = 0;
    let most = 0;
    api({
      evaluate: async (r) => {
        most = Math.max(most, ++inFlight);
        await delay(latency);
        inFlight--;
        return answer(verdict(r.path), { model: r.request.model });
      },
    });
    const { pack } = await run({ concurrency: 3, maxCandidatesPerCycle: 9 });

    expect(pack.evaluated).toHaveLength(9);
    expect(most).toBe(3);
    // ⌈9 / 3⌉ rounds of `latency` each: a behaviour check, not a benchmark.
    expect(pack.timings.evaluateMs).toBeGreaterThanOrEqual(3 * latency * 0.9);
    expect(pack.timings.evaluateMs).toBeLessThan(3 * latency * 3);
  });

  it("stops when the refiner's verdict is sufficient, and records the verdict", async () => {
    const sufficient = { sufficient: true, missing: [], reason: 'tokens.ts is the fix' };
    const received = api({
      evaluate: (r) => answer(verdict(r.path), { model: r.request.model }),
      refine: ({ request }) =>
        answer({ ...REFINED_QUERY, verdict: sufficient }, { model: request.model }),
    });
    const { pack } = await run({ maxCycles: 3 });

    expect(ofKind(received, 'refine')).toHaveLength(1);
    expect(pack.stopReason).toBe('sufficient');
    expect(pack.trace).toHaveLength(1);
    // An answer without the picks (as recorded before they existed) names none.
    expect(pack.trace[0]?.verdict).toEqual({ ...sufficient, likelyEdited: [] });
  });

  it('puts the files the refiner picks as the ones the change edits first, in its order', async () => {
    const relevance: Record<string, number> = { 'src/auth/tokens.ts': 0.9 };
    api({
      evaluate: (r) =>
        answer(
          { ...verdict(r.path), relevance: relevance[r.path] ?? 0.5 },
          { model: r.request.model },
        ),
      refine: ({ request }) =>
        answer(
          {
            ...REFINED_QUERY,
            verdict: {
              sufficient: true,
              missing: [],
              reason: 'the session expiry is where the change goes',
              likelyEdited: [
                'src/auth/session-manager.ts',
                'src/not/rated.ts',
                'src/auth/tokens.ts',
              ],
            },
          },
          { model: request.model },
        ),
    });
    const { pack } = await run({ maxCycles: 3 });

    // A path it never rated is passed over; the rest keep the order of their ratings.
    expect(pack.evaluated.slice(0, 2).map((file) => file.path)).toEqual([
      'src/auth/session-manager.ts',
      'src/auth/tokens.ts',
    ]);
    expect(pack.evaluated[2]?.relevance).toBe(0.5);
  });

  it('counts every call: tokens and cost by the built-in prices, per cycle and in total', async () => {
    const received = api({
      evaluate: ({ path, request }) =>
        answer(verdict(path, 0.3), { model: request.model, usage: USAGE.evaluate }),
      'initial-query': ({ request }) =>
        answer(FIRST_QUERY, { model: request.model, usage: USAGE['initial-query'] }),
      refine: ({ request }) => answer(REFINED_QUERY, { model: request.model, usage: USAGE.refine }),
    });
    const { pack } = await run({ maxCycles: 2, maxCandidatesPerCycle: 4 });

    const count = (kind: JudgeCall) => ofKind(received, kind).length;
    expect([count('initial-query'), count('refine'), count('evaluate')]).toEqual([1, 1, 8]);
    for (const r of received)
      expect(r.request.model).toBe(
        r.kind === 'evaluate' ? 'claude-haiku-5-5' : 'claude-sonnet-5-5',
      );
    const total = (field: keyof ApiTokens) =>
      received.reduce((sum, r) => sum + USAGE[r.kind as JudgeCall][field], 0);
    expect(pack.usage).toMatchObject({
      calls: received.length,
      inputTokens: total('input_tokens'),
      outputTokens: total('output_tokens'),
      cacheReadTokens: total('cache_read_input_tokens'),
      cacheWriteTokens: total('cache_creation_input_tokens'),
    });
    // By DEFAULT_PRICES (USD per million tokens): sonnet-5-5 2 in, 10 out, 2.5 cache write, 0.2
    // cache read; haiku-5-5 0.1 in, 0.5 out, 0.01 cache read.
    const initialQuery = (300 * 2 + 100 * 10 + 2000 * 2.5) / 1e6;
    const refine = (400 * 2 + 150 * 10 + 2000 * 0.2) / 1e6;
    const evaluate = (200 * 0.1 + 50 * 0.5 + 1000 * 0.01) / 1e6;
    expect(pack.usage.costUsd).toBeCloseTo(initialQuery + refine + 8 * evaluate, 12);
    const perCycle = pack.trace.map((entry) => entry.usage);
    expect(perCycle).toHaveLength(2);
    for (const field of ['calls', 'inputTokens', 'outputTokens', 'cacheReadTokens'] as const)
      expect(perCycle.reduce((sum, u) => sum + u[field], 0)).toBe(pack.usage[field]);
    expect(perCycle.reduce((sum, u) => sum + u.costUsd, 0)).toBeCloseTo(pack.usage.costUsd, 12);
  });

  it.each<[string, RetrievalOptions, number]>([
    ['maxCalls: 5', { maxCalls: 5 }, 5],
    ['a tiny maxCostUsd', { maxCostUsd: 1e-6 }, 1],
    ['a tiny maxInputTokens', { maxInputTokens: 10 }, 1],
  ])('stops on %s with the files judged before', async (_label, budget, most) => {
    // Tangential verdicts only, so that the run is not already sufficient when the budget runs out.
    const received = api({
      evaluate: (r) => answer(verdict(r.path, 0.3), { model: r.request.model }),
    });
    const { pack } = await run({ ...budget, maxCycles: 3 });

    expect(pack.stopReason).toBe('budget');
    expect(received.length).toBeLessThanOrEqual(most);
    const judged = ofKind(received, 'evaluate').map((r) => r.path);
    expect(pack.evaluated.map((f) => f.path).sort()).toEqual(judged.sort());
    if (most > 1) expect(judged.length).toBeGreaterThan(0);
    expect(pack.warnings).toContainEqual(
      expect.stringMatching(
        /(call|input-token|cost) budget .* the context is what was found before/,
      ),
    );
    expect(pack.warnings.join(' ')).not.toMatch(/no file matched/);
    expect(pack.warnings.join(' ')).not.toMatch(/irrelevant/);
  });

  it('stops as aborted when the signal fires, keeping the files judged before', async () => {
    const controller = new AbortController();
    let evaluations = 0;
    const received = api({
      evaluate: async () => {
        if (++evaluations < 3) return undefined;
        controller.abort();
        await delay(200);
        return undefined;
      },
    });
    const { pack } = await run({ concurrency: 1, signal: controller.signal });

    expect(pack.stopReason).toBe('aborted');
    expect(ofKind(received, 'evaluate')).toHaveLength(3);
    const before = ofKind(received, 'evaluate')
      .slice(0, 2)
      .map((r) => r.path);
    expect(pack.evaluated.map((f) => f.path).sort()).toEqual(before.sort());
    for (const file of pack.evaluated)
      expect(file).toMatchObject({ ...verdict(file.path), unevaluated: false });
  });
});
