import type { SkippedFiles } from '../repository/workspace.js';
import { openGaps } from '../loop/gaps.js';
import type { UsageTotals } from '../loop/ledger.js';
import type { LoopOutcome } from '../loop/run-loop.js';
import { CONTEXT_PACK_VERSION, type ContextPack } from './context-pack.js';
import type { JudgedFile } from '../contracts/evaluation.js';
import { oneLine } from '../text/one-line.js';
import { selectFiles, type SelectionOptions } from './select-files.js';
import { likelyEditedOf, rankJudged } from './rank-judged.js';

export interface PackInput {
  task: string;
  root: string;
  judge: string;
  outcome: LoopOutcome;
  filesConsidered: number;
  skipped: SkippedFiles;
  selection: SelectionOptions;
  readMs: number;
  totalMs: number;
  usage: UsageTotals;
  /** Problems the run survived (failed model calls, unknown prices). */
  judgeWarnings: readonly string[];
}

function describeFile(file: JudgedFile) {
  return {
    path: file.path,
    relevance: file.relevance,
    reason: file.reason,
    missingContext: file.missingContext,
    cycle: file.cycle,
    kind: file.candidate.kind,
    lineRanges: file.candidate.lineRanges,
    unevaluated: file.unevaluated ?? false,
  };
}

/** The judged files best first, split as the pack hands them over: core and related. */
export function selectJudged(
  { judged, trace }: Pick<LoopOutcome, 'judged' | 'trace'>,
  selection: SelectionOptions,
) {
  const ranked = rankJudged(judged, likelyEditedOf(trace));
  return { ranked, ...selectFiles(ranked, selection) };
}

/** Says plainly why a run came back empty or partial, and what to try. */
function warningsFor(
  input: PackInput,
  selected: readonly JudgedFile[],
  ranked: readonly JudgedFile[],
): string[] {
  const warnings: string[] = [];
  const { skipped } = input;
  const reasons = Object.entries(skipped)
    .filter(([, count]) => count > 0)
    .map(([why, count]) => `${count} ${why}`);
  const skippedNote = reasons.length ? ` (skipped: ${reasons.join(', ')})` : '';
  if (input.filesConsidered === 0) {
    warnings.push(`no readable files under the root${skippedNote}; check --root`);
  } else if (input.outcome.trace.length === 0) {
    // No search ran (a budget or an abort came first): the stop's own warning says why.
  } else if (ranked.length === 0 && input.outcome.stopReason === 'aborted') {
    // Files may have matched: the time ran out before any was judged.
    warnings.push(
      'the run was stopped (its time limit, or an interruption) before any file was judged; allow more time (--timeout) or search a smaller --root',
    );
  } else if (ranked.length === 0) {
    const keywords = input.outcome.trace[0]?.query.keywords.slice(0, 8).join(', ') || 'none';
    warnings.push(
      `no file matched the task's terms among ${input.filesConsidered} files${skippedNote} (searched for: ${keywords}); name an identifier, file or error message from the code, or check --root`,
    );
  } else if (ranked.every((file) => file.relevance < 0.2)) {
    warnings.push(
      `all ${ranked.length} files judged were irrelevant (below 0.2); the task may be about code outside this root`,
    );
  } else if (selected.length === 0) {
    const best = ranked[0];
    warnings.push(
      `no file reached --min-relevance ${input.selection.minRelevance}; the best was ${best?.path} at ${best?.relevance}; lower --min-relevance or name identifiers from the code`,
    );
  }
  const unevaluated = ranked.filter((file) => file.unevaluated).length;
  if (unevaluated > 0) {
    warnings.push(
      `${unevaluated} of ${ranked.length} files could not be judged by \`${input.judge}\` (their model calls failed); the offline judge's scores stand in for them`,
    );
  }
  warnings.push(...input.judgeWarnings);
  if (skipped.overLimit > 0)
    warnings.push(
      `${skipped.overLimit} files were not read: the repository has more than maxRepositoryFiles; paths that share no word with the task were left out first, and of those generated, fixture, docs, example and test files and the deepest paths (raise the cap with --max-repository-files, or maxRepositoryFiles in the library)`,
    );
  return warnings;
}

export function buildContextPack(input: PackInput): ContextPack {
  const { ranked, core: selected, related } = selectJudged(input.outcome, input.selection);
  const selectedPaths = new Set(selected.map((file) => file.path));
  const completedCycles = input.outcome.trace.length;
  const gaps = openGaps(input.outcome.judged, 0, completedCycles).filter((gap) =>
    gap.raisedBy.some((path) => selectedPaths.has(path)),
  );
  return {
    schemaVersion: CONTEXT_PACK_VERSION,
    task: input.task,
    root: input.root,
    judge: input.judge,
    files: selected.map((file) => ({ ...describeFile(file), excerpt: file.candidate.excerpt })),
    related: related.map((file) => ({
      path: file.path,
      relevance: file.relevance,
      reason: oneLine(file.reason),
      kind: file.candidate.kind,
    })),
    evaluated: ranked.map(describeFile),
    gaps,
    trace: input.outcome.trace,
    stopReason: input.outcome.stopReason,
    warnings: warningsFor(input, selected, ranked),
    usage: input.usage,
    stats: {
      filesConsidered: input.filesConsidered,
      redactions: ranked.reduce((sum, file) => sum + file.candidate.redactions, 0),
      skipped: { ...input.skipped },
    },
    timings: { totalMs: input.totalMs, readMs: input.readMs, ...input.outcome.timings },
  };
}
