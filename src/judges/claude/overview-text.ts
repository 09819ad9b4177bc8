import { posix } from 'node:path';
import type { FileKind } from '../../contracts/file-kind.js';
import type { RepoOverview } from '../../contracts/overview.js';
import { estimateTokens } from '../../contracts/tokens.js';
import { quotePath } from '../../text/quote-path.js';

/**
 * The repository for the planner's prompt, within a token budget however large the repository:
 * every path with its symbols when that fits; else the source files (code and type declarations)
 * grouped by directory, with as many symbols each as fit, and the tests, docs, examples and
 * configuration summarised by count; else as many source directories as fit, whole, and the rest
 * of them by count. A planner that sees the source files' names need not guess them.
 */

const PLANNED_KINDS: ReadonlySet<FileKind> = new Set(['source', 'declaration']);
/** Most symbols named per file (the overview holds at most six). */
const MAX_SYMBOLS = 6;
/** Directories named per kind in the summary of the files that are not source. */
const SUMMARY_DIRECTORIES = 3;

const fits = (text: string, budget: number) => estimateTokens(text) <= budget;

/** A directory as the overview writes it: quoted if need be, the root as `.`. */
const directoryName = (directory: string) => (directory === '' ? '.' : quotePath(directory));

function directoryOf(path: string): string {
  const directory = posix.dirname(path);
  return directory === '.' ? '' : directory;
}

/** The items by key, in first-seen order (`Map.groupBy`, which Node 20 lacks). */
function groupBy<K, T>(items: readonly T[], keyOf: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  return groups;
}

const byDirectory = (paths: readonly string[]) => groupBy(paths, directoryOf);

/** `src/auth/: tokens.ts (issueAccessToken, isTokenExpired); session.ts`: one line a directory. */
function directoryLine(
  directory: string,
  paths: readonly string[],
  overview: RepoOverview,
  symbolCounts: ReadonlyMap<string, number> = new Map(),
): string {
  const entries = paths.map((path) => {
    const symbols = (overview.symbols[path] ?? []).slice(0, symbolCounts.get(path) ?? 0);
    const name = quotePath(posix.basename(path));
    return symbols.length > 0 ? `${name} (${symbols.join(', ')})` : name;
  });
  return `${directoryName(directory)}/: ${entries.join('; ')}`;
}

/** The files that are not source, by kind: how many, and where most of them are. */
function summary(overview: RepoOverview, others: readonly string[]): string {
  const byKind = groupBy(others, (path): FileKind => overview.kinds[path] ?? 'source');
  return [...byKind]
    .sort((left, right) => right[1].length - left[1].length)
    .map(([kind, paths]) => {
      const directories = [...byDirectory(paths)].sort(
        (left, right) => right[1].length - left[1].length,
      );
      const places = directories
        .slice(0, SUMMARY_DIRECTORIES)
        .map(([directory, files]) => `${directoryName(directory)}/ ${files.length}`);
      const more = directories.length > SUMMARY_DIRECTORIES ? ', …' : '';
      return `${kind}: ${paths.length} file${paths.length === 1 ? '' : 's'} (${places.join(', ')}${more})`;
    })
    .join('\n');
}

export function renderOverview(overview: RepoOverview, budgetTokens: number): string {
  const header = `${overview.fileCount} files.`;
  // Small repositories: every path with its symbols, one a line.
  const everyPath = overview.paths
    .map((path) =>
      overview.symbols[path]?.length
        ? `${quotePath(path)}: ${overview.symbols[path]?.join(', ')}`
        : quotePath(path),
    )
    .join('\n');
  if (fits(everyPath, budgetTokens))
    return `${header} Each path with the symbols it exports:\n\n${everyPath}`;

  const sources = overview.paths.filter((path) =>
    PLANNED_KINDS.has(overview.kinds[path] ?? 'source'),
  );
  const others = overview.paths.filter(
    (path) => !PLANNED_KINDS.has(overview.kinds[path] ?? 'source'),
  );
  const rest =
    others.length > 0 ? `\n\nThe other files, by kind:\n${summary(overview, others)}` : '';
  const groups = [...byDirectory(sources)];
  const heading = `${header} ${sources.length} source files by directory, with the symbols they export where there is room:\n\n`;
  const bare = groups.map(([directory, paths]) => directoryLine(directory, paths, overview));
  const spare = budgetTokens - estimateTokens(`${heading}${bare.join('\n')}${rest}`);
  if (spare >= 0) {
    const counts = symbolCounts(sources, overview, spare * 4);
    const listing = groups
      .map(([directory, paths]) => directoryLine(directory, paths, overview, counts))
      .join('\n');
    return `${heading}${listing}${rest}`;
  }
  // Too many source files to name them all: every directory, with as many of its files as fit
  // (the ones that define the most first), then only the largest directories, by count.
  for (
    let perDirectory = Math.floor(maxGroupSize(groups) / 2);
    perDirectory >= 1;
    perDirectory = Math.floor(perDirectory / 2)
  ) {
    const listing = groups
      .map(([directory, paths]) => cappedLine(directory, paths, overview, perDirectory))
      .join('\n');
    const text = `${heading}${listing}${rest}`;
    if (fits(text, budgetTokens)) return text;
  }
  const counts = [...groups]
    .sort((left, right) => right[1].length - left[1].length)
    .map(([directory, paths]) => `${directoryName(directory)}/ (${paths.length})`);
  const lines: string[] = [];
  let used = estimateTokens(heading + rest);
  for (const line of counts) {
    used += estimateTokens(`${line}\n`);
    if (used > budgetTokens) break;
    lines.push(line);
  }
  const omitted = counts.length - lines.length;
  return `${header} ${sources.length} source files; the largest directories, with their counts:\n\n${lines.join('\n')}${omitted > 0 ? `\n… and ${omitted} more directories` : ''}${rest}`;
}

/**
 * How many of its symbols each file names, within `characters`: a first symbol for every file
 * before a second for any, and so on, so that the room is shared out evenly.
 */
function symbolCounts(
  paths: readonly string[],
  overview: RepoOverview,
  characters: number,
): Map<string, number> {
  const counts = new Map<string, number>();
  let left = characters;
  for (let round = 0; round < MAX_SYMBOLS; round++) {
    for (const path of paths) {
      const symbol = overview.symbols[path]?.[round];
      if (symbol === undefined) continue;
      // ` (name)` for the first, `, name` for the others.
      const cost = symbol.length + (round === 0 ? 3 : 2);
      if (cost > left) return counts;
      left -= cost;
      counts.set(path, round + 1);
    }
  }
  return counts;
}

const maxGroupSize = (groups: readonly [string, string[]][]) =>
  groups.reduce((most, [, paths]) => Math.max(most, paths.length), 1);

function cappedLine(
  directory: string,
  paths: readonly string[],
  overview: RepoOverview,
  most: number,
): string {
  if (paths.length <= most) return directoryLine(directory, paths, overview);
  const shown = [...paths]
    .sort(
      (left, right) =>
        (overview.symbols[right]?.length ?? 0) - (overview.symbols[left]?.length ?? 0),
    )
    .slice(0, most)
    .sort();
  return `${directoryLine(directory, shown, overview)}; and ${paths.length - most} more`;
}
