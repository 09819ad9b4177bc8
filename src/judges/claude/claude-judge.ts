import { z } from 'zod';
import type { Candidate } from '../../contracts/candidate.js';
import { JudgeError, ModelCallError, ModelOutputError } from '../../errors.js';
import type { ModelClient } from '../../llm/anthropic-client.js';
import { NO_USAGE } from '../../contracts/usage.js';
import { pathAttribute } from '../../text/quote-path.js';
import { renderPrompt, type PromptTemplate, type Prompts } from '../../prompts.js';
import type { Query } from '../../contracts/query.js';
import { verdictSchema, type RefinementAnswer } from '../../contracts/refinement.js';
import { createHeuristicJudge } from '../heuristic/heuristic-judge.js';
import { type CallContext, type Judge } from '../judge.js';
import { escapeFileContent, renderEvaluations, renderQuery } from './render.js';
import { renderOverview } from './overview-text.js';
import { taskDigest } from '../../text/task-digest.js';
import { changePartners } from '../../history/change-partners.js';
import { estimateTokens } from '../../contracts/tokens.js';
import { type Evaluation, type JudgedFile, evaluationSchema } from '../../contracts/evaluation.js';
import { type RepoOverview } from '../../contracts/overview.js';
import type { CallKind } from '../../contracts/ledger.js';

/** Longest reason, gap and most gaps one evaluation may give: a few sentences, a few names. */
const MAX_REASON_LENGTH = 2_000;
const MAX_GAP_LENGTH = 500;
const MAX_GAPS = 20;

export const DEFAULT_EVALUATOR_MODEL = 'claude-haiku-5-5';
export const DEFAULT_REFINER_MODEL = 'claude-sonnet-5-5';

/** What the model fills in: the evaluation without the loop's own bookkeeping. */
const modelEvaluationSchema = evaluationSchema.omit({ unevaluated: true });

/**
 * An evaluation cut to bounds: an answer is untrusted, and a reason of megabytes would go into
 * every refine request and the output. Cut after the answer is read, not in the schema sent:
 * the request stays the same, and so do the answers recorded for it.
 */
function bounded(evaluation: Evaluation): Evaluation {
  const cut = (text: string, length: number) =>
    text.length > length ? `${text.slice(0, length - 1)}…` : text;
  return {
    ...evaluation,
    reason: cut(evaluation.reason, MAX_REASON_LENGTH),
    missingContext: evaluation.missingContext
      .slice(0, MAX_GAPS)
      .map((gap) => cut(gap, MAX_GAP_LENGTH)),
  };
}
/** Every field required: a model answers all of them, with empty lists where it has nothing. */
const modelQuerySchema = z
  .object({
    patterns: z.array(z.string()),
    keywords: z.array(z.string()),
    excludes: z.array(z.string()),
    focusAreas: z.array(z.string()),
  })
  .strict();
/** The refiner answers the next query and its verdict on the context so far. */
const modelRefinementSchema = modelQuerySchema.extend({ verdict: verdictSchema }).strict();

/** Room for the answer: a verdict is a few sentences, a query a few dozen short strings. */
const EVALUATION_MAX_TOKENS = 1024;
const QUERY_MAX_TOKENS = 2048;
const OVERVIEW_TOKENS = 2500;
const EVALUATIONS_IN_REFINE = 40;
/** The refine prompt names past change partners for the files the task most likely changes. */
const PARTNERED_FILES = 8;
const PARTNERS_PER_FILE = 3;
const PARTNERED_RELEVANCE = 0.5;
/**
 * Calls in a row that may fail (each after the SDK's retries) before the rest of the run goes to
 * the offline judge without asking the API again: a dead API then costs a few calls, not one
 * per candidate, and stops being hammered.
 */
export const FAILED_CALLS_BEFORE_GIVING_UP = 3;

export interface ClaudeJudgeOptions {
  client: ModelClient;
  prompts: Prompts;
  /** Model for the per-file evaluations. Default: `claude-haiku-5-5`. */
  evaluatorModel?: string | undefined;
  /** Model for the initial query and refinements. Default: `claude-sonnet-5-5`. */
  refinerModel?: string | undefined;
  /** Judge used when a call fails. Default: the offline judge. */
  fallback?: Judge | undefined;
  /** How many candidates per cycle to send to Claude. Default 12. */
  candidatesPerCycle?: number | undefined;
}

