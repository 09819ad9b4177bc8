import type { JudgedFile } from '../contracts/evaluation.js';

/**
 * Gaps are the `missingContext` a judge reports. A gap is *resolved* once a file it names has been
 * judged (its path, or its path without extension, appears in the gap's text). A gap is *searched*
 * once a refinement has run after the cycle that raised it.
 *
 * A gap is **critical** when all of these hold:
 * 1. the file that raised it scored at or above the relevance threshold;
 * 2. it is not resolved;
 * 3. it has not been searched for yet.
 * The loop never stops as "sufficient" while a critical gap is open: every gap raised by a highly
 * relevant file gets at least one search before the run ends (the cycle cap still applies).
 */
export interface Gap {
  description: string;
  /** Paths of the files that reported it. */
  raisedBy: string[];
  /** The cycle in which it was first reported. */
  cycle: number;
  searched: boolean;
}

function withoutExtension(path: string): string {
  return path.replace(/\.[^./]+$/, '');
}

/** The gap names a judged file (`names`: paths with and without extension) as a whole word. */
function isResolved(description: string, names: ReadonlySet<string>): boolean {
  // Trailing `.` and `:` from the start of their run only, so that each run is scanned once.
  return description
    .split(/[\s'"`(),;]+/)
    .some((word) => names.has(word.replace(/(?<![.:])[.:]+$/, '')));
}

/**
 * Open gaps raised by files scoring at least `minimumRelevance`, merged by description, given that
 * `completedCycles` cycles have run (gaps raised before the last completed cycle were searched).
 */
export function openGaps(
  judged: readonly JudgedFile[],
  minimumRelevance: number,
  completedCycles: number,
): Gap[] {
  const names = new Set(judged.flatMap((file) => [file.path, withoutExtension(file.path)]));
  const gaps = new Map<string, Gap>();
  for (const file of judged) {
    if (file.relevance < minimumRelevance) continue;
    for (const description of file.missingContext) {
      if (isResolved(description, names)) continue;
      const existing = gaps.get(description);
      if (existing) {
        if (!existing.raisedBy.includes(file.path)) existing.raisedBy.push(file.path);
        existing.cycle = Math.min(existing.cycle, file.cycle);
        existing.searched = existing.cycle < completedCycles;
      } else {
        gaps.set(description, {
          description,
          raisedBy: [file.path],
          cycle: file.cycle,
          searched: file.cycle < completedCycles,
        });
      }
    }
  }
  return [...gaps.values()];
}

export function criticalGaps(
  judged: readonly JudgedFile[],
  threshold: number,
  completedCycles: number,
): Gap[] {
  return openGaps(judged, threshold, completedCycles).filter((gap) => !gap.searched);
}
