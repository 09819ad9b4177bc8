import { posix } from 'node:path';
import type { Candidate } from '../../dispatch/candidate.js';
import type { KeywordMatch } from '../../dispatch/match.js';
import { FIELD_WEIGHTS, fieldScore, rankScore } from '../../dispatch/rank.js';
import type { Evaluation, JudgeContext } from '../judge.js';
import type { TermModel } from './term-model.js';

/**
 * The offline judge's verdict on one file. Relevance is the file's lexical score under the task's
 * weighted terms, calibrated against the cycle's best file (or, if every file is weak, against
 * what a file matching the task's two strongest terms in its name and definitions would score),
 * so that the rubric's bands keep their meaning:
 *   score ≥ reference → ~0.9, 60% → 0.75, 30% → 0.5, 10% → 0.2.
 */

const CALIBRATION_STEEPNESS = 2.3;
const MAX_RELEVANCE = 0.98;
/** A file that imports, or is imported by, a relevant file is related context, up to this share of it. */
const NEIGHBOUR_SHARE = 0.65;
const STRONG_NEIGHBOUR = 0.7;
/** Below this lexical relevance a file has no evidence of its own; neighbours do not lift it. */
const OWN_EVIDENCE = 0.15;
const NAMED_IN_TASK = 0.9;
const MAX_MISSING = 5;

export function taskScore(candidate: Candidate, model: TermModel): number {
  return rankScore({
    matches: candidate.matches,
    kind: candidate.kind,
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
    second * FIELD_WEIGHTS.content * 0.66
  );
}

export function calibrate(score: number, reference: number): number {
  if (reference <= 0 || score <= 0) return 0;
  const relevance = 1 - Math.exp((-CALIBRATION_STEEPNESS * score) / reference);
  return Math.round(Math.min(MAX_RELEVANCE, relevance) * 100) / 100;
}

const references = new WeakMap<readonly Candidate[], Map<TermModel, number>>();

/**
 * The calibration reference of a cycle: the best score among this cycle's candidates and every
 * file judged before, so a later cycle of weak files cannot inflate itself. Computed once per
 * cycle and term model.
 */
export function cycleReference(context: JudgeContext, model: TermModel): number {
  let byModel = references.get(context.candidates);
  if (!byModel) references.set(context.candidates, (byModel = new Map()));
  let reference = byModel.get(model);
  if (reference === undefined) {
    const all = [...context.candidates, ...context.judged.map((file) => file.candidate)];
    const best = Math.max(0, ...all.map((candidate) => taskScore(candidate, model)));
    reference = Math.max(best, floorScore(all, model));
    byModel.set(model, reference);
  }
  return reference;
}

function namedInTask(path: string, model: TermModel): boolean {
  return model.terms.mentionedPaths.some(
    (mentioned) => path === mentioned || path.endsWith(`/${mentioned}`),
  );
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
  if (lines > 0) return `${lines} line${lines === 1 ? '' : 's'} mention ${match.keyword}`;
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
        fieldScore(match, candidate.relativeLength, /\s/.test(match.keyword)),
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

/**
 * The most relevant file among this candidate's neighbours in its own module: files of the same
 * directory that it imports or that import it, judged before or alongside it (by lexical score).
 * Only strong neighbours count; across directories an import says too little (everything imports
 * the logger).
 */
function strongestNeighbour(
  candidate: Candidate,
  context: JudgeContext,
  model: TermModel,
): { path: string; relevance: number; direction: 'uses' | 'used by' } | undefined {
  const reference = cycleReference(context, model);
  const relevanceOf = new Map<string, number>(
    context.judged.map((file) => [file.path, file.relevance]),
  );
  const others = [
    ...context.candidates.filter((other) => other.path !== candidate.path),
    ...context.judged.map((file) => file.candidate),
  ];
  for (const other of others) {
    if (!relevanceOf.has(other.path))
      relevanceOf.set(other.path, calibrate(taskScore(other, model), reference));
  }
  const directory = posix.dirname(candidate.path);
  let best: { path: string; relevance: number; direction: 'uses' | 'used by' } | undefined;
  const consider = (path: string, direction: 'uses' | 'used by') => {
    const relevance = relevanceOf.get(path);
    if (
      relevance === undefined ||
      relevance < STRONG_NEIGHBOUR ||
      posix.dirname(path) !== directory
    )
      return;
    if (!best || relevance > best.relevance) best = { path, relevance, direction };
  };
  for (const entry of candidate.imports)
    if (entry.resolved !== undefined) consider(entry.resolved, 'uses');
  for (const other of others)
    if (other.imports.some((entry) => entry.resolved === candidate.path))
      consider(other.path, 'used by');
  return best;
}

function missingContext(candidate: Candidate, context: JudgeContext): string[] {
  const held = new Set([...context.candidatePaths, ...context.judged.map((file) => file.path)]);
  const missing: string[] = [];
  for (const entry of candidate.imports) {
    if (
      !entry.resolved ||
      held.has(entry.resolved) ||
      missing.some((text) => text.startsWith(entry.resolved ?? ''))
    )
      continue;
    missing.push(
      entry.names.length > 0
        ? `${entry.resolved} (${entry.names.slice(0, 4).join(', ')})`
        : entry.resolved,
    );
    if (missing.length === MAX_MISSING) break;
  }
  return missing;
}

export function evaluateHeuristically(
  candidate: Candidate,
  context: JudgeContext,
  model: TermModel,
): Evaluation {
  const reference = cycleReference(context, model);
  const lexical = calibrate(taskScore(candidate, model), reference);
  const reasons = describe(candidate, model);
  let relevance = lexical;
  if (namedInTask(candidate.path, model)) {
    relevance = Math.max(relevance, NAMED_IN_TASK);
    reasons.unshift('named in the task');
  }
  if (lexical >= OWN_EVIDENCE) {
    const neighbour = strongestNeighbour(candidate, context, model);
    const lifted = neighbour ? Math.round(neighbour.relevance * NEIGHBOUR_SHARE * 100) / 100 : 0;
    if (neighbour && lifted > relevance) {
      relevance = lifted;
      reasons.push(`${neighbour.direction} ${neighbour.path}`);
    }
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
