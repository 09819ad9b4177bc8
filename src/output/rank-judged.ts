import type { JudgedFile } from '../contracts/evaluation.js';
import type { CycleTrace } from '../loop/cycle-trace.js';
import { MOST_LIKELY_EDITED } from '../contracts/refinement.js';
import { EXCLUSION_THRESHOLD } from '../loop/run-loop.js';

/**
 * Best first; ties go to the file found earlier, then to the one its search ranked higher, then to
 * path order, so output is stable.
 */
function byRelevance(left: JudgedFile, right: JudgedFile): number {
  return (
    right.relevance - left.relevance ||
    left.cycle - right.cycle ||
    right.candidate.rankScore - left.candidate.rankScore ||
    (left.path < right.path ? -1 : left.path > right.path ? 1 : 0)
  );
}

/** The files the last verdict named as the ones the change most likely edits, most likely first. */
export function likelyEditedOf(trace: readonly CycleTrace[]): readonly string[] {
  for (let index = trace.length - 1; index >= 0; index--) {
    const verdict = trace[index]?.verdict;
    if (verdict) return verdict.likelyEdited;
  }
  return [];
}

/**
 * The judged files best first. Each file is rated alone, so ratings of different files do not
 * compare well (a caller and the code it calls both get 0.5); the refiner sees them side by side,
 * and the files it picks as the ones the change edits come first, in its order.
 */
export function rankJudged(
  judged: readonly JudgedFile[],
  likelyEdited: readonly string[],
): JudgedFile[] {
  const byPath = new Map(judged.map((file) => [file.path, file]));
  const picked = new Set<JudgedFile>();
  for (const path of likelyEdited) {
    const file = byPath.get(path);
    // An irrelevant file (the rubric's lowest band) stays where its rating puts it.
    if (file && file.relevance >= EXCLUSION_THRESHOLD && picked.size < MOST_LIKELY_EDITED)
      picked.add(file);
  }
  return [...picked, ...judged.filter((file) => !picked.has(file)).sort(byRelevance)];
}
