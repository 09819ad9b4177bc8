/** Retrieval metrics of one ranked list against the files a real fix changed. */

/** 1 when every gold file is among the first k, else 0 (the metric published results use). */
export function accuracyAt(ranked: readonly string[], gold: readonly string[], k: number): number {
  const top = new Set(ranked.slice(0, k));
  return gold.every((path) => top.has(path)) ? 1 : 0;
}

/** The share of gold files among the first k. */
export function recallAt(ranked: readonly string[], gold: readonly string[], k: number): number {
  const top = new Set(ranked.slice(0, k));
  return gold.filter((path) => top.has(path)).length / gold.length;
}

/** Precision and recall of a selected set (a context pack's `files`). */
export function precisionRecall(
  selected: readonly string[],
  gold: readonly string[],
): { precision: number; recall: number } {
  const wanted = new Set(gold);
  const hits = selected.filter((path) => wanted.has(path)).length;
  return {
    precision: selected.length === 0 ? 0 : hits / selected.length,
    recall: hits / gold.length,
  };
}

export function mean(values: readonly number[]): number {
  return values.length === 0 ? 0 : values.reduce((sum, value) => sum + value, 0) / values.length;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length === 0
    ? 0
    : sorted.length % 2
      ? (sorted[middle] ?? 0)
      : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

/** A share as a percentage with one decimal, as the tables print it. */
export const percent = (value: number) => (value * 100).toFixed(1);
