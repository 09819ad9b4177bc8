import pLimit from 'p-limit';
import type { Logger } from 'pino';
import type { ZodType } from 'zod';
import type { Candidate } from '../dispatch/candidate.js';
import { dispatch } from '../dispatch/dispatch.js';
import type { Workspace } from '../dispatch/workspace.js';
import { JudgeError } from '../errors.js';
import {
  evaluationSchema,
  type Evaluation,
  type Judge,
  type JudgedFile,
  type RepoOverview,
} from '../judges/judge.js';
import type { CycleTrace } from '../output/context-pack.js';
import { querySchema, type Query } from '../query.js';
import type { ProgressEvent } from './progress.js';
import { firstStopReason, type StopReason, type StopRuleOptions } from './stop-rules.js';

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
  const issue = result.error.issues[0];
  throw new JudgeError(
    `judge \`${judge.name}\` returned an invalid ${subject}: ${issue?.path.join('.') || 'value'} ${issue?.message ?? ''}`.trim(),
    { cause: result.error, call },
  );
}

/** DISPATCH → EVALUATE → REFINE, until a stop rule answers. The judge proposes; this decides. */
export async function runLoop({
  task,
  judge,
  workspace,
  overview,
  options,
  logger,
}: LoopInput): Promise<LoopOutcome> {
  const { signal, onProgress } = options;
  const timings = { dispatchMs: 0, evaluateMs: 0, refineMs: 0 };
  const judged: JudgedFile[] = [];
  const trace: CycleTrace[] = [];
  const limit = pLimit(options.concurrency);

  let started = performance.now();
  let query: Query = validated(
    querySchema,
    await judge.initialQuery(task, overview, signal),
    judge,
    'initial-query',
    'initial query',
  );
  timings.refineMs += performance.now() - started;

  for (let cycle = 1; ; cycle++) {
    if (signal?.aborted) return { judged, trace, stopReason: 'aborted', timings };
    const cycleStarted = performance.now();
    onProgress?.({ type: 'cycle-start', cycle, query });
    const log = logger.child({ cycle });

    started = performance.now();
    const skip = new Set(judged.map((file) => file.path));
    const found = dispatch(query, workspace, {
      skip,
      limit: options.maxCandidatesPerCycle,
      excerptTokens: options.excerptTokens,
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
    const earlier = [...judged];
    const context = {
      cycle,
      candidatePaths: new Set(found.candidates.map((candidate) => candidate.path)),
      judged: earlier,
      candidates: found.candidates,
      signal,
    };
    let done = 0;
    const results = await Promise.all(
      found.candidates.map((candidate: Candidate) =>
        limit(async (): Promise<JudgedFile | undefined> => {
          if (signal?.aborted) return undefined;
          const evaluation: Evaluation = validated(
            evaluationSchema,
            await judge.evaluate(task, candidate, context),
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
      { completedCycles: cycle, judged, lastFresh: found.fresh, aborted: signal?.aborted ?? false },
      options,
    );
    if (stopReason) {
      entry.durationMs = performance.now() - cycleStarted;
      return { judged, trace, stopReason, timings };
    }

    started = performance.now();
    query = validated(
      querySchema,
      await judge.refine(task, judged, query, { cycle, overview, signal }),
      judge,
      'refine',
      'refined query',
    );
    timings.refineMs += performance.now() - started;
    entry.refinement = query;
    entry.durationMs = performance.now() - cycleStarted;
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
