import { dispatch, type DispatchResult } from '../dispatch/dispatch.js';
import { letDueTimersFire } from '../deadline.js';
import { querySchema, type Query } from '../contracts/query.js';
import { refinementSchema, type Verdict } from '../contracts/refinement.js';
import type { CycleTrace } from './cycle-trace.js';
import { evaluateCandidates } from './evaluate-candidates.js';
import {
  endRun,
  startRun,
  stopReasonOf,
  validated,
  type LoopInput,
  type LoopOutcome,
  type Run,
} from './run.js';
import { stopReason, type StopReason } from './stop-conditions.js';

export type { LoopInput, LoopOptions, LoopOutcome } from './run.js';

/** Below this relevance a file is irrelevant and excluded for good (the rubric's lowest band). */
export const EXCLUSION_THRESHOLD = 0.2;

/**
 * The loop: plan a first query, then DISPATCH → EVALUATE → REFINE until a stop condition or a
 * limit answers. The judge proposes; this decides.
 */
export async function runLoop(input: LoopInput): Promise<LoopOutcome> {
  const run = startRun(input);
  const first = await planFirstQuery(run);
  if (typeof first === 'string') return endRun(run, first);
  let query = first;
  for (let cycle = 1; ; cycle++) {
    await letDueTimersFire();
    if (input.options.signal?.aborted) return endRun(run, 'aborted');
    const started = performance.now();
    const found = await orStop(run, () => dispatchCycle(run, cycle, query));
    if (typeof found === 'string') return endRun(run, found);
    const { entry, halted } = await evaluateCycle(run, cycle, query, found);
    const next = await refineOrStop(run, entry, found, halted);
    entry.durationMs = performance.now() - started;
    if (typeof next === 'string') return endRun(run, next);
    query = next;
  }
}

/** A judge call that ends the run (a budget, an abort) gives its reason; any other failure throws. */
async function orStop<T>(run: Run, call: () => Promise<T>): Promise<T | StopReason> {
  try {
    return await call();
  } catch (error) {
    const reason = stopReasonOf(error, run.input.options.signal, run.input.ledger);
    if (reason) return reason;
    throw error;
  }
}

async function timed<T>(run: Run, phase: keyof Run['timings'], step: () => Promise<T>) {
  const started = performance.now();
  try {
    return await step();
  } finally {
    run.timings[phase] += performance.now() - started;
  }
}

/** The judge plans cycle 1's search; its call counts in cycle 1. */
function planFirstQuery(run: Run): Promise<Query | StopReason> {
  const { judge, task, overview, ledger, options } = run.input;
  ledger.setCycle(1);
  return timed(run, 'refineMs', () =>
    orStop(run, async () =>
      validated(
        querySchema,
        await judge.initialQuery(task, overview, { ledger, signal: options.signal }),
        judge,
        'initial-query',
        'initial query',
      ),
    ),
  );
}

/** DISPATCH: the query's best candidates not judged before. */
async function dispatchCycle(run: Run, cycle: number, query: Query): Promise<DispatchResult> {
  const { judge, workspace, ledger, options, logger } = run.input;
  ledger.setCycle(cycle);
  options.onProgress?.({ type: 'cycle-start', cycle, query });
  const found = await timed(run, 'dispatchMs', () =>
    dispatch(query, workspace, {
      skip: new Set(run.judged.map((file) => file.path)),
      limit: options.maxCandidatesPerCycle,
      excerptTokens: options.excerptTokens,
      excerpts: judge.readsExcerpts !== false,
      signal: options.signal,
    }),
  );
  const counts = { found: found.found, fresh: found.fresh, evaluating: found.candidates.length };
  options.onProgress?.({ type: 'dispatched', cycle, ...counts });
  logger.info({ cycle, ...counts, keywords: query.keywords.length }, 'dispatched');
  return found;
}

/** EVALUATE the cycle's candidates and record the cycle in the trace. */
async function evaluateCycle(run: Run, cycle: number, query: Query, found: DispatchResult) {
  const { options, logger } = run.input;
  const { fresh, halted } = await timed(run, 'evaluateMs', () =>
    evaluateCandidates(run, cycle, found.candidates),
  );
  run.judged.push(...fresh);
  const entry: CycleTrace = {
    cycle,
    query,
    candidatesFound: found.found,
    newCandidates: found.fresh,
    evaluated: fresh.map((file) => file.path),
    kept: fresh.filter((file) => file.relevance >= options.minRelevance).map((file) => file.path),
    excluded: fresh.filter((file) => file.relevance < EXCLUSION_THRESHOLD).map((file) => file.path),
    refinement: null,
    verdict: null,
    usage: run.input.ledger.totals(cycle),
    durationMs: 0,
  };
  run.trace.push(entry);
  const high = run.judged.filter((file) => file.relevance >= options.threshold).length;
  const counts = { kept: entry.kept.length, excluded: entry.excluded.length };
  options.onProgress?.({ type: 'cycle-end', cycle, ...counts, high });
  logger.info(
    { cycle, evaluated: entry.evaluated.length, ...counts, highRelevanceHeld: high },
    'evaluated',
  );
  return { entry, halted };
}

/**
 * REFINE, or stop: the limits and the stop conditions are asked before the refiner is called
 * (a run that is done costs no refinement), and the conditions once more with its verdict.
 */
async function refineOrStop(
  run: Run,
  entry: CycleTrace,
  found: DispatchResult,
  halted: StopReason | undefined,
): Promise<Query | StopReason> {
  const { judge, task, overview, ledger, options, logger } = run.input;
  const { cycle } = entry;
  const decide = (verdict: Verdict | undefined) =>
    stopReason(
      { completedCycles: cycle, judged: run.judged, threshold: options.threshold, verdict },
      {
        maxCycles: options.maxCycles,
        aborted: options.signal?.aborted ?? false,
        budgetSpent: halted === 'budget',
        lastFresh: found.fresh,
      },
      options.stopWhen,
    );
  const before = decide(undefined);
  if (before) return before;
  const refinement = await timed(run, 'refineMs', () =>
    orStop(run, async () =>
      validated(
        refinementSchema,
        await judge.refine(task, run.judged, entry.query, {
          cycle,
          overview,
          ledger,
          signal: options.signal,
        }),
        judge,
        'refine',
        'refinement',
      ),
    ),
  );
  entry.usage = ledger.totals(cycle);
  if (typeof refinement === 'string') return refinement;
  const { verdict, ...query } = refinement;
  entry.refinement = query;
  entry.verdict = verdict;
  logger.info(
    {
      cycle,
      keywords: query.keywords.length,
      patterns: query.patterns.length,
      focusAreas: query.focusAreas,
      sufficient: verdict.sufficient,
    },
    'refined',
  );
  return decide(verdict) ?? query;
}
