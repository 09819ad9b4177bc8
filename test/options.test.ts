import { describe, expect, it } from 'vitest';
import { ConfigError, iterativeRetrieve } from '../src/index.js';
import { parseRetrievalOptions } from '../src/options.js';
import { createScriptedJudge } from './support/scripted-judge.js';

describe('retrieval options', () => {
  it('documents its defaults by applying them', () => {
    expect(parseRetrievalOptions({})).toMatchObject({
      root: '.',
      maxCycles: 3,
      threshold: 0.7,
      minFiles: 3,
      minRelevance: 0.5,
      coreRelevance: 0.8,
      maxFiles: 5,
      maxRelated: 10,
      excerptTokens: 600,
      concurrency: 8,
      excludes: [],
      stopWhen: ['sufficient', 'no-new-relevant'],
    });
  });

  it.each([
    [{ maxCycles: 0 }, 'maxCycles'],
    [{ maxCycles: 1.5 }, 'maxCycles'],
    [{ threshold: 1.2 }, 'threshold'],
    [{ minRelevance: -0.1 }, 'minRelevance'],
    [{ coreRelevance: 1.1 }, 'coreRelevance'],
    [{ maxFiles: 0 }, 'maxFiles'],
    [{ maxFiles: 101 }, 'maxFiles'],
    [{ maxRelated: -1 }, 'maxRelated'],
    [{ maxRelated: 51 }, 'maxRelated'],
    [{ concurrency: 0 }, 'concurrency'],
    // More calls in flight only run into the API's rate limits; the CLI and the library agree.
    [{ concurrency: 65 }, 'concurrency'],
    [{ excerptTokens: 10 }, 'excerptTokens'],
    [{ judge: { evaluate: () => 1 } }, 'judge'],
    [{ root: '' }, 'root'],
    [{ timeoutSeconds: 0 }, 'timeoutSeconds'],
    // Beyond what a timer can count, a time limit would overflow into firing at once.
    [{ timeoutSeconds: 1e10 }, 'timeoutSeconds'],
    [{ stopWhen: ['enough'] }, 'stopWhen.0'],
    [{ stopWhen: 'sufficient' }, 'stopWhen'],
  ])('rejects %o naming the option', (options, option) => {
    expect(() => parseRetrievalOptions(options)).toThrow(ConfigError);
    try {
      parseRetrievalOptions(options);
    } catch (error) {
      expect((error as ConfigError).option).toBe(option);
      expect((error as ConfigError).message).toContain(`\`${option}\``);
      expect((error as ConfigError).cause).toBeDefined();
    }
  });

  it('names unknown options', () => {
    expect(() => parseRetrievalOptions({ maxCycle: 2 })).toThrow('unknown option `maxCycle`');
  });

  it("stops when the caller's own condition says so, after the cycle that met it", async () => {
    const pack = await iterativeRetrieve('Fix the token expiry', {
      root: 'test/fixtures/example-service',
      history: false,
      stopWhen: [({ judged }) => judged.length > 0],
    });
    expect(pack.stopReason).toBe('stop-when');
    expect(pack.trace).toHaveLength(1);
  });

  it('stops at `timeoutSeconds` and returns what it has', async () => {
    const judge = {
      name: 'slow',
      initialQuery: async () => ({
        patterns: ['**/*'],
        keywords: ['token'],
        excludes: [],
        focusAreas: [],
      }),
      // An evaluation that only ends when the run's signal fires.
      evaluate: (
        _task: string,
        _candidate: unknown,
        context: { signal?: AbortSignal | undefined },
      ) =>
        new Promise<never>((_resolve, reject) =>
          context.signal?.addEventListener('abort', () => reject(new Error('aborted'))),
        ),
      refine: async () => ({
        patterns: [],
        keywords: [],
        excludes: [],
        focusAreas: [],
        verdict: { sufficient: false, missing: [], reason: 'never called' },
      }),
    };
    const pack = await iterativeRetrieve('Fix the token expiry', {
      root: 'test/fixtures/example-service',
      judge,
      // Long enough for the example to be read on a loaded machine (a limit that fires while
      // reading throws instead: nothing was judged); the judge never answers, so it always fires.
      timeoutSeconds: 1,
      history: false,
    });
    expect(pack.stopReason).toBe('aborted');
  });

  it('stops at `timeoutSeconds` when every step of the run resolves at once', async () => {
    // The first evaluations keep the thread busy past the limit; nothing yields to the event loop.
    let busyUntil = 0;
    const judge = createScriptedJudge({
      initial: { keywords: ['token'] },
      verdicts: {},
      fallback: 0.9,
      refinements: [{ keywords: ['expiry'] }, { keywords: ['refresh'] }],
    });
    const evaluate = judge.evaluate.bind(judge);
    judge.evaluate = (task, candidate, context) => {
      busyUntil ||= performance.now() + 1500;
      while (performance.now() < busyUntil);
      return evaluate(task, candidate, context);
    };
    const pack = await iterativeRetrieve('Fix the token expiry', {
      root: 'test/fixtures/example-service',
      judge,
      timeoutSeconds: 1,
      maxCycles: 3,
      stopWhen: [],
      history: false,
    });
    expect(pack.stopReason).toBe('aborted');
    expect(pack.trace).toHaveLength(1);
  });

  it('fails before any work on an empty task', async () => {
    await expect(iterativeRetrieve('  ', { root: '/nonexistent' })).rejects.toThrow(
      /`task` must be a non-empty/,
    );
  });
});
