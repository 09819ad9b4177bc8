import pLimit from 'p-limit';
import type { Logger } from 'pino';
import type { ZodType } from 'zod';
import { dispatch } from '../dispatch/dispatch.js';
import type { Workspace } from '../repository/workspace.js';
import { AbortError, BudgetExceededError, describeIssue, JudgeError } from '../errors.js';
import { type Judge, type JudgeContext } from '../judges/judge.js';
import type { CycleTrace } from './cycle-trace.js';
import { querySchema, type Query } from '../contracts/query.js';
import type { RunLedger } from './ledger.js';
import type { ProgressEvent } from './progress.js';
import { firstStopReason, type StopReason, type StopRuleOptions } from './stop-rules.js';
import { type JudgedFile, evaluationSchema } from '../contracts/evaluation.js';
import { type RepoOverview } from '../contracts/overview.js';

/** Below this relevance a file is irrelevant and excluded for good (the rubric's lowest band). */
export const EXCLUSION_THRESHOLD = 0.2;

export interface LoopOptions extends StopRuleOptions {
  minRelevance: number;
  maxCandidatesPerCycle: number;
  excerptTokens: number;
  concurrency: number;
  signal?: AbortSignal | undefined;
  onProgress?: ((event: ProgressEvent) => void) | undefined;
}

export interface LoopInput {
  task: string;
  judge: Judge;
  workspace: Workspace;
  overview: RepoOverview;
  options: LoopOptions;
  ledger: RunLedger;
  logger: Logger;
}

export interface LoopOutcome {
  judged: JudgedFile[];
  trace: CycleTrace[];
  stopReason: StopReason;
  timings: { dispatchMs: number; evaluateMs: number; refineMs: number };
}

function validated<T>(
  schema: ZodType<T>,
  value: unknown,
  judge: Judge,
  call: JudgeError['call'],
  subject: string,
): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new JudgeError(
    `judge \`${judge.name}\` returned an invalid ${subject}: ${describeIssue(result.error)}`,
    { cause: result.error, call },
  );
}

/**
 * The reason a judge call ends the run without failing it, or undefined when it is a real
 * failure. A budget says which one ran out, in the result's warnings.
 */
function stopReasonOf(
  error: unknown,
  signal: AbortSignal | undefined,
  ledger: RunLedger,
): StopReason | undefined {
  if (error instanceof BudgetExceededError) {
    ledger.warn(`${error.message}: the context is what was found before`);
    return 'budget';
  }
  if (error instanceof AbortError || signal?.aborted) return 'aborted';
  return undefined;
}

