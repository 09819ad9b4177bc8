import { posix } from 'node:path';
import type { Query } from '../../contracts/query.js';
import type { Refinement, Verdict } from '../../contracts/refinement.js';
import { stemsOfIdentifier } from '../../repository/source-file.js';
import type { TermModel } from './term-model.js';
import type { JudgedFile } from '../../contracts/evaluation.js';
import type { RepoOverview } from '../../contracts/overview.js';
import { FOCUS_FROM, LEARN_FROM, SUFFICIENT } from './weights.js';

/**
 * REFINE without a model: learn the codebase's own terms from what the last cycles found.
 * - any of the task's terms or lexicon synonyms that the last query lacked;
 * - distinctive identifiers that relevant files define (`createThrottle`), so their users are found;
 * - the files that relevant files import but nobody has judged yet (the open gaps);
 * - the directories where highly relevant files live, as focus areas.
 * Its verdict counts: enough highly relevant files make the context sufficient, and the files
 * they import that nobody has judged are what is missing.
 */

const MAX_LEARNED = 8;
const MAX_KEYWORDS = 60;

function pathOfGap(gap: string, known: ReadonlySet<string>): string | undefined {
  const path = gap.split(' (')[0] ?? gap;
  return known.has(path) ? path : undefined;
}

/** Identifiers of a relevant file that share a word with the task: its vocabulary for the task's ideas. */
function learnedIdentifiers(
  files: readonly JudgedFile[],
  model: TermModel,
  taken: ReadonlySet<string>,
): string[] {
  const taskStems = new Set(model.keywords.flatMap(stemsOfIdentifier));
  const learned: string[] = [];
  for (const file of files) {
    for (const symbol of file.candidate.symbols) {
      const name = symbol.name;
      if (name.length < 4 || taken.has(name.toLowerCase()) || learned.includes(name)) continue;
      if (!stemsOfIdentifier(name).some((word) => taskStems.has(word))) continue;
      learned.push(name);
      if (learned.length === MAX_LEARNED) return learned;
    }
  }
  return learned;
}

export function refineHeuristically(
  evaluations: readonly JudgedFile[],
  previous: Query,
  overview: RepoOverview,
  model: TermModel,
): Refinement {
  const related = [...evaluations]
    .filter((file) => file.relevance >= LEARN_FROM)
    .sort((left, right) => right.relevance - left.relevance);
  const taken = new Set(previous.keywords.map((keyword) => keyword.toLowerCase()));
  const keywords = [...previous.keywords];
  const push = (keyword: string) => {
    if (taken.has(keyword.toLowerCase()) || keywords.length >= MAX_KEYWORDS) return;
    taken.add(keyword.toLowerCase());
    keywords.push(keyword);
  };
  for (const keyword of model.keywords) push(keyword);
  for (const identifier of learnedIdentifiers(related, model, taken)) push(identifier);

  const known = new Set(overview.paths);
  const judged = new Set(evaluations.map((file) => file.path));
  const gaps = related
    .flatMap((file) => file.missingContext.map((gap) => pathOfGap(gap, known)))
    .filter((path): path is string => path !== undefined && !judged.has(path));
  const focusAreas = related
    .filter((file) => file.relevance >= FOCUS_FROM)
    .map((file) => posix.dirname(file.path))
    .filter((directory) => directory !== '.');

  return {
    patterns: [...new Set([...previous.patterns, ...gaps])],
    keywords,
    excludes: previous.excludes,
    focusAreas: [...new Set([...previous.focusAreas, ...focusAreas])],
    verdict: verdictOf(evaluations, [...new Set(gaps)]),
  };
}

function verdictOf(evaluations: readonly JudgedFile[], missing: string[]): Verdict {
  const high = evaluations.filter((file) => file.relevance >= SUFFICIENT.relevance).length;
  const sufficient = high >= SUFFICIENT.files;
  const files = `${high} file${high === 1 ? '' : 's'} rated ${SUFFICIENT.relevance} or more`;
  return {
    sufficient,
    missing,
    reason: sufficient ? files : `only ${files}; ${SUFFICIENT.files} make a sufficient context`,
    // Its ratings already order the files as well as it can tell them apart.
    likelyEdited: [],
  };
}
