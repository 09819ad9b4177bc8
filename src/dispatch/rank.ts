import type { KeywordMatch } from '../contracts/candidate.js';
import type { FileKind } from '../contracts/file-kind.js';

/**
 * Field-weighted lexical scoring (BM25F in spirit): a keyword counts most where a file *defines*
 * it, then in the file's name, then in its directory, then in its content with saturating term
 * frequency and a length normalisation (which also tempers a long file's partial definitions).
 * Each keyword counts in proportion to its rarity.
 */

export const FIELD_WEIGHTS = {
  /** The file defines the very identifier the task names (`applyDiscount`). */
  exactDefinition: 4,
  /** The file defines a symbol named exactly like one plain word of the task (`checkout`). */
  exactWordDefinition: 2,
  partialDefinition: 1.5,
  fileName: 2,
  directory: 0.8,
  /** A verbatim multi-word phrase (an error message, say) found in the content. */
  exactPhrase: 3,
  content: 1.5,
} as const;

/**
 * Supporting material ranks below the code a task is about: it repeats the code's vocabulary
 * (a declaration file names every function; a test calls them all) without being what changes.
 */
export const KIND_WEIGHTS: Record<FileKind, number> = {
  source: 1,
  declaration: 0.8,
  example: 0.45,
  test: 0.5,
  config: 0.45,
  docs: 0.25,
};

const SATURATION = 1.2;
const LENGTH_NORMALISATION = 0.4;
/**
 * Where the task's ideas meet within this many lines (one function, say), the file is about
 * them rather than mentioning each somewhere: a large file that names everything once, far
 * apart, gains nothing.
 */
const PROXIMITY_WINDOW = 30;
const PROXIMITY_WEIGHT = 0.5;

export interface RankInput {
  matches: readonly KeywordMatch[];
  kind: FileKind;
  /** The file's length relative to the repository's average file. */
  relativeLength: number;
  /** Extra multiplier per keyword (a judge's idea of its importance); 1 when absent. */
  importance?: (keyword: string) => number;
  /** Keywords of one concept (a term and its synonyms) count once, by their best match. */
  conceptOf?: (keyword: string) => string;
  /** Kinds the task is explicitly about (a task about tests should not demote tests). */
  wantedKinds?: ReadonlySet<FileKind>;
}

/** How much longer than the average file a file reads, as BM25 weighs it: 1 at the average. */
const lengthFactor = (relativeLength: number) =>
  1 - LENGTH_NORMALISATION + LENGTH_NORMALISATION * relativeLength;

/** The contribution of one keyword, before its weight. */
export function fieldScore(match: KeywordMatch, relativeLength: number): number {
  const exactDefinition = match.definitions.some((definition) => definition.exact);
  const definition = exactDefinition
    ? match.form === 'identifier'
      ? FIELD_WEIGHTS.exactDefinition
      : FIELD_WEIGHTS.exactWordDefinition
    : match.definitions.length > 0
      ? // A long file defines many names, and so some with any word of the task in them.
        FIELD_WEIGHTS.partialDefinition / Math.max(1, lengthFactor(relativeLength))
      : 0;
  const path = match.inFileName
    ? FIELD_WEIGHTS.fileName
    : match.inDirectory
      ? FIELD_WEIGHTS.directory
      : 0;
  const frequency = match.exactLines.length + 0.5 * match.partialLines.length;
  const saturated =
    (frequency * (SATURATION + 1)) / (frequency + SATURATION * lengthFactor(relativeLength));
  const content = (FIELD_WEIGHTS.content * saturated) / (SATURATION + 1);
  const phrase =
    match.form === 'phrase' && match.exactLines.length > 0 ? FIELD_WEIGHTS.exactPhrase : 0;
  return definition + path + content + phrase;
}

/**
 * Where the concepts occur: line `lines[i]` holds concept `concepts[i]`. Two arrays, not an object
 * per occurrence: every matched file of every cycle is ranked.
 */
