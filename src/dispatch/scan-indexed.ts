import { identifiersOf } from '../text/identifiers.js';
import { hasStem, linesOfStem, type StemTable } from '../text/word-postings.js';
import { stemCountOf, symbolsHoldingAll } from '../text/symbol-stems.js';
import type { KeywordMatch } from '../contracts/candidate.js';
import { normalizeIdentifier, type KeywordPattern } from './keyword.js';
import type { IndexedWords, SourceFile } from '../repository/source-file.js';
import {
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

/**
 * One keyword against a file's indexed words: what the search of its text finds
 * (./scan-file.ts), read from the lines each word is on. The text is read only to tell an exact
 * phrase or identifier on a line that holds all the keyword's words.
 */
export function scanIndexedWords(
  file: SourceFile,
  words: IndexedWords,
  keyword: KeywordPattern,
): FileScan {
  const ids = stemIdsOf(keyword, words.table);
  const { postings } = words;
  // Most files hold none of a keyword's words: settled with nothing allocated, in loops, since
  // every file holding one of its words comes here for each keyword.
  let content = true;
  let counted = true;
  for (let word = 0; word < ids.length && (content || counted); word++) {
    const alternatives = ids[word] ?? [];
    let held = false;
    for (let index = 0; index < alternatives.length && !held; index++)
      held = hasStem(postings, alternatives[index] ?? -1);
    if (!held) content = false;
    if (!hasStem(postings, alternatives[0] ?? -1) && !inName(file, keyword.words[word]?.[0] ?? ''))
      counted = false;
  }
  if (keyword.member) return memberScan(file, keyword, keyword.member, counted);
  const named = nameMatch(file, keyword);
  if (!content) return byNameOnly(named, counted);
  const match = named ?? emptyMatch(keyword);
  match.definitions = indexedDefinitions(file, words, keyword, ids);
  const wordLines = ids.map((alternatives) =>
    unionOf(alternatives.map((id) => linesOfStem(postings, id))),
  );
  // Both ascending: the long lines are walked along with the matching ones.
  const { longLines } = words;
  let nextLong = 0;
  for (const line of commonLines(wordLines)) {
    if (linesFull(match, keyword)) break;
    while ((longLines[nextLong] ?? Infinity) < line) nextLong++;
    if (longLines[nextLong] === line) continue;
    addLine(match, line, isExact(file, keyword, line));
  }
  return { match: isMatched(match) ? match : undefined, counted };
}

/**
 * The file's symbols whose names hold every word of the keyword (`definitionsOn` in
 * ./scan-file.ts), found from their stems' ids: the outline is parsed only when one does.
 */
function indexedDefinitions(
  file: SourceFile,
  words: IndexedWords,
  keyword: KeywordPattern,
  ids: readonly (readonly number[])[],
): KeywordMatch['definitions'] {
  return symbolsHoldingAll(words.symbolStemIds, ids).flatMap((index) => {
    const symbol = file.outline.symbols[index];
    return symbol ? [definitionOf(symbol, keyword, stemCountOf(words.symbolStemIds, index))] : [];
  });
}

/**
 * A keyword's words as stem ids of a table (-1 for a stem it lacks), found again only when the
 * table has grown since.
 */
const stemIds = new WeakMap<KeywordPattern, { table: StemTable; size: number; ids: number[][] }>();
function stemIdsOf(keyword: KeywordPattern, table: StemTable): number[][] {
  let known = stemIds.get(keyword);
  if (known?.table !== table || known.size !== table.stems.length) {
    const ids = keyword.words.map((alternatives) =>
      alternatives.map((alternative) => table.idOf(alternative) ?? -1),
    );
    stemIds.set(keyword, (known = { table, size: table.stems.length, ids }));
  }
  return known.ids;
}

/** A line with every word of the keyword holds it exactly: as its phrase, or its identifier. */
function isExact(file: SourceFile, keyword: KeywordPattern, line: number): boolean {
  if (keyword.phrase !== undefined) return file.lineAt(line).toLowerCase().includes(keyword.phrase);
  if (keyword.identifier !== undefined)
    return identifiersOf(file.lineAt(line)).some(
      (token) => normalizeIdentifier(token) === keyword.identifier,
    );
  return true;
}

/** The ascending union of ascending lists, each line once. */
function unionOf(lists: readonly (Uint32Array | undefined)[]): Uint32Array {
  const present = lists.filter(
    (list): list is Uint32Array => list !== undefined && list.length > 0,
  );
  if (present.length <= 1) return present[0] ?? new Uint32Array(0);
  const all = new Uint32Array(present.reduce((sum, list) => sum + list.length, 0));
  let filled = 0;
  for (const list of present) {
    all.set(list, filled);
    filled += list.length;
  }
  all.sort();
  // Each line once: the sorted lines, their repeats left out in place.
  let kept = 0;
  for (let at = 0; at < all.length; at++)
    if (at === 0 || all[at] !== all[at - 1]) all[kept++] = all[at] ?? 0;
  return all.subarray(0, kept);
}
