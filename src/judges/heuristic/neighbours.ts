import { posix } from 'node:path';
import type { Candidate } from '../../contracts/candidate.js';
import { NEIGHBOUR_SHARE, STRONG_NEIGHBOUR } from './weights.js';

/**
 * A module's index (`mod.rs`, `lib.rs`, `__init__.py`, `index.ts`) declares or re-exports the
 * files of its directory, and everything that uses the module imports it: its import links say
 * nothing of its own relevance.
 */
const MODULE_INDEX = /(?:^|\/)(?:mod\.rs|lib\.rs|__init__\.py|index\.[cm]?[jt]sx?)$/;
export const isModuleIndex = (path: string): boolean => MODULE_INDEX.test(path);

export interface Neighbour {
  path: string;
  relevance: number;
  direction: 'uses' | 'used by';
  /** What the candidate is lifted to by this neighbour. */
  lifted: number;
}

/**
 * The most relevant file among this candidate's neighbours in its own module: files of the same
 * directory that it imports or that import it. Only strong neighbours count; across directories
 * an import says too little (everything imports the logger).
 */
export function strongestNeighbour(
  candidate: Candidate,
  relevance: ReadonlyMap<string, number>,
  importers: ReadonlyMap<string, readonly string[]>,
): Neighbour | undefined {
  const directory = posix.dirname(candidate.path);
  if (isModuleIndex(candidate.path)) return undefined;
  const neighbours = [
    ...candidate.imports.flatMap((entry) =>
      entry.resolved === undefined ? [] : [{ path: entry.resolved, direction: 'uses' as const }],
    ),
    ...(importers.get(candidate.path) ?? []).map((path) => ({
      path,
      direction: 'used by' as const,
    })),
  ].map((neighbour) => {
    const score = relevance.get(neighbour.path) ?? 0;
    return {
      ...neighbour,
      relevance: score,
      lifted: Math.round(score * NEIGHBOUR_SHARE * 100) / 100,
    };
  });
  return neighbours
    .filter(
      (neighbour) =>
        neighbour.path !== candidate.path &&
        neighbour.relevance >= STRONG_NEIGHBOUR &&
        posix.dirname(neighbour.path) === directory,
    )
    .sort((left, right) => right.relevance - left.relevance)[0];
}
