import { testLedger } from '../support/test-ledger.js';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { describeWorkspace } from '../../src/repository/overview.js';
import { openWorkspace, type Workspace } from '../../src/repository/workspace.js';
import { JudgeError } from '../../src/errors.js';
import type { Judge } from '../../src/judges/judge.js';
import { runLoop, type LoopOptions } from '../../src/loop/run-loop.js';
import {
  highlyRelevantFiles,
  judgeSaysSufficient,
  noNewRelevantFiles,
} from '../../src/loop/stop-conditions.js';
import { createRepository } from '../support/repository-factory.js';
import { createScriptedJudge, type Script } from '../support/scripted-judge.js';

const FILES = {
  'src/alpha.ts': 'export function alpha() { return beta(); }\n',
  'src/beta.ts': 'export function beta() { return 1; }\n',
  'src/gamma.ts': 'export const gamma = "alpha beta";\n',
  'src/delta.ts': 'export const delta = "delta";\n',
  'src/epsilon.ts': 'export const epsilon = "alpha";\n',
};

const OPTIONS: LoopOptions = {
  maxCycles: 3,
  threshold: 0.7,
  stopWhen: [highlyRelevantFiles(2)],
  minRelevance: 0.5,
  maxCandidatesPerCycle: 30,
  excerptTokens: 200,
  concurrency: 4,
};

/** The calls of a first cycle whose query is `alpha`: the plan, then the three files it finds. */
const FIRST_CYCLE = [
  'initial',
  'evaluate src/alpha.ts',
  'evaluate src/epsilon.ts',
  'evaluate src/gamma.ts',
];

let repository: Awaited<ReturnType<typeof createRepository>>;
let workspace: Workspace;

beforeEach(async () => {
  repository = await createRepository(FILES);
  workspace = await openWorkspace(repository.root, { maxFileBytes: 1e6, maxFiles: 1000 });
});
afterEach(() => repository.remove());

function run(judge: Judge, options: Partial<LoopOptions> = {}) {
  return runLoop({
    task: 'task',
    judge,
    workspace,
    overview: describeWorkspace(workspace),
    options: { ...OPTIONS, ...options },
    ledger: testLedger(),
    logger: pino({ level: 'silent' }),
  });
}

