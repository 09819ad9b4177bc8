import { identifiersOf } from '../text/identifiers.js';
import { nameDefinedOn } from '../structure/outline.js';
import { lineAt, lineStartsOf } from '../text/line-starts.js';
import { MAX_MATCHED_LINE_LENGTH } from '../text/word-postings.js';
import { holdsEveryWord, isLiteral, normalizeIdentifier, type KeywordPattern } from './keyword.js';
import { stemsOfIdentifier, type SourceFile } from '../repository/source-file.js';
import {
  MAX_LINES_PER_KEYWORD,
  NOTHING,
  addLine,
  byNameOnly,
  commonLines,
  definitionsOf,
  emptyMatch,
  inNameOf,
  isMatched,
  linesFull,
  memberScan,
  nameMatch,
  type FileScan,
} from './keyword-match.js';
import { scanIndexedWords } from './scan-indexed.js';
import { lineHoldsStem } from './line-holds-stem.js';

/**
 * One file against the keywords of a query. A stem is a substring of the lower-cased text it came
 * from, so the lines that may hold a keyword's word are found by a plain substring search of the
 * lower-cased text, and only the words where those lines hold it are split and stemmed (a
 * line's identifiers are listed only to tell an identifier keyword exactly): a file is never
 * indexed whole, and a file that holds none of the keywords costs one search per stem. A file
 * that comes with its words indexed (from a stored index) is searched by them instead.
 */

interface LineWords {
  /** The line's identifiers as written: stemmed, or normalised, only where asked. */
  tokens: string[];
  stems?: Set<string>;
  identifiers?: Set<string>;
}

function identifiersOfLine(words: LineWords): Set<string> {
  return (words.identifiers ??= new Set(words.tokens.map(normalizeIdentifier)));
}

function stemsOfLine(words: LineWords): Set<string> {
  return (words.stems ??= new Set(words.tokens.flatMap((token) => stemsOfIdentifier(token))));
}

/**
 * What earlier scans found out about which words a file holds: refined queries repeat most of
 * their words, and a word known to be absent spares the search, and often the lower-casing.
 */
export interface KnownWords {
  get(text: string): boolean | undefined;
  set(text: string, held: boolean): void;
}

/** What one scan learns, for a caller that keeps nothing between scans. */
function scanMemory(): KnownWords {
  const held = new Map<string, boolean>();
  return { get: (text) => held.get(text), set: (text, holds) => void held.set(text, holds) };
}

/** The lower-cased text of a file, searched by substring, with each line's words read once. */
function searchableText(file: SourceFile, known: KnownWords) {
  // Lower-cased on first need: a file whose words are all known to be absent is never searched.
  let lowered: string | undefined;
  const lower = () => (lowered ??= file.text.toLowerCase());
  // Lower-casing never moves a line break, but can lengthen a line (`İ` becomes two characters):
  // where the lengths differ, the text's lines start elsewhere than its lower case's. Found only
  // once some text is: most files hold none of a query's rarer words.
  let lowerStarts: number[] | undefined;
  let textStarts: number[] | undefined;
  const startsOfLines = () => (lowerStarts ??= lineStartsOf(lower()));
  /** A line of the text as written, without the file's lines split and kept. */
  const textLineStarts = () =>
    (textStarts ??=
      lower().length === file.text.length ? startsOfLines() : lineStartsOf(file.text));
  const lineOfText = (line: number): string => lineAt(file.text, textLineStarts(), line);
  const lowerLine = (line: number): string => lineAt(lower(), startsOfLines(), line);
  const words = new Map<number, LineWords>();
  const wordsOf = (line: number): LineWords => {
    let lineWords = words.get(line);
    if (!lineWords) words.set(line, (lineWords = { tokens: identifiersOf(lineOfText(line)) }));
    return lineWords;
  };
  // Keywords share words (`config`, `file`): each is searched for once per file.
  const holds = (text: string): boolean => {
    let holds = known.get(text);
    if (holds === undefined) known.set(text, (holds = lower().includes(text)));
    return holds;
  };
  const linesByText = new Map<string, number[]>();
  /** The lines (0-based, ascending) holding `text`. */
  const linesOf = (text: string): number[] => {
    let lines = linesByText.get(text);
    if (lines) return lines;
    lines = [];
    let line = 0;
    let at = text.length > 0 && holds(text) ? lower().indexOf(text) : -1;
    const starts = at === -1 ? [] : startsOfLines();
    while (at !== -1) {
      // The line holding `at`: the last start at or before it, searched from the last line found.
      let low = line;
      let high = starts.length - 1;
      while (low < high) {
        const middle = (low + high + 1) >> 1;
        if ((starts[middle] ?? 0) <= at) low = middle;
        else high = middle - 1;
      }
      line = low;
      lines.push(line);
      // One hit per line is enough: go on from the next line.
      const next = starts[line + 1];
      if (next === undefined) break;
      at = lower().indexOf(text, next);
    }
    linesByText.set(text, lines);
    return lines;
  };
  return {
    holds,
    /** False only when the file is already known to lack the text: nothing is searched. */
    mayHold: (text: string) => known.get(text) !== false,
    /** The lines (0-based, ascending) holding any of these texts. */
    linesHolding(texts: readonly string[]): number[] {
      if (texts.length === 1) return linesOf(texts[0] ?? '');
      const lines = new Set<number>();
      for (const text of texts) for (const line of linesOf(text)) lines.add(line);
      return [...lines].sort((left, right) => left - right);
    },
    lowerLine,
    textLine: lineOfText,
    /** A line's length as written, measured without cutting it out. */
    lineLength(line: number): number {
      const starts = textLineStarts();
      const next = starts[line + 1];
      return (next === undefined ? file.text.length + 1 : next) - 1 - (starts[line] ?? 0);
    },
    wordsOf,
    /** Whether the line holds `stem` as one of its words' stems. */
    holdsWord(line: number, stem: string): boolean {
      // Where lower-casing moved characters, the line's words are found from its tokens instead.
      return lower().length === file.text.length
        ? lineHoldsStem(lineOfText(line), lowerLine(line), stem, stemsOfIdentifier)
        : stemsOfLine(wordsOf(line)).has(stem);
    },
  };
}

