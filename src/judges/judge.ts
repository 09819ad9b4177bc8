import { z } from 'zod';
import type { Candidate } from '../dispatch/candidate.js';
import type { PastCommit } from '../history/git-log.js';
import type { Ledger } from '../loop/ledger.js';
import type { Query } from '../query.js';

/** What a judge says of one candidate. The rubric gives the bands their meaning. */
export const evaluationSchema = z
  .object({
    /** 0.8–1.0 directly implements the target; 0.5–0.7 related patterns or types; 0.2–0.4 tangential; below 0.2 irrelevant. */
    relevance: z.number().min(0).max(1),
    /** What in the file makes it (ir)relevant, concretely. */
    reason: z.string().min(1),
    /** Context this file needs that is not yet held (files, modules, symbols). */
    missingContext: z.array(z.string().min(1)),
    /** The judge could not judge the file (its model call failed); the score is a fallback. */
    unevaluated: z.boolean().optional(),
  })
  .strict();

export type Evaluation = z.infer<typeof evaluationSchema>;

/** An evaluation together with the file it is about and when it was made. */
export interface JudgedFile extends Evaluation {
  path: string;
  /** The cycle (1-based) in which the file was found and judged. */
  cycle: number;
  candidate: Candidate;
}

/** A compact picture of the repository for the first query. */
export interface RepoOverview {
  fileCount: number;
  /** Every path the run may consider, sorted. */
  paths: readonly string[];
  /** Directories with how many files each holds (recursively), largest first. */
  directories: readonly { path: string; fileCount: number }[];
  /** The top-level symbols each file exports (or defines, when it exports nothing), a few per file. */
  symbols: Readonly<Record<string, readonly string[]>>;
  /** Recent commits (newest first) and the files they changed; empty without git history. */
  history: readonly PastCommit[];
  /** The packages the repository's `package.json` files name, each with its directory ('' for the root). */
  packages: readonly { name: string; directory: string }[];
}

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
  initialQuery(task: string, overview: RepoOverview, context: CallContext): Promise<Query>;
  evaluate(task: string, candidate: Candidate, context: JudgeContext): Promise<Evaluation>;
  refine(
    task: string,
    evaluations: readonly JudgedFile[],
    previousQuery: Query,
    context: RefineContext,
  ): Promise<Query>;
}
