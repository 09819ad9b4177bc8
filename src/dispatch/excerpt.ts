import type { SourceFile } from '../repository/source-file.js';
import type { KeywordMatch, LineRange } from '../contracts/candidate.js';
import {
  alignWindow,
  definitionRanges,
  innermostRange,
  scanBrackets,
} from './definition-ranges.js';
import { lineAfterLicenseHeader } from './license-header.js';

/** What an excerpt is cut from: a file's path, lines (redacted) and outline. */
export type ExcerptSource = Pick<SourceFile, 'path' | 'lines' | 'outline'>;

/**
 * A compact view of a file for a judge: its outline (imports and defined symbols) and the numbered
 * lines that matched, within a token budget, so no judge needs a whole file. Around each matched
 * line it shows the whole innermost definition when it fits (a window cut mid-call hides what the
 * code does), else the definition's signature and a few lines either side widened to whole
 * statements. What the budget has left widens the parts shown. The parse gives a definition's
 * extent; without it, src/dispatch/definition-ranges.ts infers it from braces or indentation.
 */

export interface Excerpt {
  text: string;
  /**
   * The parts of the file that matter, ascending: the text shows them, widened by the lines around
   * them as far as the budget allows.
   */
  lineRanges: LineRange[];
}

const WINDOW_RADIUS = 2;
const MAX_LINE_LENGTH = 200;
const OUTLINE_SHARE = 0.35;
const SEPARATOR = '\n---\n';
/** Most lines of a signature shown above a window inside a long definition. */
const MAX_SIGNATURE_LINES = 3;

function clip(text: string, length: number): string {
  return text.length > length ? `${text.slice(0, length - 1)}…` : text;
}

function outlineText(file: ExcerptSource, budgetCharacters: number): string {
  const parts: string[] = [];
  if (file.outline.imports.length > 0) {
    parts.push(
      `imports: ${[...new Set(file.outline.imports.map((entry) => entry.specifier))].join(', ')}`,
    );
  }
  if (file.outline.symbols.length > 0) {
    const symbols = file.outline.symbols.map(
      (symbol) => `${symbol.exported ? 'export ' : ''}${symbol.name} L${symbol.line}`,
    );
    parts.push(`defines: ${symbols.join(', ')}`);
  }
  return parts
    .map((part) => clip(part, budgetCharacters))
    .join('\n')
    .slice(0, budgetCharacters);
}

/** Lines worth showing, most telling first: matched definitions, then rare exact hits. */
function prioritisedLines(matches: readonly KeywordMatch[]): number[] {
  const priority = new Map<number, number>();
  const bump = (line: number, amount: number) =>
    priority.set(line, (priority.get(line) ?? 0) + amount);
  for (const match of matches) {
    for (const definition of match.definitions)
      bump(definition.line, match.weight * (definition.exact ? 3 : 1.5));
    for (const line of match.exactLines) bump(line, match.weight);
    for (const line of match.partialLines) bump(line, match.weight * 0.5);
  }
  return [...priority.entries()]
    .sort((left, right) => right[1] - left[1] || left[0] - right[0])
    .map(([line]) => line);
}

/** A few lines either side of `line`, within the file. */
const windowAround = (line: number, lineCount: number): LineRange => [
  Math.max(1, line - WINDOW_RADIUS),
  Math.min(lineCount, line + WINDOW_RADIUS),
];

/** Most matched lines named by `matchedLineRanges`. */
const MAX_MATCHED_LINES = 8;

/**
 * The parts of a file that matter, without building its excerpt: a few lines either side of its
 * most telling matched lines. For the candidates of a judge that reads no excerpts, whose
 * excerpts would cost more than their judgement.
 */
export function matchedLineRanges(
  matches: readonly KeywordMatch[],
  lineCount: number,
): LineRange[] {
  return mergeRanges(
    prioritisedLines(matches)
      .slice(0, MAX_MATCHED_LINES)
      .map((line) => windowAround(line, lineCount)),
  );
}

function mergeRanges(ranges: LineRange[]): LineRange[] {
  const sorted = [...ranges].sort((left, right) => left[0] - right[0]);
  const merged: LineRange[] = [];
  for (const range of sorted) {
    const last = merged.at(-1);
    if (last && range[0] <= last[1] + 1) last[1] = Math.max(last[1], range[1]);
    else merged.push([range[0], range[1]]);
  }
  return merged;
}