type SearchableText = ReturnType<typeof searchableText>;

const showable = (text: SearchableText, line: number) =>
  text.lineLength(line) > 0 && text.lineLength(line) <= MAX_MATCHED_LINE_LENGTH;

export function scanFile(
  file: SourceFile,
  keywords: readonly KeywordPattern[],
  known: KnownWords = scanMemory(),
): FileScan[] {
  let text: SearchableText | undefined;
  const searchable = () => (text ??= searchableText(file, known));
  const indexed = file.words;
  return keywords.map((keyword) =>
    isLiteral(keyword)
      ? scanLiteral(searchable(), keyword)
      : indexed
        ? scanIndexedWords(file, indexed, keyword)
        : scanWords(file, searchable(), keyword),
  );
}

/** Text found as written (Chinese, Japanese, Korean): the lines that hold it. */
function scanLiteral(text: SearchableText, keyword: KeywordPattern & { phrase: string }): FileScan {
  const lines = text
    .linesHolding([keyword.phrase])
    .filter((line) => text.lineLength(line) <= MAX_MATCHED_LINE_LENGTH)
    .slice(0, MAX_LINES_PER_KEYWORD)
    .map((line) => line + 1);
  return lines.length > 0
    ? { match: { ...emptyMatch(keyword), exactLines: lines }, counted: true }
    : NOTHING;
}

function scanWords(file: SourceFile, text: SearchableText, keyword: KeywordPattern): FileScan {
  const inName = inNameOf(file);
  // Whether the file can hold every word, and count for the keyword's frequency, is known from a
  // plain search of its text: when it can do neither, no line is looked at. What is already
  // known is asked first: a word known to be absent often settles it with no search at all.
  const holdsEvery = (holds: (stem: string) => boolean) =>
    holdsEveryWord(keyword, holds) ||
    keyword.words.every(([plain = '']) => holds(plain) || inName(plain));
  const possible = holdsEvery(text.mayHold) && holdsEvery(text.holds);
  // Most files of a repository hold none of a rare keyword: settled by name alone, with nothing
  // built for them.
  if (!possible && !keyword.member) return scanName(file, keyword);
  const wordLines = keyword.words.map((alternatives) =>
    possible ? text.linesHolding(alternatives) : [],
  );
  // Per word: held by the file as a word (some equivalent stem), and as its own first stem.
  const found = keyword.words.map(() => false);
  const foundPlain = keyword.words.map(() => false);
  keyword.words.forEach((alternatives, word) => {
    const plain = alternatives[0] ?? '';
    for (const line of wordLines[word] ?? []) {
      if (!foundPlain[word] && text.holdsWord(line, plain)) found[word] = foundPlain[word] = true;
      if (!found[word] && alternatives.some((alternative) => text.holdsWord(line, alternative)))
        found[word] = true;
      if (found[word] && foundPlain[word]) break;
    }
  });
  const counted = keyword.words.every(
    ([plain = ''], word) => foundPlain[word] === true || inName(plain),
  );
  const content = found.every(Boolean);
  if (keyword.member) return memberScan(file, keyword, keyword.member, counted);
  const match = nameMatch(file, keyword) ?? emptyMatch(keyword);
  if (content) {
    const lines = commonLines(wordLines);
    match.definitions = mayDefine(file, text, keyword, lines) ? definitionsOf(file, keyword) : [];
    for (const line of lines) {
      if (linesFull(match, keyword)) break;
      if (!showable(text, line)) continue;
      if (!holdsEveryWord(keyword, (word) => text.holdsWord(line, word))) continue;
      const exact =
        keyword.phrase !== undefined
          ? text.lowerLine(line).includes(keyword.phrase)
          : keyword.identifier !== undefined
            ? identifiersOfLine(text.wordsOf(line)).has(keyword.identifier)
            : true;
      addLine(match, line, exact);
    }
  }
  return { match: isMatched(match) ? match : undefined, counted };
}

/**
 * Whether one of these lines defines a name holding every word of the keyword. A definition's
 * name is on its line, so only such a line can hold one: most files that hold a common word define
 * nothing by it, and their outline is not found for it.
 */
function mayDefine(
  file: SourceFile,
  text: SearchableText,
  keyword: KeywordPattern,
  lines: readonly number[],
): boolean {
  return lines.some((line) => {
    const name = nameDefinedOn(file.path, text.textLine(line));
    if (name === undefined) return false;
    const stems = stemsOfIdentifier(name);
    return holdsEveryWord(keyword, (word) => stems.includes(word));
  });
}

/** A keyword whose words are not all in the file's text: matched by its name, if at all. */
function scanName(file: SourceFile, keyword: KeywordPattern): FileScan {
  const inName = inNameOf(file);
  const counted = keyword.words.every(([plain = '']) => inName(plain));
  return byNameOnly(nameMatch(file, keyword), counted);
}
