import pLimit from 'p-limit';
import type { Candidate } from '../contracts/candidate.js';
import { type JudgedFile, evaluationSchema } from '../contracts/evaluation.js';
import type { JudgeContext } from '../judges/judge.js';
import { stopReasonOf, validated, type Run } from './run.js';
import type { StopReason } from './stop-conditions.js';

export interface Evaluated {
  fresh: JudgedFile[];
  /** Why calls were stopped before all candidates were judged (a budget, an abort). */
  halted: StopReason | undefined;
}

/**
 * EVALUATE: every candidate judged, fanned out under the concurrency limit. A budget or an abort
 * stops the calls not yet started (calls in flight finish or abort); any other failure of a call
 * fails the run, since the judge has already fallen back where it could.
 */
export async function evaluateCandidates(
  run: Run,
  cycle: number,
  candidates: readonly Candidate[],
): Promise<Evaluated> {
  const { judge, task, options, ledger } = run.input;
  const { signal, onProgress } = options;
  const limit = pLimit(options.concurrency);
  const context: JudgeContext = {
    cycle,
    overview: run.input.overview,
    candidatePaths: new Set(candidates.map((candidate) => candidate.path)),
    judged: [...run.judged],
    candidates,
    ledger,
    signal,
  };
  let halted: StopReason | undefined;
  let done = 0;
  const results = await Promise.all(
    candidates.map((candidate) =>
      limit(async (): Promise<JudgedFile | undefined> => {
        if (halted || signal?.aborted) return undefined;
        try {
          const evaluation = validated(
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
            total: candidates.length,
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
  return {
    fresh: results.filter((result): result is JudgedFile => result !== undefined),
    halted,
  };
}
