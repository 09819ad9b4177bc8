import type { Candidate } from '../../contracts/candidate.js';
import { FIELD_WEIGHTS, fieldScore, rankScore } from '../../dispatch/rank.js';
import { quotePath } from '../../text/quote-path.js';
import type { JudgeContext } from '../judge.js';
import { historyOf } from './history-evidence.js';
import { namedFiles } from './named-files.js';
import { isModuleIndex, strongestNeighbour } from './neighbours.js';
import type { TermModel } from './term-model.js';
import type { KeywordMatch } from '../../contracts/candidate.js';
import type { Evaluation } from '../../contracts/evaluation.js';
import {
  CALIBRATION,
  CALLER_IN_TRACE,
  HISTORY_WEIGHT,
  KIND_CEILINGS,
  MAX_RELEVANCE,
  MAX_TESTED_FILES,
  MODULE_INDEX_SHARE,
  NAMED_IN_TASK,
  OWN_EVIDENCE,
  STRONG_TEST,
  TESTED_SHARE,
} from './weights.js';

/**
 * The offline judge's verdict on one file. Relevance is the file's lexical score under the task's
 * weighted terms, calibrated against the cycle's best file (or, if every file is weak, against
 * what a file matching the task's two strongest terms in its name and definitions would score),
 * so that the rubric's bands keep their meaning:
 *   score ≥ reference → 0.9, 70% → 0.72, 50% → 0.5, 25% → 0.16.
 * The curve is gentle near the top and steep below half the best score: a file with less than
 * half the best file's evidence is not selected, so the context stays small.
 */

const MAX_MISSING = 5;

/** The file's lexical score under the task; `asSource` leaves out its kind's discount. */
export function taskScore(candidate: Candidate, model: TermModel, asSource = false): number {
  return rankScore({
    matches: candidate.matches,
    kind: asSource ? 'source' : candidate.kind,
    relativeLength: candidate.relativeLength,
    importance: model.importanceOf,
    conceptOf: model.conceptOf,
    wantedKinds: model.terms.wantedKinds,
  });
}

/**
 * What a file that implements the target would score at least: the weightiest concept in its
 * name and definitions, and the next one in its content.
 */
function floorScore(candidates: readonly Candidate[], model: TermModel): number {
  const weights = new Map<string, number>();
  for (const candidate of candidates) {
    for (const match of candidate.matches) {
      const concept = model.conceptOf(match.keyword);
      weights.set(
        concept,
        Math.max(weights.get(concept) ?? 0, match.weight * model.importanceOf(match.keyword)),
      );
    }
  }
  const [first = 0, second = 0] = [...weights.values()].sort((left, right) => right - left);
  return (
    first * (FIELD_WEIGHTS.fileName + FIELD_WEIGHTS.partialDefinition) +
    second * FIELD_WEIGHTS.content * CALIBRATION.secondTermShare
  );
}

export function calibrate(score: number, reference: number): number {
  if (reference <= 0 || score <= 0) return 0;
  const share = Math.min(1, score / reference);
  const relevance = CALIBRATION.ceiling * (1 - Math.exp(-CALIBRATION.steepness * share * share));
  return Math.round(Math.min(MAX_RELEVANCE, relevance) * 100) / 100;
}

/** What a judge needs to know about a whole cycle, computed once per cycle and term model. */
interface CycleView {
  /** The calibration reference: the best score among this cycle's candidates and every file
   * judged before (so a later cycle of weak files cannot inflate itself), or the floor. */
  reference: number;
  /** Relevance of every file in view: judged files as judged, this cycle's by lexical score. */
  relevance: ReadonlyMap<string, number>;
  /** For every file in view, the files in view that import it. */
  importers: ReadonlyMap<string, string[]>;
  /** For every file in view that a strong test imports, that test's relevance and path. */
  testedBy: ReadonlyMap<string, { test: string; relevance: number }>;
}

const views = new WeakMap<readonly Candidate[], Map<TermModel, CycleView>>();

export function cycleView(context: JudgeContext, model: TermModel): CycleView {
  let byModel = views.get(context.candidates);
  if (!byModel) views.set(context.candidates, (byModel = new Map()));
  const cached = byModel.get(model);
  if (cached) return cached;
  const all = [...context.candidates, ...context.judged.map((file) => file.candidate)];
  const scores = new Map(all.map((candidate) => [candidate.path, taskScore(candidate, model)]));
  // The best *source* file sets the scale: a long README that weakly matches every word of a
  // long issue must not shrink the code's relevance.
  const sources = all.filter((candidate) => candidate.kind === 'source');
  const scale = (sources.length > 0 ? sources : all).map(
    (candidate) => scores.get(candidate.path) ?? 0,
  );
  const reference = Math.max(0, ...scale, floorScore(all, model));
  const relevance = new Map(
    [...scores].map(([path, score]) => [path, calibrate(score, reference)]),
  );
  for (const file of context.judged) relevance.set(file.path, file.relevance);
  const importers = new Map<string, string[]>();
  for (const candidate of all) {
    for (const entry of candidate.imports) {
      if (entry.resolved === undefined) continue;
      importers.set(entry.resolved, [...(importers.get(entry.resolved) ?? []), candidate.path]);
    }
  }
  const testedBy = new Map<string, { test: string; relevance: number }>();
  for (const candidate of all) {
    if (candidate.kind !== 'test') continue;
    // How well the test itself matches, as if it were code: its kind's discount is for ranking
    // tests below source, not for what they say about the file they test.
    const strength = calibrate(taskScore(candidate, model, true), reference);
    const tested = candidate.imports.flatMap((entry) => (entry.resolved ? [entry.resolved] : []));
    if (strength < STRONG_TEST || tested.length > MAX_TESTED_FILES) continue;
    for (const path of tested)
      if ((testedBy.get(path)?.relevance ?? 0) < strength)
        testedBy.set(path, { test: candidate.path, relevance: strength });
  }
  const view = { reference, relevance, importers, testedBy };
  byModel.set(model, view);
  return view;
}

