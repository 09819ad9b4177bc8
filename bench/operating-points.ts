import { parseRetrievalOptions } from '../src/options.js';
import { selectFiles, type SelectionOptions } from '../src/output/select-files.js';
import { mean, percent, precisionRecall } from './metrics.js';
import type { TaskResult } from './task-result.js';

/**
 * How the core (`files`) trades precision for recall under the selection flags a user can pass,
 * and how much more of the gold the related paths name. The selection is applied after the loop
 * (the loop never reads these flags), so applying it to the run's ranked relevances gives exactly
 * the `files` and `related` a run with those flags returns.
 */

export interface SelectionSetting extends SelectionOptions {
  /** The flags, as a user would type them; none for the defaults. */
  flags?: string;
}

const defaults = parseRetrievalOptions({});
const DEFAULT_SELECTION: SelectionOptions = {
  minRelevance: defaults.minRelevance,
  coreRelevance: defaults.coreRelevance,
  maxFiles: defaults.maxFiles,
  maxRelated: defaults.maxRelated,
};

const OTHER_SETTINGS: readonly SelectionSetting[] = [
  // Schema version 1: every file at 0.5 or above was handed over with its content, at most 8.
  {
    flags: '--core-relevance 0.5 --max-files 8',
    ...DEFAULT_SELECTION,
    coreRelevance: 0.5,
    maxFiles: 8,
  },
  { flags: '--core-relevance 0.7', ...DEFAULT_SELECTION, coreRelevance: 0.7 },
  { flags: '--core-relevance 0.9', ...DEFAULT_SELECTION, coreRelevance: 0.9 },
  { flags: '--max-files 3', ...DEFAULT_SELECTION, maxFiles: 3 },
  { flags: '--max-files 1', ...DEFAULT_SELECTION, maxFiles: 1 },
  { flags: '--min-relevance 0.7', ...DEFAULT_SELECTION, minRelevance: 0.7 },
];

const sameSelection = (left: SelectionOptions, right: SelectionOptions) =>
  left.minRelevance === right.minRelevance &&
  left.coreRelevance === right.coreRelevance &&
  left.maxFiles === right.maxFiles &&
  left.maxRelated === right.maxRelated;

/** The defaults first, then every other setting that selects differently. */
export const SELECTION_SETTINGS: readonly SelectionSetting[] = [
  DEFAULT_SELECTION,
  ...OTHER_SETTINGS.filter((setting) => !sameSelection(setting, DEFAULT_SELECTION)),
];

export interface OperatingPoint {
  method: string;
  flags?: string;
  /** Of the core (`files`). */
  precision: number;
  recall: number;
  files: number;
  /** Of the core and the related paths together: what a subagent is pointed at. */
  recallWithRelated: number;
  related: number;
}

/** Every setting, for every method that ranked with relevances (the judges, not BM25). */
export function operatingPoints(
  results: readonly TaskResult[],
  settings: readonly SelectionSetting[] = SELECTION_SETTINGS,
): OperatingPoint[] {
  const judged = results.filter((result) => result.relevance !== undefined);
  const methods = [...new Set(judged.map((result) => result.method))];
  return methods.flatMap((method) => {
    const rows = judged.filter((result) => result.method === method);
    return settings.map(({ flags, ...selection }) => {
      const selections = rows.map((row) => {
        const ranked = row.ranked.map((path, index) => ({
          path,
          relevance: row.relevance?.[index] ?? 0,
        }));
        const { core, related } = selectFiles(ranked, selection);
        const selected = core.map((file) => file.path);
        const named = [...selected, ...related.map((file) => file.path)];
        return {
          selected,
          related: related.length,
          ...precisionRecall(selected, row.gold),
          recallWithRelated: precisionRecall(named, row.gold).recall,
        };
      });
      return {
        method,
        ...(flags !== undefined && { flags }),
        precision: mean(selections.map((selection) => selection.precision)),
        recall: mean(selections.map((selection) => selection.recall)),
        files: mean(selections.map((selection) => selection.selected.length)),
        recallWithRelated: mean(selections.map((selection) => selection.recallWithRelated)),
        related: mean(selections.map((selection) => selection.related)),
      };
    });
  });
}

export function formatOperatingPoints(points: readonly OperatingPoint[]): string {
  const rows = points.map((point) =>
    [
      point.method,
      point.flags === undefined
        ? `default (\`--min-relevance ${defaults.minRelevance} --core-relevance ${defaults.coreRelevance} --max-files ${defaults.maxFiles} --max-related ${defaults.maxRelated}\`)`
        : `\`${point.flags}\``,
      percent(point.precision),
      percent(point.recall),
      point.files.toFixed(1),
      percent(point.recallWithRelated),
      point.related.toFixed(1),
    ].join(' | '),
  );
  return [
    '| method | selection | core precision | core recall | core files | recall with related | related files |',
    `|${' --- |'.repeat(7)}`,
    ...rows.map((row) => `| ${row} |`),
  ].join('\n');
}
