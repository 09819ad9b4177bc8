import { parseRetrievalOptions } from '../src/options.js';
import { selectFiles } from '../src/output/build-context-pack.js';
import { mean, percent, precisionRecall } from './metrics.js';
import type { TaskResult } from './run-benchmark.js';

/**
 * How `files` trades precision for recall under the selection flags a user can pass. The
 * selection is applied after the loop (the loop never reads these flags), so applying it to the
 * run's ranked relevances gives exactly the `files` a run with those flags returns.
 */

export interface SelectionSetting {
  /** The flags, as a user would type them; none for the defaults. */
  flags?: string;
  minRelevance: number;
  maxFiles: number;
}

const defaults = parseRetrievalOptions({});

const OTHER_SETTINGS: readonly SelectionSetting[] = [
  // Only the highly relevant: what the stopping rule counts.
  { flags: '--min-relevance 0.7', minRelevance: 0.7, maxFiles: defaults.maxFiles },
  { flags: '--min-relevance 0.8', minRelevance: 0.8, maxFiles: defaults.maxFiles },
  { flags: '--min-relevance 0.9', minRelevance: 0.9, maxFiles: defaults.maxFiles },
  { flags: '--max-files 1', minRelevance: defaults.minRelevance, maxFiles: 1 },
];

/** The defaults first, then every other setting that selects differently. */
export const SELECTION_SETTINGS: readonly SelectionSetting[] = [
  { minRelevance: defaults.minRelevance, maxFiles: defaults.maxFiles },
  ...OTHER_SETTINGS.filter(
    (setting) =>
      setting.minRelevance !== defaults.minRelevance || setting.maxFiles !== defaults.maxFiles,
  ),
];

export interface OperatingPoint {
  method: string;
  flags?: string;
  precision: number;
  recall: number;
  files: number;
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
    return settings.map(({ flags, minRelevance, maxFiles }) => {
      const selections = rows.map((row) => {
        const ranked = row.ranked.map((path, index) => ({
          path,
          relevance: row.relevance?.[index] ?? 0,
        }));
        const selected = selectFiles(ranked, minRelevance, maxFiles).map((file) => file.path);
        return { selected, ...precisionRecall(selected, row.gold) };
      });
      return {
        method,
        ...(flags !== undefined && { flags }),
        precision: mean(selections.map((selection) => selection.precision)),
        recall: mean(selections.map((selection) => selection.recall)),
        files: mean(selections.map((selection) => selection.selected.length)),
      };
    });
  });
}

export function formatOperatingPoints(points: readonly OperatingPoint[]): string {
  const rows = points.map((point) =>
    [
      point.method,
      point.flags === undefined
        ? `default (\`--min-relevance ${defaults.minRelevance} --max-files ${defaults.maxFiles}\`)`
        : `\`${point.flags}\``,
      percent(point.precision),
      percent(point.recall),
      point.files.toFixed(1),
    ].join(' | '),
  );
  return [
    '| method | selection | files precision | files recall | files |',
    `|${' --- |'.repeat(5)}`,
    ...rows.map((row) => `| ${row} |`),
  ].join('\n');
}
