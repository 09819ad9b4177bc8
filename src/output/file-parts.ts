import type { LineRange } from '../contracts/candidate.js';
import type { DefinedSymbol } from '../contracts/symbol.js';
import { definitionRanges, scanBrackets } from '../dispatch/definition-ranges.js';

/**
 * The parts of a file a subagent gets when the whole file does not fit: each line range that
 * matters widened to the innermost definition holding it whole, with the lines left out named,
 * so the subagent reads whole functions and knows what it has not seen.
 */

export interface FilePart {
  start: number;
  end: number;
  /** The definition shown whole, when the part is one. */
  symbol?: DefinedSymbol | undefined;
}

/** The parts to show: `ranges` widened to their innermost enclosing definitions, merged. */
export function fileParts(
  path: string,
  lines: readonly string[],
  symbols: readonly DefinedSymbol[],
  ranges: readonly LineRange[],
): FilePart[] {
  const definitions = definitionRanges(path, lines, symbols, scanBrackets(lines));
  const widened = ranges.map(([start, end]): FilePart => {
    let best: FilePart | undefined;
    definitions.forEach((definition, index) => {
      if (definition.start > start || definition.end < end) return;
      if (best && definition.end - definition.start >= best.end - best.start) return;
      best = { start: definition.start, end: definition.end, symbol: symbols[index] };
    });
    return best ?? { start: Math.max(1, start), end: Math.min(lines.length, end) };
  });
  const merged: FilePart[] = [];
  for (const part of widened.sort(
    (left, right) => left.start - right.start || right.end - left.end,
  )) {
    const last = merged.at(-1);
    if (last && part.start <= last.end + 1) {
      // A definition inside one already shown adds nothing; two that touch become one plain part.
      if (part.end > last.end) {
        last.end = part.end;
        last.symbol = undefined;
      }
    } else merged.push({ ...part });
  }
  return merged;
}

function rangeText(start: number, end: number): string {
  return start === end ? `${start}` : `${start}–${end}`;
}

/** The line ranges of a file of `lineCount` lines that `parts` leave out. */
export function leftOutRanges(parts: readonly FilePart[], lineCount: number): LineRange[] {
  const gaps: LineRange[] = [];
  let next = 1;
  for (const part of parts) {
    if (part.start > next) gaps.push([next, part.start - 1]);
    next = Math.max(next, part.end + 1);
  }
  if (next <= lineCount) gaps.push([next, lineCount]);
  return gaps;
}

/**
 * One line naming what is shown and what is not: "Parts of the file: lines 10–42 (function `x`),
 * 50–61; lines 1–9, 43–49, 62–120 left out."
 */
export function describeParts(parts: readonly FilePart[], lineCount: number): string {
  const shown = parts.map((part) => {
    const name = part.symbol
      ? ` (${part.symbol.kind ? `${part.symbol.kind} ` : ''}\`${part.symbol.name}\`)`
      : '';
    return `${rangeText(part.start, part.end)}${name}`;
  });
  const gaps = leftOutRanges(parts, lineCount).map(([start, end]) => rangeText(start, end));
  const left = gaps.length > 0 ? `; lines ${gaps.join(', ')} left out` : '';
  return `Parts of the file: lines ${shown.join(', ')}${left}.`;
}

/** The numbered lines of `parts` (`numbered` is the whole file numbered), `…` between parts. */
export function renderParts(numbered: readonly string[], parts: readonly FilePart[]): string {
  return parts.map((part) => numbered.slice(part.start - 1, part.end).join('\n')).join('\n…\n');
}
