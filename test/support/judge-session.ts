import { testLedger } from './test-ledger.js';
import type { Candidate } from '../../src/contracts/candidate.js';
import { dispatch } from '../../src/dispatch/dispatch.js';
import { describeWorkspace } from '../../src/repository/overview.js';
import { openWorkspace } from '../../src/repository/workspace.js';
import { createHeuristicJudge } from '../../src/judges/heuristic/heuristic-judge.js';
import type { Judge, JudgeContext } from '../../src/judges/judge.js';
import type { Query } from '../../src/contracts/query.js';
import { createTempTree } from './temp-tree.js';
import type { PastCommit, RepoOverview } from '../../src/contracts/overview.js';
import type { Evaluation, JudgedFile } from '../../src/contracts/evaluation.js';

/**
 * The offline judge on a real repository: writes `files` to a temporary tree (remove it with
 * `removeTempTrees`), reads it as a run would, and lets a test dispatch queries and judge the
 * candidates they find, with the same context the loop gives.
 */
export interface JudgeSession {
  judge: Judge;
  overview: RepoOverview;
  initialQuery(): Promise<Query>;
  /** The candidates a query finds (the judge's first query when omitted), best first. */
  candidates(query?: Query): Promise<Candidate[]>;
  /** Judges every candidate, with all of them (or `among`) as the cycle's candidates. */
  evaluateAll(
    candidates: readonly Candidate[],
    among?: readonly Candidate[],
  ): Promise<JudgedFile[]>;
  /** Judges one candidate of a cycle made of `among` (default: just itself), after `judged`. */
  evaluate(
    candidate: Candidate,
    among?: readonly Candidate[],
    judged?: readonly JudgedFile[],
  ): Promise<Evaluation>;
}

export async function openJudgeSession(
  files: Record<string, string>,
  task: string,
  history: readonly PastCommit[] = [],
): Promise<JudgeSession> {
  const root = await createTempTree(files);
  const workspace = await openWorkspace(root, { maxFileBytes: 100_000, maxFiles: 1_000 });
  const overview = describeWorkspace(workspace, history);
  const judge = createHeuristicJudge();
  const initialQuery = () => judge.initialQuery(task, overview, { ledger: testLedger() });
  const contextOf = (among: readonly Candidate[], judged: readonly JudgedFile[]): JudgeContext => ({
    cycle: judged.length > 0 ? 2 : 1,
    overview,
    ledger: testLedger(),
    candidatePaths: new Set(among.map((candidate) => candidate.path)),
    judged,
    candidates: among,
    signal: undefined,
  });
  const evaluate = (
    candidate: Candidate,
    among: readonly Candidate[] = [candidate],
    judged: readonly JudgedFile[] = [],
  ) => judge.evaluate(task, candidate, contextOf(among, judged));
  return {
    judge,
    overview,
    initialQuery,
    async candidates(query) {
      const found = await dispatch(query ?? (await initialQuery()), workspace, {
        skip: new Set(),
        limit: 50,
        excerptTokens: 600,
        excerpts: judge.readsExcerpts !== false,
      });
      return found.candidates;
    },
    evaluate,
    async evaluateAll(candidates, among = candidates) {
      return Promise.all(
        candidates.map(async (candidate) => ({
          ...(await evaluate(candidate, among)),
          path: candidate.path,
          cycle: 1,
          candidate,
        })),
      );
    },
  };
}

/** The candidate at `path`; fails the test when the query did not find it. */
export function candidateAt(candidates: readonly Candidate[], path: string): Candidate {
  const candidate = candidates.find((entry) => entry.path === path);
  if (!candidate)
    throw new Error(
      `${path} is not among the candidates: ${candidates.map((c) => c.path).join(', ')}`,
    );
  return candidate;
}
