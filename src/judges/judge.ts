import type { Candidate } from '../contracts/candidate.js';
import type { Query } from '../contracts/query.js';
import type { RefinementAnswer } from '../contracts/refinement.js';
import type { RepoOverview } from '../contracts/overview.js';
import type { Evaluation, JudgedFile } from '../contracts/evaluation.js';
import type { Ledger } from '../contracts/ledger.js';

/** What every judge call gets: the run's accounts and its cancellation signal. */
export interface CallContext {
  ledger: Ledger;
  signal?: AbortSignal | undefined;
}

/** What the loop tells a judge about the run so far, for one evaluation. */
export interface JudgeContext extends CallContext {
  cycle: number;
  overview: RepoOverview;
  /** Paths dispatched in this cycle (being judged alongside this one). */
  candidatePaths: ReadonlySet<string>;
  /** Files judged in earlier cycles. */
  judged: readonly JudgedFile[];
  /** Every candidate of this cycle, for judges that calibrate across them. */
  candidates: readonly Candidate[];
}

export interface RefineContext extends CallContext {
  cycle: number;
  overview: RepoOverview;
}

/**
 * A judge proposes; the loop controller decides. The loop never knows which judge it has:
 * the offline `heuristic` judge and the Claude judge implement the same three calls.
 */
export interface Judge {
  readonly name: string;
  /** How many candidates per cycle suit this judge (the best by lexical rank); the loop's default. */
  readonly candidatesPerCycle?: number;
  /**
   * False for a judge that rates from the keyword matches and never reads the excerpts (the
   * offline one): candidates are then not parsed, only the files handed over. Default true.
   */
  readonly readsExcerpts?: boolean;
  initialQuery(task: string, overview: RepoOverview, context: CallContext): Promise<Query>;
  evaluate(task: string, candidate: Candidate, context: JudgeContext): Promise<Evaluation>;
  /** The next query, and a verdict on whether the files judged so far are enough for the task. */
  refine(
    task: string,
    evaluations: readonly JudgedFile[],
    previousQuery: Query,
    context: RefineContext,
  ): Promise<RefinementAnswer>;
}
