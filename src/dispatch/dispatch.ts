import picomatch from 'picomatch';
import type { Query } from '../contracts/query.js';
import type { Candidate } from '../contracts/candidate.js';
import { buildExcerpt, matchedLineRanges } from './excerpt.js';
import { matchWorkspace, weighKeywords } from './match.js';
import { rankScoreAbove } from './rank.js';
import { keepBest } from './keep-best.js';
import { countRedactions, redactSecrets } from '../redaction/redact.js';
import type { SourceFile } from '../repository/source-file.js';
import type { Outline } from '../structure/outline.js';
import type { Workspace } from '../repository/workspace.js';
import { globMatcher } from '../repository/glob-matcher.js';
import { type KeywordMatch } from '../contracts/candidate.js';

export interface DispatchOptions {
  /** Paths not to return: already evaluated, or excluded for good. */
  skip: ReadonlySet<string>;
  /** How many of the best new candidates to return with excerpts. */
  limit: number;
  excerptTokens: number;
  /**
   * Give each candidate returned its excerpt, from its parse where it has one. A judge that rates
   * from the matches alone (the offline one) leaves it off: redacting and excerpting every
   * candidate would cost more than its judgement, and only its core gets excerpts
   * (`withCoreExcerpts` in src/retrieve.ts).
   */
  excerpts: boolean;
  /** Ends a search a partner thread shares (./partner.ts) when the run ends. */
  signal?: AbortSignal | undefined;
}

export interface DispatchResult {
  /** Files the query matched, including ones skipped. */
  found: number;
  /** Files the query matched that were not skipped. */
  fresh: number;
  /** The best `limit` fresh candidates, best first. */
  candidates: Candidate[];
}

/** Focus areas as directory prefixes, without leading `./` or trailing slashes. */
function cleanFocusAreas(focusAreas: readonly string[]): string[] {
  return focusAreas.map((area) => area.replace(/^\.?\/+|\/+$/g, '')).filter((area) => area !== '');
}

/** A bare name (`auth`) matches any directory of that name. */
function inAnyFocusArea(path: string, focusAreas: readonly string[]): boolean {
  return focusAreas.some(
    (area) => path.startsWith(`${area}/`) || (!area.includes('/') && path.includes(`/${area}/`)),
  );
}

/**
 * `inAnyFocusArea` with each directory's verdict kept: both its tests look for text that ends in
 * `/`, which lies in a path's directory, and every matched file of a cycle is asked.
 */
function focusAreaTest(focusAreas: readonly string[]): (path: string) => boolean {
  const byDirectory = new Map<string, boolean>();
  return (path) => {
    const directory = path.slice(0, path.lastIndexOf('/') + 1);
    let verdict = byDirectory.get(directory);
    if (verdict === undefined)
      byDirectory.set(directory, (verdict = inAnyFocusArea(directory, focusAreas)));
    return verdict;
  };
}

const FOCUS_BOOST = 1.25;

/** Files asked for by name come first; ties keep path order, so runs are deterministic. */
const byRank = (
  left: Pick<Candidate, 'explicit' | 'rankScore' | 'path'>,
  right: Pick<Candidate, 'explicit' | 'rankScore' | 'path'>,
) =>
  Number(right.explicit) - Number(left.explicit) ||
  right.rankScore - left.rankScore ||
  (left.path < right.path ? -1 : left.path > right.path ? 1 : 0);

/**
 * A candidate's excerpt with no secret in it. The whole file is redacted before any window is cut
 * or any long line clipped, since a window may show two lines of a six-line key and a clipped line
 * half a token, parts that no rule recognises; redaction keeps the file's lines, so the windows
 * stay where they were. The excerpt is checked once more for what its outline quotes.
 */
async function redactedExcerpt(
  workspace: Workspace,
  file: SourceFile,
  outline: Outline,
  matches: readonly KeywordMatch[],
  excerptTokens: number,
): Promise<Pick<Candidate, 'excerpt' | 'lineRanges' | 'redactions'>> {
  const whole = await redactedLines(workspace, file);
  const excerpt = buildExcerpt(
    { path: file.path, lines: whole.lines, outline },
    matches,
    excerptTokens,
  );
  const shown = await redactSecrets(excerpt.text);
  return {
    excerpt: shown.text,
    lineRanges: excerpt.lineRanges,
    redactions: whole.redactions + countRedactions(shown.redactions),
  };
}

type Redacted = Promise<{ lines: string[]; redactions: number }>;

/**
 * Per workspace, its files redacted whole last, most recent last: a file handed over is excerpted
 * a second time in its run. Bounded, so that a workspace held across runs does not keep every
 * excerpted file's lines twice (a run excerpts a few dozen files); by the workspace's files, so
 * that a workspace let go takes them with it.
 */