/** The task as an evaluation shows it: a long one is shortened (the planner sees it whole). */
const EVALUATION_TASK_TOKENS = 1000;

const overviews = new WeakMap<RepoOverview, string>();

/** The repository overview as every prompt of a run shows it, rendered once per run. */
function overviewText(overview: RepoOverview): string {
  let text = overviews.get(overview);
  if (text === undefined)
    overviews.set(overview, (text = renderOverview(overview, OVERVIEW_TOKENS)));
  return text;
}

/** Files not yet rated that changed together with the most relevant ones, for the planner. */
function partnersOf(evaluations: readonly JudgedFile[], overview: RepoOverview) {
  const relevant = evaluations
    .filter((file) => file.relevance >= PARTNERED_RELEVANCE)
    .sort((left, right) => right.relevance - left.relevance)
    .slice(0, PARTNERED_FILES)
    .map((file) => file.path);
  return changePartners(overview.history, relevant, {
    limit: PARTNERS_PER_FILE,
    exclude: new Set(evaluations.map((file) => file.path)),
  });
}

let lastDigest = { task: '', digest: '' };

/** A long task's digest, made once for all the evaluations of a run. */
function digestOf(task: string): string {
  if (lastDigest.task !== task)
    lastDigest = { task, digest: taskDigest(task, EVALUATION_TASK_TOKENS) };
  return lastDigest.digest;
}

/**
 * What fills the evaluator's prompt for one candidate: exactly what the model is sent. The
 * default prompt takes only what rating one file needs (the task's digest and the file); the
 * whole task and the overview are there for a prompt that wants them.
 */
export function evaluationVariables(
  task: string,
  candidate: Candidate,
  overview: RepoOverview,
): Record<string, string> {
  return {
    task,
    taskDigest: digestOf(task),
    overview: overviewText(overview),
    // A file name can hold a quote or a line break: it must not end the attribute or the tag.
    path: pathAttribute(candidate.path),
    kind: candidate.kind,
    lineCount: String(candidate.lineCount),
    excerpt: escapeFileContent(candidate.excerpt),
  };
}

function describeFailure(error: ModelCallError | ModelOutputError): string {
  return error instanceof ModelOutputError ? `${error.reason}: ${error.message}` : error.message;
}

/**
 * Claude as the judge: one structured call per candidate (fanned out by the loop under its
 * concurrency limit), one per refinement and one for the first query. A call that fails after the
 * SDK's retries falls back to the offline judge and the run goes on; an answer that is not usable
 * is asked for once more first; a bad key or missing permission ends the run before further calls.
 */
