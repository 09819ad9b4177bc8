import { accuracyAt, mean, percent, precisionRecall } from './metrics.js';
import type { TaskResult } from './task-result.js';

/**
 * One row per group of tasks (a language, a repository) and a total: the baseline's and the
 * judge's Acc@k side by side, on the same tasks and trees, and the judge's `files`.
 */
export function formatGroupTable(
  results: readonly TaskResult[],
  groupOf: (result: TaskResult) => string,
  judge = 'offline',
  baseline = 'BM25',
): string {
  const ks = [1, 5, 10];
  const header = [
    'group',
    'tasks',
    ...ks.map((k) => `${baseline} Acc@${k}`),
    ...ks.map((k) => `${judge} Acc@${k}`),
    'Δ Acc@5',
    'files precision',
    'files recall',
  ];
  const rowOf = (name: string, rows: readonly TaskResult[]) => {
    const of = (method: string) => rows.filter((row) => row.method === method);
    const accuracy = (method: string, k: number) =>
      mean(of(method).map((row) => accuracyAt(row.ranked, row.gold, k)));
    const selected = of(judge).map((row) => precisionRecall(row.selected ?? [], row.gold));
    return [
      name,
      of(judge).length,
      ...ks.map((k) => percent(accuracy(baseline, k))),
      ...ks.map((k) => percent(accuracy(judge, k))),
      (100 * (accuracy(judge, 5) - accuracy(baseline, 5))).toFixed(1),
      percent(mean(selected.map((score) => score.precision))),
      percent(mean(selected.map((score) => score.recall))),
    ].join(' | ');
  };
  const groups = [...new Set(results.map(groupOf))].sort();
  const rows = [
    ...groups.map((group) =>
      rowOf(
        group,
        results.filter((result) => groupOf(result) === group),
      ),
    ),
    rowOf('**total**', results),
  ];
  return [
    `| ${header.join(' | ')} |`,
    `|${' --- |'.repeat(header.length)}`,
    ...rows.map((row) => `| ${row} |`),
  ].join('\n');
}