interface Occurrences {
  lines: number[];
  concepts: string[];
}

/**
 * The most the task's ideas meet in one place: over every window of `PROXIMITY_WINDOW` lines, the
 * summed value of the concepts found in it, less the strongest one (one idea alone meets
 * nothing). Linear in occurrences times the concepts present, which the query bounds.
 */
function proximity({ lines, concepts }: Occurrences, valueOf: ReadonlyMap<string, number>): number {
  // One idea alone meets nothing: most matched files hold one of the task's ideas, and need no sort.
  if (concepts.every((concept) => concept === concepts[0])) return 0;
  // By line; occurrences on one line keep the order they were found in (the sort is stable).
  const order = lines
    .map((_, index) => index)
    .sort((left, right) => (lines[left] ?? 0) - (lines[right] ?? 0));
  const present = new Map<string, number>();
  let best = 0;
  let start = 0;
  for (const index of order) {
    const line = lines[index] ?? 0;
    const concept = concepts[index] ?? '';
    present.set(concept, (present.get(concept) ?? 0) + 1);
    for (
      let left = order[start];
      left !== undefined && (lines[left] ?? 0) <= line - PROXIMITY_WINDOW;
      left = order[++start]
    ) {
      const leftConcept = concepts[left] ?? '';
      const remaining = (present.get(leftConcept) ?? 1) - 1;
      if (remaining === 0) present.delete(leftConcept);
      else present.set(leftConcept, remaining);
    }
    if (present.size < 2) continue;
    let sum = 0;
    let strongest = 0;
    for (const held of present.keys()) {
      const value = valueOf.get(held) ?? 0;
      sum += value;
      strongest = Math.max(strongest, value);
    }
    best = Math.max(best, sum - strongest);
  }
  return best;
}

export function rankScore(input: RankInput): number {
  return rankScoreAbove(input, 0) ?? 0;
}

/**
 * `rankScore`, or undefined when the score is certainly below `floor`, found without looking for
 * where the ideas meet (the costly part). A cycle ranks every matched file to keep a few dozen,
 * and once it holds that many, most files cannot reach the last of them.
 */
export function rankScoreAbove(input: RankInput, floor: number): number | undefined {
  const byConcept = new Map<string, number>();
  const valueOf = new Map<string, number>();
  const concepts = input.matches.map((match) => {
    const importance = input.importance?.(match.keyword) ?? 1;
    const contribution = match.weight * importance * fieldScore(match, input.relativeLength);
    const concept = input.conceptOf?.(match.keyword) ?? match.keyword.toLowerCase();
    byConcept.set(concept, Math.max(byConcept.get(concept) ?? 0, contribution));
    valueOf.set(concept, Math.max(valueOf.get(concept) ?? 0, match.weight * importance));
    return concept;
  });
  const kindWeight = input.wantedKinds?.has(input.kind) ? 1 : KIND_WEIGHTS[input.kind];
  if (floor > 0) {
    // The ideas meet at best all in one window: every value but the strongest.
    let contributions = 0;
    for (const contribution of byConcept.values()) contributions += contribution;
    let values = 0;
    let strongest = 0;
    for (const value of valueOf.values()) {
      values += value;
      strongest = Math.max(strongest, value);
    }
    const most = (contributions + PROXIMITY_WEIGHT * (values - strongest)) * kindWeight;
    // Below by more than rounding can account for: the exact score adds in another order.
    if (most < floor * (1 - 1e-9)) return undefined;
  }
  const occurrences: Occurrences = { lines: [], concepts: [] };
  input.matches.forEach((match, index) => {
    for (const line of match.exactLines) {
      occurrences.lines.push(line);
      occurrences.concepts.push(concepts[index] ?? '');
    }
  });
  let total = PROXIMITY_WEIGHT * proximity(occurrences, valueOf);
  for (const contribution of byConcept.values()) total += contribution;
  return total * kindWeight;
}
