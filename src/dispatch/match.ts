import { identifiersOf } from '../text/identifiers.js';
import {
  compileKeyword,
  hasAllWords,
  isLiteral,
  normalizeIdentifier,
  type KeywordPattern,
} from './keyword.js';
import { memberDefinitions } from './member-definitions.js';
import { stemsOfIdentifier, type SourceFile } from '../repository/source-file.js';
import type { Workspace } from '../repository/workspace.js';
import type { KeywordMatch } from '../contracts/candidate.js';

/** A keyword with its weight in this workspace: rarer keywords weigh more (BM25's idf). */
export interface WeightedKeyword extends KeywordPattern {
  weight: number;
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
    const frequency = isLiteral(pattern)
      ? literalFrequency(workspace, pattern.phrase)
      : workspace.documentFrequency(pattern.words.map((alternatives) => alternatives[0] ?? ''));
    const weight = Math.log(1 + (total - frequency + 0.5) / (frequency + 0.5));
    weighted.push({ ...pattern, weight });
  }
  return weighted;
}

/** True when every word of the keyword is in one set or the other. */
function hasAllWordsInEither(
  keyword: KeywordPattern,
  left: ReadonlySet<string>,
  right: ReadonlySet<string>,
): boolean {
  return keyword.words.every((alternatives) =>
    alternatives.some((alternative) => left.has(alternative) || right.has(alternative)),
  );
}

/** Where each keyword matches one file; keywords that match nowhere in it are left out. */
export function matchFile(file: SourceFile, keywords: readonly WeightedKeyword[]): KeywordMatch[] {
  const matches: KeywordMatch[] = [];
  const inContent: WeightedKeyword[] = [];
  for (const keyword of keywords) {
    if (isLiteral(keyword)) {
      const lines = literalLines(file, keyword.phrase);
      if (lines.length > 0) matches.push(matchOf(keyword, { exactLines: lines }));
      continue;
    }
    if (keyword.member) {
      // Its words are searched on their own already; together they count where the member is
      // defined in its owner.
      const definitions = memberDefinitions(file, keyword.member);
      if (definitions.length > 0) matches.push(matchOf(keyword, { definitions }));
      continue;
    }
    // Every symbol and line hit needs all the keyword's words in the file: check that first.
    const content = hasAllWords(keyword, file.stems);
    const inFileName = hasAllWords(keyword, file.fileNameStems);
    const inDirectory =
      !inFileName && hasAllWordsInEither(keyword, file.fileNameStems, file.directoryStems);
    if (!content && !inFileName && !inDirectory) continue;
    const definitions = content
      ? file.outline.symbols.flatMap((symbol, index) => {
          const stems = file.symbolStems[index];
          if (!stems || !hasAllWords(keyword, stems)) return [];
          // The symbol is the keyword itself, not merely a name that contains it.
          const exact =
            keyword.identifier !== undefined
              ? normalizeIdentifier(symbol.name) === keyword.identifier
              : keyword.phrase === undefined && stems.size === 1;
          return [{ name: symbol.name, line: symbol.line, exact }];
        })
      : [];
    matches.push({
      keyword: keyword.keyword,
      form: keyword.form,
      weight: keyword.weight,
      inFileName,
      inDirectory,
      definitions,
      exactLines: [],
      partialLines: [],
    });
    if (content) inContent.push(keyword);
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

/** A match found in one field only: the lines of a literal, or a member's definitions. */
function matchOf(
  keyword: WeightedKeyword,
  found: Pick<Partial<KeywordMatch>, 'definitions' | 'exactLines'>,
): KeywordMatch {
  return {
    keyword: keyword.keyword,
    form: keyword.form,
    weight: keyword.weight,
    inFileName: false,
    inDirectory: false,
    definitions: found.definitions ?? [],
    exactLines: found.exactLines ?? [],
    partialLines: [],
  };
}

/** Lines that hold `phrase` (lower case) as written, at most `MAX_LINES_PER_KEYWORD`. */
function literalLines(file: SourceFile, phrase: string): number[] {
  const lines: number[] = [];
  for (let index = 0; index < file.lines.length && lines.length < MAX_LINES_PER_KEYWORD; index++) {
    const text = file.lines[index] ?? '';
    if (text.length <= 1000 && text.toLowerCase().includes(phrase)) lines.push(index + 1);
  }
  return lines;
}

const literalCounts = new WeakMap<Workspace, Map<string, number>>();
/** How many files hold the phrase: a full pass, once per phrase and workspace. */
function literalFrequency(workspace: Workspace, phrase: string): number {
  let counts = literalCounts.get(workspace);
  if (!counts) literalCounts.set(workspace, (counts = new Map()));
  let count = counts.get(phrase);
  if (count === undefined) {
    count = workspace.files.filter((file) =>
      file.lines.some((text) => text.length <= 1000 && text.toLowerCase().includes(phrase)),
    ).length;
    counts.set(phrase, count);
  }
  return count;
}

const caches = new WeakMap<Workspace, Map<string, ReadonlyMap<string, KeywordMatch>>>();

/**
 * The matches of every keyword in every file, by path. Each keyword is matched once per workspace:
 * refined queries mostly repeat the keywords of earlier cycles, so later cycles pay only for new ones.
 */
export function matchWorkspace(
  workspace: Workspace,
  keywords: readonly WeightedKeyword[],
): Map<string, KeywordMatch[]> {
  let cache = caches.get(workspace);
  if (!cache) caches.set(workspace, (cache = new Map()));
  const key = (keyword: string) => keyword.toLowerCase();
  const fresh = keywords.filter((keyword) => !cache.has(key(keyword.keyword)));
  if (fresh.length > 0) {
    const found = new Map(
      fresh.map((keyword) => [key(keyword.keyword), new Map<string, KeywordMatch>()]),
    );
    for (const file of workspace.files) {
      for (const match of matchFile(file, fresh))
        found.get(key(match.keyword))?.set(file.path, match);
    }
    for (const [keyword, byPath] of found) cache.set(keyword, byPath);
  }
  const byFile = new Map<string, KeywordMatch[]>();
  for (const keyword of keywords) {
    for (const [path, match] of cache.get(key(keyword.keyword)) ?? []) {
      const list = byFile.get(path);
      if (list) list.push(match);
      else byFile.set(path, [match]);
    }
  }
  return byFile;
}

function scanLines(
  file: SourceFile,
  keywords: readonly WeightedKeyword[],
  matches: KeywordMatch[],
): void {
  const byKeyword = new Map(matches.map((match) => [match.keyword, match]));
  file.lines.forEach((text, index) => {
    if (text.length === 0 || text.length > 1000) return;
    // A stem is a substring of the lower-cased text it came from, so a plain substring test
    // rules out most lines before the costly tokenising.
    const lower = text.toLowerCase();
    const possible = keywords.filter((keyword) =>
      keyword.words.every((alternatives) =>
        alternatives.some((alternative) => lower.includes(alternative)),
      ),
    );
    if (possible.length === 0) return;
    const stems = new Set<string>();
    const normalized = new Set<string>();
    for (const identifier of identifiersOf(text)) {
      normalized.add(normalizeIdentifier(identifier));
      for (const word of stemsOfIdentifier(identifier)) stems.add(word);
    }
    for (const keyword of possible) {
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