function renderRanges(file: ExcerptSource, ranges: readonly LineRange[]): string {
  const width = String(file.lines.length).length;
  return ranges
    .map(([start, end]) =>
      file.lines
        .slice(start - 1, end)
        .map(
          (text, offset) =>
            `${String(start + offset).padStart(width)}| ${clip(text, MAX_LINE_LENGTH)}`,
        )
        .join('\n'),
    )
    .join('\n…\n');
}

/**
 * Spends what the budget has left on the lines around the parts shown, a line either side of each
 * part per round, so a single hit is not shown as one line and an outline, and a file that fits
 * is shown whole.
 */
function widen(file: ExcerptSource, parts: readonly LineRange[], budget: number): LineRange[] {
  const lastLine = file.lines.length;
  const width = String(lastLine).length;
  // A line's share of the rendering: number, `| `, text, newline. Joining two parts saves their
  // gap marker, so the sum can only overestimate, and the budget holds.
  const lineCost = (line: number) =>
    width + 3 + Math.min(file.lines[line - 1]?.length ?? 0, MAX_LINE_LENGTH);
  let ranges = parts.map(([start, end]): LineRange => [start, end]);
  let used = renderRanges(file, ranges).length;
  for (let grew = true; grew;) {
    grew = false;
    for (const range of ranges) {
      for (const side of [1, 0] as const) {
        const line = side === 1 ? range[1] + 1 : range[0] - 1;
        if (line < 1 || line > lastLine) continue;
        if (ranges.some((other) => other[0] <= line && line <= other[1])) continue;
        if (used + lineCost(line) > budget) continue;
        used += lineCost(line);
        range[side] = line;
        grew = true;
      }
    }
    ranges = mergeRanges(ranges);
    used = renderRanges(file, ranges).length;
  }
  return ranges;
}

export function buildExcerpt(
  file: ExcerptSource,
  matches: readonly KeywordMatch[],
  budgetTokens: number,
): Excerpt {
  const budget = budgetTokens * 4;
  const outline = outlineText(file, Math.floor(budget * OUTLINE_SHARE));
  const remaining = budget - outline.length - (outline ? SEPARATOR.length : 0);
  const lastLine = file.lines.length;
  const start = lineAfterLicenseHeader(file.lines);
  // A hit in a license header ("This file is part of the Foo package") says nothing of the code.
  const wanted = prioritisedLines(matches).filter((line) => line >= start);
  const join = (ranges: LineRange[], body: string) => ({
    text: [outline, body].filter(Boolean).join(SEPARATOR),
    lineRanges: ranges,
  });
  if (wanted.length === 0) {
    // A file with no hit past its license header (asked for by name) shows its beginning, past
    // the header, as far as the budget goes.
    let end = start - 1;
    while (end < lastLine && renderRanges(file, [[start, end + 1]]).length <= remaining) end++;
    const opening: LineRange[] = end >= start ? [[start, end]] : [];
    return join(opening, renderRanges(file, opening));
  }
  let ranges: LineRange[] = [];
  // A part that does not fit is skipped; a later, smaller or adjacent one may still fit.
  const brackets = scanBrackets(file.lines);
  const definitions = definitionRanges(file.path, file.lines, file.outline.symbols, brackets);
  for (const line of wanted.slice(0, 64)) {
    const window = windowAround(line, lastLine);
    const definition = innermostRange(definitions, line);
    const candidates: LineRange[][] = [];
    if (definition) {
      const aligned = alignWindow(brackets, window, [definition.start, definition.end]);
      const signature: LineRange = [
        definition.start,
        Math.min(definition.signatureEnd, definition.start + MAX_SIGNATURE_LINES - 1),
      ];
      candidates.push([[definition.start, definition.end]], [signature, aligned], [aligned]);
    } else candidates.push([alignWindow(brackets, window, [1, lastLine])]);
    candidates.push([window]);
    for (const parts of candidates) {
      const next = mergeRanges([...ranges, ...parts]);
      if (renderRanges(file, next).length > remaining) continue;
      ranges = next;
      break;
    }
  }
  return join(ranges, renderRanges(file, widen(file, ranges, remaining)));
}