const redacted = new WeakMap<Workspace['files'], Map<SourceFile, Redacted>>();
export const MAX_REDACTED_FILES = 256;

function redactedLines(workspace: Workspace, file: SourceFile): Redacted {
  let kept = redacted.get(workspace.files);
  if (!kept) redacted.set(workspace.files, (kept = new Map()));
  let whole = kept.get(file);
  if (!whole) {
    whole = redactSecrets(file.text).then((result) => ({
      lines: result.text.split('\n'),
      redactions: countRedactions(result.redactions),
    }));
    kept.set(file, whole);
    for (const oldest of kept.keys()) {
      if (kept.size <= MAX_REDACTED_FILES) break;
      kept.delete(oldest);
    }
  }
  return whole;
}

/**
 * A candidate's symbols and redacted excerpt, from its syntax tree where it has one (whole
 * definitions around the matched lines), else from its regex outline.
 */
export async function excerptCandidate(
  workspace: Workspace,
  file: SourceFile,
  matches: readonly KeywordMatch[],
  excerptTokens: number,
): Promise<Pick<Candidate, 'symbols' | 'excerpt' | 'lineRanges' | 'redactions'>> {
  const outline = await workspace.parsedOutline(file);
  return {
    symbols: outline.symbols,
    ...(await redactedExcerpt(workspace, file, outline, matches, excerptTokens)),
  };
}

/**
 * DISPATCH: match the query against the workspace and return the best new candidates, their
 * excerpts redacted of secrets, since excerpts are what a judge (possibly a remote model) reads.
 */
export async function dispatch(
  query: Query,
  workspace: Workspace,
  options: DispatchOptions,
): Promise<DispatchResult> {
  const literal = new Set(query.patterns.filter((pattern) => !picomatch.scan(pattern).isGlob));
  const globs = query.patterns.filter((pattern) => !literal.has(pattern));
  const included = globs.length > 0 ? globMatcher(globs) : () => false;
  const excluded = query.excludes.length > 0 ? globMatcher(query.excludes) : () => false;
  const matchesByPath = matchWorkspace(
    workspace,
    await weighKeywords(query.keywords, workspace, options.signal),
  );
  const inFocusAreas = focusAreaTest(cleanFocusAreas(query.focusAreas));

  let found = 0;
  let fresh = 0;
  const best: Omit<Candidate, 'excerpt' | 'lineRanges' | 'imports' | 'redactions' | 'symbols'>[] =
    [];
  for (const file of workspace.files) {
    const explicit = literal.has(file.path);
    const matches = matchesByPath.get(file.path) ?? [];
    // A file nothing matched is settled before the globs: most files of a cycle are.
    if (matches.length === 0 && !explicit) continue;
    if (!explicit && (!included(file.path) || excluded(file.path))) continue;
    found++;
    if (options.skip.has(file.path)) continue;
    const inFocusArea = inFocusAreas(file.path);
    const relativeLength = file.lineCount / Math.max(1, workspace.averageLineCount);
    const boost = inFocusArea ? FOCUS_BOOST : 1;
    // Once `best` is full, a file that cannot reach its last is not ranked whole.
    const last = best.length >= options.limit ? best.at(-1) : undefined;
    const floor = last && !last.explicit && !explicit ? last.rankScore / boost : 0;
    const score = rankScoreAbove({ matches, kind: file.kind, relativeLength }, floor);
    fresh++;
    if (score === undefined) continue;
    const candidate = {
      path: file.path,
      kind: file.kind,
      lineCount: file.lineCount,
      relativeLength,
      matches,
      rankScore: score * boost,
      explicit,
      inFocusArea,
    };
    keepBest(best, candidate, options.limit, byRank);
  }
  // Parses, imports and excerpts cost the most, so only the candidates returned get them.
  const candidates = await Promise.all(
    best.flatMap((candidate): Promise<Candidate>[] => {
      const file = workspace.get(candidate.path);
      if (!file) return [];
      // One entry per file an import names: a Go package import names each file of the package.
      const imports = file.outline.imports.flatMap((entry) => {
        const resolved = workspace.imports.resolveAll(file.path, entry.specifier, entry.names);
        return resolved.length > 0
          ? resolved.map((path) => ({ ...entry, resolved: path }))
          : [entry];
      });
      // Nothing shown, so nothing redacted; the lines that matter are still named.
      if (!options.excerpts) {
        const lineRanges = matchedLineRanges(candidate.matches, file.lineCount);
        return [
          Promise.resolve({
            ...candidate,
            symbols: file.outline.symbols,
            imports,
            excerpt: '',
            lineRanges,
            redactions: 0,
          }),
        ];
      }
      return [
        excerptCandidate(workspace, file, candidate.matches, options.excerptTokens).then(
          (excerpt) => ({ ...candidate, imports, ...excerpt }),
        ),
      ];
    }),
  );
  return { found, fresh, candidates };
}
