import { importGroupLines, namesDefinedIn } from '../structure/outline.js';
import { MAX_MATCHED_LINE_LENGTH } from '../text/word-postings.js';
import { ownString } from '../text/own-string.js';
import { holdsEveryWord, isLiteral, type KeywordPattern } from './keyword.js';
import { stemsOfIdentifier, type SourceFile } from '../repository/source-file.js';
import type { KeywordMatch } from '../contracts/candidate.js';
import {
  MAX_LINES_PER_KEYWORD,
  NOTHING,
  addLine,
  byNameOnly,
  commonLines,
  definitionOf,
  emptyMatch,
  inName,
  isMatched,
  linesFull,
  memberScan,
  nameMatch,
  type FileScan,
} from './keyword-match.js';
import { scanIndexedWords } from './scan-indexed.js';
import {
  scanMemory,
  searchableText,
  type KnownWords,
  type SearchableText,
} from './searchable-text.js';

/**
 * One file against the keywords of a query. A stem is a substring of the lower-cased text it came
 * from, so the lines that may hold a keyword's word are found by a plain substring search of the
 * lower-cased text, and only the words where those lines hold it are split and stemmed (a
 * line's identifiers are listed only to tell an identifier keyword exactly): a file is never
 * indexed whole, and a file that holds none of the keywords costs one search per stem. A file
 * that comes with its words indexed (from a stored index) is searched by them instead.
 */

const showable = (text: SearchableText, line: number) =>
  text.lineLength(line) > 0 && text.lineLength(line) <= MAX_MATCHED_LINE_LENGTH;

export function scanFile(
  file: SourceFile,
  keywords: readonly KeywordPattern[],
  known: KnownWords = scanMemory(),
): FileScan[] {
  let text: SearchableText | undefined;
  const searchable = () => (text ??= searchableText(file, known));
  return keywords.map((keyword) => scanKeyword(file, keyword, searchable));
}

/**
 * One keyword in one file: by its stored words where it has them (text found as written is
 * searched in its text even then), else in its text, which `searchable` makes on first need.
 */
export function scanKeyword(
  file: SourceFile,
  keyword: KeywordPattern,
  searchable: () => SearchableText = () => searchableText(file, scanMemory()),
): FileScan {
  if (isLiteral(keyword)) return scanLiteral(searchable(), keyword);
  return file.words
    ? scanIndexedWords(file, file.words, keyword)
    : scanWords(file, searchable(), keyword);
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

/**
 * Whether every word of the keyword is held (`holds` one of its stems), or failing that each
 * word's own stem is held or in the file's name. Loops, not callbacks: every file comes here for
 * every keyword, and most are settled here.
 */
function mayHoldEvery(
  file: SourceFile,
  keyword: KeywordPattern,
  holds: (stem: string) => boolean,
): boolean {
  if (holdsEveryWord(keyword, holds)) return true;
  const { words } = keyword;
  for (let word = 0; word < words.length; word++) {
    const plain = words[word]?.[0] ?? '';
    if (!holds(plain) && !inName(file, plain)) return false;
  }
  return true;
}

function scanWords(file: SourceFile, text: SearchableText, keyword: KeywordPattern): FileScan {
  // Whether the file can hold every word, and count for the keyword's frequency, is known from a
  // plain search of its text: when it can do neither, no line is looked at. What is already
  // known is asked first: a word known to be absent often settles it with no search at all.
  const possible =
    mayHoldEvery(file, keyword, text.mayHold) && mayHoldEvery(file, keyword, text.holds);
  // Most files of a repository hold none of a rare keyword: settled by name alone, with nothing
  // built for them.
  if (!possible && !keyword.member) return scanName(file, keyword);
  return scanLines(file, text, keyword, possible);
}

/** A keyword against the lines of a file that may hold it: its match, and whether it counts. */
function scanLines(
  file: SourceFile,
  text: SearchableText,
  keyword: KeywordPattern,
  possible: boolean,
): FileScan {
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
      // The plain stem is the first alternative, asked just above.
      for (let index = 1; index < alternatives.length && !found[word]; index++)
        if (text.holdsWord(line, alternatives[index] ?? '')) found[word] = true;
      if (found[word] && foundPlain[word]) break;
    }
  });
  const counted = keyword.words.every(
    ([plain = ''], word) => foundPlain[word] === true || inName(file, plain),
  );
  const content = found.every(Boolean);
  if (keyword.member) return memberScan(file, keyword, keyword.member, counted);
  const match = nameMatch(file, keyword) ?? emptyMatch(keyword);
  if (content) {
    const lines = commonLines(wordLines);
    match.definitions = definitionsOn(file, text, keyword, lines);
    for (const line of lines) {
      if (linesFull(match, keyword)) break;
      if (!showable(text, line)) continue;
      if (!holdsEveryWord(keyword, (word) => text.holdsWord(line, word))) continue;
      const exact =
        keyword.phrase !== undefined
          ? text.lowerLine(line).includes(keyword.phrase)
          : keyword.identifier !== undefined
            ? text.identifiersOn(line).has(keyword.identifier)
            : true;
      addLine(match, line, exact);
    }
  }
  return { match: isMatched(match) ? match : undefined, counted };
}

/**
 * The definitions on these lines whose names hold every word of the keyword, as the file's
 * outline lists them, read from these lines alone. A definition's name is on its line, so only a
 * line holding the keyword's words can hold one: no file's outline is found for a search.
 */
function definitionsOn(
  file: SourceFile,
  text: SearchableText,
  keyword: KeywordPattern,
  lines: readonly number[],
): KeywordMatch['definitions'] {
  const nameDefinedOn = namesDefinedIn(file.path);
  // Made only for a file with such a line: most files define nothing by a keyword's words.
  let inImportGroup: ((line: number) => boolean) | undefined;
  const definitions: KeywordMatch['definitions'] = [];
  for (const line of lines) {
    const name = nameDefinedOn(text.textLine(line));
    if (name === undefined) continue;
    const stems = stemsOfIdentifier(name);
    if (!holdsEveryWord(keyword, (word) => stems.includes(word))) continue;
    inImportGroup ??= importGroupLines(file.path, text.textLine, text.linesHolding);
    if (!inImportGroup(line))
      definitions.push(
        definitionOf({ name: ownString(name), line: line + 1 }, keyword, new Set(stems).size),
      );
  }
  return definitions;
}

/** A keyword whose words are not all in the file's text: matched by its name, if at all. */
function scanName(file: SourceFile, keyword: KeywordPattern): FileScan {
  let counted = true;
  for (let word = 0; word < keyword.words.length && counted; word++)
    counted = inName(file, keyword.words[word]?.[0] ?? '');
  return byNameOnly(nameMatch(file, keyword), counted);
}