describe('runLoop', () => {
  it.each<
    [string, Script, Partial<LoopOptions>, { stop: string; cycles: number; calls: string[] }]
  >([
    [
      'stops early and keeps the files found in earlier cycles',
      {
        initial: { keywords: ['alpha'] },
        verdicts: { 'src/alpha.ts': 0.9, 'src/gamma.ts': 0.4, 'src/epsilon.ts': 0.3 },
        refinements: [{ keywords: ['beta'] }],
        fallback: 0.8,
      },
      {},
      {
        stop: 'min-files',
        cycles: 2,
        calls: [...FIRST_CYCLE, 'refine', 'evaluate src/beta.ts'],
      },
    ],
    [
      'stops at the cycle cap',
      {
        initial: { keywords: ['alpha'] },
        verdicts: {},
        fallback: 0.4,
        refinements: [{ keywords: ['beta'] }, { keywords: ['delta'] }],
      },
      {},
      {
        stop: 'max-cycles',
        cycles: 3,
        calls: [
          ...FIRST_CYCLE,
          'refine',
          'evaluate src/beta.ts',
          'refine',
          'evaluate src/delta.ts',
        ],
      },
    ],
    [
      'stops when a refinement finds nothing new',
      {
        initial: { keywords: ['alpha'] },
        verdicts: {},
        fallback: 0.4,
        refinements: [{ keywords: ['alpha'] }],
      },
      {},
      {
        stop: 'no-new-candidates',
        cycles: 2,
        calls: [...FIRST_CYCLE, 'refine'],
      },
    ],
    [
      'never judges a file twice, excluded ones included',
      {
        initial: { keywords: ['alpha'] },
        verdicts: { 'src/alpha.ts': 0.1, 'src/gamma.ts': 0.1, 'src/epsilon.ts': 0.1 },
        refinements: [{ keywords: ['alpha', 'beta'] }, { keywords: ['alpha', 'beta', 'delta'] }],
        fallback: 0.3,
      },
      {},
      {
        stop: 'max-cycles',
        cycles: 3,
        calls: [
          ...FIRST_CYCLE,
          'refine',
          'evaluate src/beta.ts',
          'refine',
          'evaluate src/delta.ts',
        ],
      },
    ],
    [
      'searches a critical gap before calling the context sufficient',
      {
        initial: { keywords: ['alpha'] },
        verdicts: {
          'src/alpha.ts': {
            relevance: 0.9,
            reason: 'calls beta',
            missingContext: ['src/beta.ts (beta)'],
          },
          'src/gamma.ts': 0.8,
          'src/epsilon.ts': 0.2,
        },
        refinements: [{ patterns: ['**/*', 'src/beta.ts'], keywords: ['alpha'] }],
        fallback: 0.3,
      },
      {},
      {
        stop: 'min-files',
        cycles: 2,
        calls: [...FIRST_CYCLE, 'refine', 'evaluate src/beta.ts'],
      },
    ],
    [
      'judges at most maxCandidatesPerCycle files a cycle, best ranked first',
      { initial: { keywords: ['alpha'] }, verdicts: {}, fallback: 0.9 },
      { maxCandidatesPerCycle: 1, maxCycles: 1 },
      { stop: 'max-cycles', cycles: 1, calls: ['initial', 'evaluate src/alpha.ts'] },
    ],
    [
      'stops when the refiner says the context is sufficient, without running its query',
      {
        initial: { keywords: ['alpha'] },
        verdicts: { 'src/alpha.ts': 0.9 },
        refinements: [{ keywords: ['beta'], sufficient: true }],
      },
      { stopWhen: [judgeSaysSufficient(), noNewRelevantFiles()] },
      {
        stop: 'sufficient',
        cycles: 1,
        calls: [...FIRST_CYCLE, 'refine'],
      },
    ],
    [
      'stops when a cycle adds no highly relevant file, without refining it',
      {
        initial: { keywords: ['alpha'] },
        verdicts: { 'src/alpha.ts': 0.9, 'src/beta.ts': 0.5 },
        refinements: [{ keywords: ['beta'] }],
      },
      { stopWhen: [judgeSaysSufficient(), noNewRelevantFiles()] },
      {
        stop: 'no-new-relevant',
        cycles: 2,
        calls: [...FIRST_CYCLE, 'refine', 'evaluate src/beta.ts'],
      },
    ],
    [
      'runs every cycle with no stop conditions',
      {
        initial: { keywords: ['alpha'] },
        verdicts: {},
        fallback: 0.9,
        refinements: [
          { keywords: ['beta'], sufficient: true },
          { keywords: ['delta'], sufficient: true },
        ],
      },
      { stopWhen: [] },
      {
        stop: 'max-cycles',
        cycles: 3,
        calls: [
          ...FIRST_CYCLE,
          'refine',
          'evaluate src/beta.ts',
          'refine',
          'evaluate src/delta.ts',
        ],
      },
    ],
  ])('%s', async (_name, script, options, expected) => {
    const judge = createScriptedJudge(script);
    const outcome = await run(judge, options);
    expect(outcome.stopReason).toBe(expected.stop);
    expect(outcome.trace).toHaveLength(expected.cycles);
    expect(judge.calls).toEqual(expected.calls);
  });

  it('records every cycle: query, counts, kept, excluded and the refinement', async () => {
    const judge = createScriptedJudge({
      initial: { keywords: ['alpha'] },
      verdicts: { 'src/alpha.ts': 0.9, 'src/gamma.ts': 0.5, 'src/epsilon.ts': 0.1 },
      refinements: [{ keywords: ['beta'] }],
      fallback: 0.9,
    });
    const { trace, judged } = await run(judge);
    expect(trace[0]).toMatchObject({
      cycle: 1,
      query: { keywords: ['alpha'] },
      candidatesFound: 3,
      newCandidates: 3,
      kept: ['src/alpha.ts', 'src/gamma.ts'],
      excluded: ['src/epsilon.ts'],
      refinement: { keywords: ['beta'] },
      verdict: { sufficient: false, missing: [], reason: 'scripted' },
    });
    // beta.ts was found by the refinement; alpha.ts matches "beta" too but is not judged again.
    expect(trace[1]).toMatchObject({
      cycle: 2,
      candidatesFound: 3,
      newCandidates: 1,
      evaluated: ['src/beta.ts'],
      refinement: null,
      verdict: null,
    });
    expect(judged.map((file) => [file.path, file.cycle])).toContainEqual(['src/alpha.ts', 1]);
  });

  it('never has more evaluations in flight than the concurrency limit', async () => {
    let inFlight = 0;
    let peak = 0;
    const base = createScriptedJudge({
      initial: { keywords: ['export'] },
      verdicts: {},
      fallback: 0.1,
    });
    const judge: Judge = {
      ...base,
      async evaluate(task, candidate, context) {
        peak = Math.max(peak, ++inFlight);
        await new Promise((resolve) => setTimeout(resolve, 5));
        inFlight--;
        return base.evaluate(task, candidate, context);
      },
    };
    await run(judge, { concurrency: 2, maxCycles: 1 });
    expect(peak).toBe(2);
  });

  it('stops with "aborted" and keeps what it has when the signal fires', async () => {
    const controller = new AbortController();
    const base = createScriptedJudge({
      initial: { keywords: ['alpha'] },
      verdicts: {},
      fallback: 0.9,
      refinements: [{ keywords: ['beta'] }],
    });
    const judge: Judge = {
      ...base,
      async evaluate(task, candidate, context) {
        controller.abort();
        return base.evaluate(task, candidate, context);
      },
    };
    const outcome = await run(judge, { concurrency: 1, signal: controller.signal });
    expect(outcome.stopReason).toBe('aborted');
    expect(outcome.judged.map((file) => file.path)).toEqual(['src/alpha.ts']);
  });

  it('rejects a judge verdict outside 0–1 with a JudgeError naming the file', async () => {
    const judge = createScriptedJudge({
      initial: { keywords: ['beta'] },
      verdicts: { 'src/beta.ts': 1.5 },
      fallback: 0.1,
    });
    await expect(run(judge, { maxCycles: 1 })).rejects.toThrow(JudgeError);
    await expect(run(judge, { maxCycles: 1 })).rejects.toThrow(
      /evaluation of src\/(alpha|beta)\.ts: relevance/,
    );
  });
});