export function createClaudeJudge(options: ClaudeJudgeOptions): Judge {
  const { client, prompts } = options;
  const evaluatorModel = options.evaluatorModel ?? DEFAULT_EVALUATOR_MODEL;
  const refinerModel = options.refinerModel ?? DEFAULT_REFINER_MODEL;
  const fallback = options.fallback ?? createHeuristicJudge();
  let fatal: ModelCallError | undefined;
  // Per run (a run has one ledger), so that a judge used for many runs starts each one afresh.
  const failuresInARow = new WeakMap<object, number>();

  interface CallRequest<T> {
    kind: CallKind;
    model: string;
    template: PromptTemplate;
    variables: Record<string, string>;
    schema: z.ZodType<T>;
    maxTokens: number;
    path?: string;
  }

  async function call<T>(request: CallRequest<T>, context: CallContext): Promise<T> {
    const { kind, model, maxTokens, schema, path } = request;
    const { shared, perCall } = renderPrompt(request.template, request.variables);
    for (let attempt = 1; ; attempt++) {
      if (fatal) throw new JudgeError(fatal.message, { cause: fatal, call: kind });
      if ((failuresInARow.get(context.ledger) ?? 0) >= FAILED_CALLS_BEFORE_GIVING_UP)
        throw new ModelCallError('the API failed too many calls in a row to ask it again', {
          fatal: false,
        });
      const reservation = context.ledger.reserve({
        model,
        inputTokens: estimateTokens(shared + perCall),
        outputTokens: maxTokens / 2,
      });
      try {
        const response = await client.complete({
          model,
          maxTokens,
          shared,
          perCall,
          schema,
          signal: context.signal,
        });
        reservation.settle({ kind, model, path, usage: response.usage, ok: true });
        failuresInARow.delete(context.ledger);
        return response.value;
      } catch (error) {
        if (error instanceof ModelOutputError || error instanceof ModelCallError) {
          reservation.settle({
            kind,
            model,
            path,
            usage: error instanceof ModelOutputError ? error.usage : NO_USAGE,
            ok: false,
          });
        } else {
          reservation.release();
        }
        // An unusable answer is often a fluke: ask once more before giving up on the call.
        if (error instanceof ModelOutputError && attempt === 1) continue;
        if (error instanceof ModelCallError && error.fatal) {
          fatal = error;
          throw new JudgeError(error.message, { cause: error, call: kind });
        }
        // An answer unusable twice is a failed call too: a proxy or model that answers nothing
        // usable is asked no more than one that fails outright.
        if (
          (error instanceof ModelCallError || error instanceof ModelOutputError) &&
          !context.signal?.aborted
        ) {
          const failures = (failuresInARow.get(context.ledger) ?? 0) + 1;
          failuresInARow.set(context.ledger, failures);
          if (failures === FAILED_CALLS_BEFORE_GIVING_UP)
            context.ledger.warn(
              `the API failed ${failures} calls in a row (last: ${error.message}); the offline judge did the rest of the run without asking it again`,
            );
        }
        throw error;
      }
    }
  }

  /** The refiner model's next query; a query with no pattern means "everywhere". */
  async function proposeQuery<T extends Query>(
    kind: 'initial-query' | 'refine',
    schema: z.ZodType<T>,
    variables: Record<string, string>,
    context: CallContext,
  ): Promise<T> {
    const query = await call(
      {
        kind,
        model: refinerModel,
        template: prompts[kind],
        variables,
        schema,
        maxTokens: QUERY_MAX_TOKENS,
      },
      context,
    );
    // Blank strings the model put in a list say nothing: left out, rather than refused by the
    // loop's own schema, which trims them to nothing.
    const kept = (list: readonly string[]) => list.filter((item) => item.trim() !== '');
    const answered = {
      ...query,
      patterns: kept(query.patterns),
      keywords: kept(query.keywords),
      excludes: kept(query.excludes),
      focusAreas: kept(query.focusAreas),
    };
    return answered.patterns.length > 0 ? answered : { ...answered, patterns: ['**/*'] };
  }

  const recoverable = (error: unknown): error is ModelCallError | ModelOutputError =>
    error instanceof ModelOutputError || (error instanceof ModelCallError && !error.fatal);

  return {
    name: 'claude',
    candidatesPerCycle: options.candidatesPerCycle ?? 12,

    async initialQuery(task, overview, context): Promise<Query> {
      try {
        return await proposeQuery(
          'initial-query',
          modelQuerySchema,
          { task, overview: overviewText(overview) },
          context,
        );
      } catch (error) {
        if (!recoverable(error)) throw error;
        context.ledger.warn(
          `the initial query call failed (${describeFailure(error)}); the offline judge planned the first search`,
        );
        return fallback.initialQuery(task, overview, context);
      }
    },

    async evaluate(task, candidate, context): Promise<Evaluation> {
      const variables = evaluationVariables(task, candidate, context.overview);
      try {
        const template = prompts.evaluate;
        const evaluation = await call(
          {
            kind: 'evaluate',
            model: evaluatorModel,
            template,
            variables,
            schema: modelEvaluationSchema,
            maxTokens: EVALUATION_MAX_TOKENS,
            path: candidate.path,
          },
          context,
        );
        return bounded(evaluation);
      } catch (error) {
        if (!recoverable(error)) throw error;
        const offline = await fallback.evaluate(task, candidate, context);
        return {
          ...offline,
          reason: `not judged by Claude (${describeFailure(error)}); offline: ${offline.reason}`,
          unevaluated: true,
        };
      }
    },

    async refine(task, evaluations, previousQuery, context): Promise<RefinementAnswer> {
      const variables = {
        task,
        overview: overviewText(context.overview),
        cycle: String(context.cycle),
        previousQuery: renderQuery(previousQuery),
        evaluations: renderEvaluations(
          evaluations,
          EVALUATIONS_IN_REFINE,
          partnersOf(evaluations, context.overview),
        ),
      };
      try {
        return await proposeQuery('refine', modelRefinementSchema, variables, context);
      } catch (error) {
        if (!recoverable(error)) throw error;
        context.ledger.warn(
          `the refinement of cycle ${context.cycle} failed (${describeFailure(error)}); the offline judge refined it`,
        );
        return fallback.refine(task, evaluations, previousQuery, context);
      }
    },
  };
}
