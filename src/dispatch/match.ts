import { identifiersOf } from '../text/identifiers.js';
import {
  compileKeyword,
  hasAllWords,
  normalizeIdentifier,
  type KeywordPattern,
} from './keyword.js';
import { stemsOfIdentifier, type SourceFile } from './source-file.js';
import type { Workspace } from './workspace.js';

/** A keyword with its weight in this workspace: rarer keywords weigh more (BM25's idf). */
export interface WeightedKeyword extends KeywordPattern {
  weight: number;
}

/** Where one keyword matched one file. Line numbers are 1-based. */
export interface KeywordMatch {
  keyword: string;
  weight: number;
  inFileName: boolean;
  inDirectory: boolean;
  definitions: { name: string; line: number; exact: boolean }[];
  /** Lines with the keyword itself: the word, the identifier, or the phrase verbatim. */
  exactLines: number[];
  /** Lines with all of the keyword's words but not the keyword itself. */
  partialLines: number[];
}

const MAX_LINES_PER_KEYWORD = 200;

export function weighKeywords(
  keywords: readonly string[],
  workspace: Workspace,
): WeightedKeyword[] {
  const total = workspace.files.length;
  const seen = new Set<string>();
  const weighted: WeightedKeyword[] = [];
  for (const keyword of keywords) {
    const pattern = compileKeyword(keyword);
    if (!pattern || seen.has(pattern.keyword.toLowerCase())) continue;
    seen.add(pattern.keyword.toLowerCase());
    const frequency = workspace.documentFrequency(
      pattern.words.map((alternatives) => alternatives[0] ?? ''),
    );
    const weight = Math.log(1 + (total - frequency + 0.5) / (frequency + 0.5));
    weighted.push({ ...pattern, weight });
  }
  return weighted;
}

function union(left: ReadonlySet<string>, right: ReadonlySet<string>): Set<string> {
  return new Set([...left, ...right]);
}

export function matchFile(file: SourceFile, keywords: readonly WeightedKeyword[]): KeywordMatch[] {
  const pathStems = union(file.fileNameStems, file.directoryStems);
  const matches: KeywordMatch[] = [];
  const inContent: WeightedKeyword[] = [];
  for (const keyword of keywords) {
    const inFileName = hasAllWords(keyword, file.fileNameStems);
    const inDirectory = !inFileName && hasAllWords(keyword, pathStems);
    const definitions = file.outline.symbols
      .filter((symbol) => hasAllWords(keyword, new Set(stemsOfIdentifier(symbol.name))))
      .map((symbol) => ({
        name: symbol.name,
        line: symbol.line,
        // The symbol is the keyword itself, not merely a name that contains it.
        exact:
          keyword.identifier !== undefined
            ? normalizeIdentifier(symbol.name) === keyword.identifier
            : keyword.phrase === undefined && stemsOfIdentifier(symbol.name).length === 1,
      }));
    const match: KeywordMatch = {
      keyword: keyword.keyword,
      weight: keyword.weight,
      inFileName,
      inDirectory,
      definitions,
      exactLines: [],
      partialLines: [],
    };
    matches.push(match);
    if (hasAllWords(keyword, file.stems)) inContent.push(keyword);
  }
  if (inContent.length > 0) scanLines(file, inContent, matches);
  return matches.filter(
    (match) =>
      match.inFileName ||
      match.inDirectory ||
      match.definitions.length > 0 ||
      match.exactLines.length > 0 ||
      match.partialLines.length > 0,
  );
}

function scanLines(
  file: SourceFile,
  keywords: readonly WeightedKeyword[],
  matches: KeywordMatch[],
): void {
  const byKeyword = new Map(matches.map((match) => [match.keyword, match]));
  const hasPhrase = keywords.some((keyword) => keyword.phrase !== undefined);
  file.lines.forEach((text, index) => {
    if (text.length === 0 || text.length > 1000) return;
    const identifiers = identifiersOf(text);
    if (identifiers.length === 0) return;
    const stems = new Set<string>();
    const normalized = new Set<string>();
    for (const identifier of identifiers) {
      normalized.add(normalizeIdentifier(identifier));
      for (const word of stemsOfIdentifier(identifier)) stems.add(word);
    }
    const lower = hasPhrase ? text.toLowerCase() : '';
    for (const keyword of keywords) {
      const match = byKeyword.get(keyword.keyword);
      if (!match || !hasAllWords(keyword, stems)) continue;
      const exact =
        keyword.phrase !== undefined
          ? lower.includes(keyword.phrase)
          : keyword.identifier !== undefined
            ? normalized.has(keyword.identifier)
            : true;
      const lines = exact ? match.exactLines : match.partialLines;
      if (lines.length < MAX_LINES_PER_KEYWORD) lines.push(index + 1);
    }
  });
}