/** DISPATCH → EVALUATE → REFINE, until a stop rule answers. The judge proposes; this decides. */
export async function runLoop({
  task,
  judge,
  workspace,
  overview,
  options,
  ledger,
  logger,
}: LoopInput): Promise<LoopOutcome> {
  const { signal, onProgress } = options;
  const timings = { dispatchMs: 0, evaluateMs: 0, refineMs: 0 };
  const judged: JudgedFile[] = [];
  const trace: CycleTrace[] = [];
  const limit = pLimit(options.concurrency);
  const end = (stopReason: StopReason): LoopOutcome => ({ judged, trace, stopReason, timings });

  let started = performance.now();
  // The first query plans cycle 1, so its call counts there.
  ledger.setCycle(1);
  let query: Query;
  try {
    query = validated(
      querySchema,
      await judge.initialQuery(task, overview, { ledger, signal }),
      judge,
      'initial-query',
      'initial query',
    );
  } catch (error) {
    const reason = stopReasonOf(error, signal, ledger);
    if (reason) return end(reason);
    throw error;
  } finally {
    timings.refineMs += performance.now() - started;
  }

  for (let cycle = 1; ; cycle++) {
    if (signal?.aborted) return end('aborted');
    ledger.setCycle(cycle);
    const cycleStarted = performance.now();
    onProgress?.({ type: 'cycle-start', cycle, query });
    const log = logger.child({ cycle });

    started = performance.now();
    const found = await dispatch(query, workspace, {
      skip: new Set(judged.map((file) => file.path)),
      limit: options.maxCandidatesPerCycle,
      excerptTokens: options.excerptTokens,
      excerpts: judge.readsExcerpts !== false,
    });
    timings.dispatchMs += performance.now() - started;
    onProgress?.({
      type: 'dispatched',
      cycle,
      found: found.found,
      fresh: found.fresh,
      evaluating: found.candidates.length,
    });
    log.info(
      {
        found: found.found,
        fresh: found.fresh,
        evaluating: found.candidates.length,
        keywords: query.keywords.length,
      },
      'dispatched',
    );

    started = performance.now();
    const context: JudgeContext = {
      cycle,
      overview,
      candidatePaths: new Set(found.candidates.map((candidate) => candidate.path)),
      judged: [...judged],
      candidates: found.candidates,
      ledger,
      signal,
    };
    // A budget or an abort stops the calls not yet started; calls in flight finish or abort.
    let halted: StopReason | undefined;
    let done = 0;
    const results = await Promise.all(
      found.candidates.map((candidate) =>
        limit(async (): Promise<JudgedFile | undefined> => {
          if (halted || signal?.aborted) return undefined;
          try {
            const answer = await judge.evaluate(task, candidate, context);
            const evaluation = validated(
              evaluationSchema,
              answer,
              judge,
              'evaluate',
              `evaluation of ${candidate.path}`,
            );
            done++;
            onProgress?.({
              type: 'evaluated',
              cycle,
              path: candidate.path,
              relevance: evaluation.relevance,
              done,
              total: found.candidates.length,
            });
            return { ...evaluation, path: candidate.path, cycle, candidate };
          } catch (error) {
            halted = stopReasonOf(error, signal, ledger);
            if (halted) return undefined;
            limit.clearQueue();
            throw error;
          }
        }),
      ),
    );
    timings.evaluateMs += performance.now() - started;
    const fresh = results.filter((result): result is JudgedFile => result !== undefined);
    judged.push(...fresh);

    const entry: CycleTrace = {
      cycle,
      query,
      candidatesFound: found.found,
      newCandidates: found.fresh,
      evaluated: fresh.map((file) => file.path),
      kept: fresh.filter((file) => file.relevance >= options.minRelevance).map((file) => file.path),
      excluded: fresh
        .filter((file) => file.relevance < EXCLUSION_THRESHOLD)
        .map((file) => file.path),
      refinement: null,
      usage: ledger.totals(cycle),
      durationMs: 0,
    };
    trace.push(entry);
    const high = judged.filter((file) => file.relevance >= options.threshold).length;
    onProgress?.({
      type: 'cycle-end',
      cycle,
      kept: entry.kept.length,
      high,
      excluded: entry.excluded.length,
    });
    log.info(
      {
        evaluated: entry.evaluated.length,
        kept: entry.kept.length,
        excluded: entry.excluded.length,
        highRelevanceHeld: high,
      },
      'evaluated',
    );

    const stopReason = firstStopReason(
      {
        completedCycles: cycle,
        judged,
        lastFresh: found.fresh,
        aborted: signal?.aborted ?? false,
        budgetSpent: halted === 'budget',
      },
      options,
    );
    if (stopReason) {
      entry.durationMs = performance.now() - cycleStarted;
      return end(stopReason);
    }

    started = performance.now();
    try {
      query = validated(
        querySchema,
        await judge.refine(task, judged, query, { cycle, overview, ledger, signal }),
        judge,
        'refine',
        'refined query',
      );
    } catch (error) {
      const reason = stopReasonOf(error, signal, ledger);
      if (!reason) throw error;
      return end(reason);
    } finally {
      timings.refineMs += performance.now() - started;
      entry.usage = ledger.totals(cycle);
      entry.durationMs = performance.now() - cycleStarted;
    }
    entry.refinement = query;
    log.info(
      {
        keywords: query.keywords.length,
        patterns: query.patterns.length,
        focusAreas: query.focusAreas,
      },
      'refined',
    );
  }
}
