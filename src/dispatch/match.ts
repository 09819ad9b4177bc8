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
const MAX_LINE_LENGTH = 1000;

/** One keyword in one file: its match, if any, and whether the file counts in its frequency. */
interface FileScan {
  match: KeywordMatch | undefined;
  counted: boolean;
}

/** A keyword over the whole workspace: its matches by path and how many files hold it. */
interface KeywordScan {
  byPath: Map<string, KeywordMatch>;
  frequency: number;
}

const scans = new WeakMap<Workspace, Map<string, KeywordScan>>();
const keyOf = (keyword: string) => keyword.toLowerCase();

/**
 * Each keyword with its weight, from how many files hold it. Finding that out is the search
 * itself, so each new keyword is matched against every file here, once per workspace: refined
 * queries mostly repeat earlier keywords, and later cycles pay only for new ones.
 */
export function weighKeywords(
  keywords: readonly string[],
  workspace: Workspace,
): WeightedKeyword[] {
  let cache = scans.get(workspace);
  if (!cache) scans.set(workspace, (cache = new Map()));
  const seen = new Set<string>();
  const patterns: KeywordPattern[] = [];
  for (const keyword of keywords) {
    const pattern = compileKeyword(keyword);
    if (!pattern || seen.has(keyOf(pattern.keyword))) continue;
    seen.add(keyOf(pattern.keyword));
    patterns.push(pattern);
  }
  const fresh = patterns.filter((pattern) => !cache.has(keyOf(pattern.keyword)));
  if (fresh.length > 0) {
    const found = fresh.map((): KeywordScan => ({ byPath: new Map(), frequency: 0 }));
    for (const file of workspace.files) {
      scanFile(file, fresh).forEach((scan, index) => {
        const keyword = found[index];
        if (!keyword) return;
        if (scan.counted) keyword.frequency++;
        if (scan.match) keyword.byPath.set(file.path, scan.match);
      });
    }
    const total = workspace.files.length;
    fresh.forEach((pattern, index) => {
      const keyword = found[index];
      if (!keyword) return;
      const weight = weightOf(total, keyword.frequency);
      for (const match of keyword.byPath.values()) match.weight = weight;
      cache.set(keyOf(pattern.keyword), keyword);
    });
  }
  return patterns.map((pattern) => ({
    ...pattern,
    weight: weightOf(workspace.files.length, cache.get(keyOf(pattern.keyword))?.frequency ?? 0),
  }));
}

function weightOf(total: number, frequency: number): number {
  return Math.log(1 + (total - frequency + 0.5) / (frequency + 0.5));
}

/** The matches of these keywords (weighed in this workspace) in every file, by path. */
export function matchWorkspace(
  workspace: Workspace,
  keywords: readonly WeightedKeyword[],
): Map<string, KeywordMatch[]> {
  const cache = scans.get(workspace);
  const byFile = new Map<string, KeywordMatch[]>();
  for (const keyword of keywords) {
    for (const [path, match] of cache?.get(keyOf(keyword.keyword))?.byPath ?? []) {
      const list = byFile.get(path);
      if (list) list.push(match);
      else byFile.set(path, [match]);
    }
  }
  return byFile;
}

/** Where each keyword matches one file; keywords that match nowhere in it are left out. */
export function matchFile(file: SourceFile, keywords: readonly WeightedKeyword[]): KeywordMatch[] {
  return scanFile(file, keywords).flatMap((scan, index) =>
    scan.match ? [{ ...scan.match, weight: keywords[index]?.weight ?? 0 }] : [],
  );
}

/** What the line scan learns of one keyword in one file. */
interface WordState {
  pattern: KeywordPattern;
  /** Per word: some stem that counts as it is in the file, and its first (plain) stem is. */
  found: boolean[];
  foundPlain: boolean[];
  /** Per word: the lower-cased text holds one of its stems, so the scan may find it. */
  possible: boolean[];
  /** Every word is possible: lines may hold them all. */
  lineHits: boolean;
  match: KeywordMatch;
}

/**
 * One file against several keywords. A stem is a substring of the lower-cased text it came
 * from, so a keyword whose stems the text does not hold is ruled out at once, and only lines that
 * hold one of its stems are split into identifiers and stemmed: a file is never indexed whole.
 */
