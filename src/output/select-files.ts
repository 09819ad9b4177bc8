/**
 * How a pack splits the judged files (issue 11, §4): few excellent files beat many mediocre
 * ones, and a subagent can open more on its own. `core` is what directly implements the task and
 * is handed over with its content; `related` is the rest worth knowing about (types, callers,
 * tests, neighbours), handed over as paths with reasons only.
 */

export interface SelectionOptions {
  /** Lowest relevance a file needs to be in the pack at all, core or related. */
  minRelevance: number;
  /** Lowest relevance of a core file other than the best one. */
  coreRelevance: number;
  /** Most core files. */
  maxFiles: number;
  /** Most related files. */
  maxRelated: number;
}

export interface Selection<File> {
  core: File[];
  related: File[];
}

/**
 * Of files ranked best first: the core files are those at `coreRelevance` or above, and the best
 * file whatever its score (a subagent always gets one file to start from), as long as each
 * reaches `minRelevance`, at most `maxFiles`. The related files are the others at `minRelevance`
 * or above, at most `maxRelated`, so a strong file the core had no room for still gets named.
 */
export function selectFiles<File extends { relevance: number }>(
  ranked: readonly File[],
  options: SelectionOptions,
): Selection<File> {
  const inPack = ranked.filter((file) => file.relevance >= options.minRelevance);
  const core = inPack
    .filter((file, index) => index === 0 || file.relevance >= options.coreRelevance)
    .slice(0, options.maxFiles);
  const chosen = new Set<File>(core);
  const related = inPack.filter((file) => !chosen.has(file)).slice(0, options.maxRelated);
  return { core, related };
}
