import type { Logger } from 'pino';
import type { ZodType } from 'zod';
import type { RepoOverview } from '../contracts/overview.js';
import type { JudgedFile } from '../contracts/evaluation.js';
import { AbortError, BudgetExceededError, describeIssue, JudgeError } from '../errors.js';
import type { Judge } from '../judges/judge.js';
import type { Workspace } from '../repository/workspace.js';
import type { CycleTrace } from './cycle-trace.js';
import type { RunLedger } from './ledger.js';
import type { ProgressEvent } from './progress.js';
import type { StopCondition, StopReason } from './stop-conditions.js';

/** The state one run of the loop carries from step to step. */

export interface LoopOptions {
  maxCycles: number;
  /** Relevance at which a file counts as highly relevant. */
  threshold: number;
  /** When more cycles cannot help; the controller's own limits apply whatever these say. */
  stopWhen: readonly StopCondition[];
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

export interface Run {
  input: LoopInput;
  judged: JudgedFile[];
  trace: CycleTrace[];
  timings: LoopOutcome['timings'];
}

export function startRun(input: LoopInput): Run {
  return { input, judged: [], trace: [], timings: { dispatchMs: 0, evaluateMs: 0, refineMs: 0 } };
}

export function endRun(run: Run, stopReason: StopReason): LoopOutcome {
  return { judged: run.judged, trace: run.trace, stopReason, timings: run.timings };
}

/** A judge's answer checked against its contract; an answer that breaks it fails the call. */
export function validated<T>(
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
export function stopReasonOf(
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