function scanFile(file: SourceFile, keywords: readonly KeywordPattern[]): FileScan[] {
  const lower = file.lines.join('\n').toLowerCase();
  const lowerLines = lower.split('\n');
  const states: WordState[] = [];
  const scans = keywords.map((keyword): FileScan => {
    if (isLiteral(keyword)) {
      const lines = lower.includes(keyword.phrase) ? literalLines(lowerLines, keyword.phrase) : [];
      return lines.length > 0
        ? { match: matchOf(keyword, { exactLines: lines }), counted: true }
        : { match: undefined, counted: false };
    }
    const possible = keyword.words.map((alternatives) =>
      alternatives.some((alternative) => lower.includes(alternative)),
    );
    const state: WordState = {
      pattern: keyword,
      found: keyword.words.map(() => false),
      foundPlain: keyword.words.map(() => false),
      possible,
      lineHits: keyword.member === undefined && possible.every(Boolean),
      match: matchOf(keyword, {}),
    };
    if (possible.some(Boolean)) states.push(state);
    return { match: state.match, counted: false };
  });
  if (states.length > 0) scanLines(file, lowerLines, states);
  const byPattern = new Map(states.map((state) => [state.pattern, state]));
  return keywords.map((keyword, index) => {
    const scan = scans[index] ?? { match: undefined, counted: false };
    if (isLiteral(keyword)) return scan;
    const state = byPattern.get(keyword);
    const found = (word: number) => state?.found[word] === true;
    const plain = (word: number) => state?.foundPlain[word] === true;
    const counted = keyword.words.every((alternatives, word) => {
      const first = alternatives[0] ?? '';
      return plain(word) || file.fileNameStems.has(first) || file.directoryStems.has(first);
    });
    const match = scan.match;
    if (!match) return { match, counted };
    if (keyword.member) {
      // Its words are searched on their own already; together they count where the member is
      // defined in its owner.
      match.definitions = memberDefinitions(file, keyword.member);
      return { match: match.definitions.length > 0 ? match : undefined, counted };
    }
    const content = keyword.words.every((_, word) => found(word));
    match.inFileName = hasAllWords(keyword, file.fileNameStems);
    match.inDirectory =
      !match.inFileName && hasAllWordsInEither(keyword, file.fileNameStems, file.directoryStems);
    if (content) match.definitions = definitionsOf(file, keyword);
    const matched =
      match.inFileName ||
      match.inDirectory ||
      match.definitions.length > 0 ||
      match.exactLines.length > 0 ||
      match.partialLines.length > 0;
    return { match: matched ? match : undefined, counted };
  });
}

/** The file's symbols whose names hold every word of the keyword. */
function definitionsOf(file: SourceFile, keyword: KeywordPattern): KeywordMatch['definitions'] {
  return file.outline.symbols.flatMap((symbol, index) => {
    const stems = file.symbolStems[index];
    if (!stems || !hasAllWords(keyword, stems)) return [];
    // The symbol is the keyword itself, not merely a name that contains it.
    const exact =
      keyword.identifier !== undefined
        ? normalizeIdentifier(symbol.name) === keyword.identifier
        : keyword.phrase === undefined && stems.size === 1;
    return [{ name: symbol.name, line: symbol.line, exact }];
  });
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

/** A match with nothing found yet, or found in one field only. */
function matchOf(
  keyword: KeywordPattern,
  found: Pick<Partial<KeywordMatch>, 'definitions' | 'exactLines'>,
): KeywordMatch {
  return {
    keyword: keyword.keyword,
    form: keyword.form,
    weight: 0,
    inFileName: false,
    inDirectory: false,
    definitions: found.definitions ?? [],
    exactLines: found.exactLines ?? [],
    partialLines: [],
  };
}

/** Lines that hold `phrase` (lower case) as written, at most `MAX_LINES_PER_KEYWORD`. */
function literalLines(lowerLines: readonly string[], phrase: string): number[] {
  const lines: number[] = [];
  for (let index = 0; index < lowerLines.length && lines.length < MAX_LINES_PER_KEYWORD; index++) {
    const text = lowerLines[index] ?? '';
    if (text.length <= MAX_LINE_LENGTH && text.includes(phrase)) lines.push(index + 1);
  }
  return lines;
}

/**
 * One pass over the lines for every keyword the text may hold: which words the file holds (as
 * the stems of its identifiers), and the lines that hold all of a keyword's words.
 */
function scanLines(
  file: SourceFile,
  lowerLines: readonly string[],
  states: readonly WordState[],
): void {
  const holds = (lower: string, alternatives: readonly string[]) =>
    alternatives.some((alternative) => lower.includes(alternative));
  lowerLines.forEach((lower, index) => {
    const text = file.lines[index] ?? '';
    if (text.length === 0) return;
    let stems: Set<string> | undefined;
    let normalized: Set<string> | undefined;
    for (const state of states) {
      const { words } = state.pattern;
      const lineHit =
        state.lineHits &&
        text.length <= MAX_LINE_LENGTH &&
        words.every((alternatives) => holds(lower, alternatives));
      const learns = words.some(
        (alternatives, word) =>
          state.possible[word] &&
          (!state.found[word] || !state.foundPlain[word]) &&
          holds(lower, alternatives),
      );
      if (!lineHit && !learns) continue;
      if (!stems || !normalized) {
        stems = new Set();
        normalized = new Set();
        for (const identifier of identifiersOf(text)) {
          normalized.add(normalizeIdentifier(identifier));
          for (const word of stemsOfIdentifier(identifier)) stems.add(word);
        }
      }
      const lineStems = stems;
      words.forEach((alternatives, word) => {
        if (alternatives.some((alternative) => lineStems.has(alternative)))
          state.found[word] = true;
        if (lineStems.has(alternatives[0] ?? '')) state.foundPlain[word] = true;
      });
      if (!lineHit || !hasAllWords(state.pattern, stems)) continue;
      const keyword = state.pattern;
      const exact =
        keyword.phrase !== undefined
          ? lower.includes(keyword.phrase)
          : keyword.identifier !== undefined
            ? normalized.has(keyword.identifier)
            : true;
      const lines = exact ? state.match.exactLines : state.match.partialLines;
      if (lines.length < MAX_LINES_PER_KEYWORD) lines.push(index + 1);
    }
  });
}