function describeMatch(match: KeywordMatch): string | undefined {
  const exact = match.definitions.filter((definition) => definition.exact);
  const defined = (exact.length > 0 ? exact : match.definitions)
    .slice(0, 2)
    .map((definition) => `${definition.name}()`);
  if (defined.length > 0)
    return `defines ${defined.join(', ')}${exact.length > 0 ? '' : ` (${match.keyword})`}`;
  if (match.inFileName) return `file name contains ${match.keyword}`;
  const lines = match.exactLines.length + match.partialLines.length;
  if (lines > 0)
    return `${lines} ${lines === 1 ? 'line mentions' : 'lines mention'} ${match.keyword}`;
  if (match.inDirectory) return `path contains ${match.keyword}`;
  return undefined;
}

/** What matched, strongest first, one phrase per concept. */
function describe(candidate: Candidate, model: TermModel): string[] {
  const seen = new Set<string>();
  return [...candidate.matches]
    .map((match) => ({
      match,
      contribution:
        match.weight *
        model.importanceOf(match.keyword) *
        fieldScore(match, candidate.relativeLength),
    }))
    .sort((left, right) => right.contribution - left.contribution)
    .filter(
      ({ match }) =>
        !seen.has(model.conceptOf(match.keyword)) && seen.add(model.conceptOf(match.keyword)),
    )
    .slice(0, 4)
    .map(({ match }) => describeMatch(match))
    .filter((text): text is string => text !== undefined);
}

function missingContext(candidate: Candidate, context: JudgeContext): string[] {
  // A file held or already listed is not missing; the set grows as imports are listed.
  const seen = new Set([...context.candidatePaths, ...context.judged.map((file) => file.path)]);
  const missing: string[] = [];
  for (const { resolved, names } of candidate.imports) {
    if (!resolved || seen.has(resolved)) continue;
    seen.add(resolved);
    missing.push(names.length > 0 ? `${resolved} (${names.slice(0, 4).join(', ')})` : resolved);
    if (missing.length === MAX_MISSING) break;
  }
  return missing;
}

export function evaluateHeuristically(
  candidate: Candidate,
  context: JudgeContext,
  model: TermModel,
): Evaluation {
  const view = cycleView(context, model);
  const { named, callers, modules } = namedFiles(model, context.overview);
  // A task that names a type declaration is about it (unlike a named README, below).
  const wanted =
    model.terms.wantedKinds.has(candidate.kind) ||
    (candidate.kind === 'declaration' && named.has(candidate.path) && !callers.has(candidate.path));
  const ceiling = wanted ? 1 : KIND_CEILINGS[candidate.kind];
  const lexical = Math.min(ceiling, calibrate(taskScore(candidate, model), view.reference));
  const reasons = describe(candidate, model);
  let relevance = lexical;
  if (callers.has(candidate.path)) {
    relevance = Math.max(relevance, Math.min(ceiling, CALLER_IN_TRACE));
    reasons.unshift("a caller in the task's stack trace");
  } else if (named.has(candidate.path)) {
    // A README named in a bug report is where the reporter read about the feature, not the fix.
    relevance = Math.max(relevance, Math.min(ceiling, NAMED_IN_TASK));
    reasons.unshift(
      modules.has(candidate.path) ? 'its module named in the task' : 'named in the task',
    );
  }
  if (lexical >= OWN_EVIDENCE) {
    const neighbour = strongestNeighbour(candidate, view.relevance, view.importers);
    if (neighbour && neighbour.lifted > relevance) {
      relevance = neighbour.lifted;
      reasons.push(`${neighbour.direction} ${quotePath(neighbour.path)}`);
    }
  }
  const tested = view.testedBy.get(candidate.path);
  if (candidate.kind === 'source' && tested) {
    // A test imports a package's index for what it re-exports: the index is the subject less.
    const share = isModuleIndex(candidate.path) ? TESTED_SHARE * MODULE_INDEX_SHARE : TESTED_SHARE;
    const lifted = Math.round(tested.relevance * share * 100) / 100;
    if (lifted > relevance) {
      relevance = lifted;
      reasons.push(`tested by ${quotePath(tested.test)}, which matches the task`);
    }
  }
  const past = historyOf(context.overview, model).get(candidate.path);
  // Like a neighbour, the past only strengthens a file's own evidence; it never makes it.
  if (past && past.share > 0 && lexical >= OWN_EVIDENCE) {
    relevance = Math.min(
      ceiling,
      MAX_RELEVANCE,
      Math.round((1 - (1 - relevance) * (1 - HISTORY_WEIGHT * past.share)) * 100) / 100,
    );
    reasons.push(
      `changed by ${past.commits} similar past ${past.commits === 1 ? 'commit' : 'commits'} ("${past.example}")`,
    );
  }
  if (candidate.kind !== 'source') reasons.push(`${candidate.kind} file`);
  const reason =
    reasons.length > 0
      ? reasons.join('; ')
      : candidate.explicit
        ? 'requested by path; no task term matched'
        : 'no task term matched';
  return { relevance, reason, missingContext: missingContext(candidate, context) };
}
