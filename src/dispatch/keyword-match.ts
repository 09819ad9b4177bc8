import { hasAllWords, normalizeIdentifier, type KeywordPattern } from './keyword.js';
import { memberDefinitions } from './member-definitions.js';
import type { SourceFile } from '../repository/source-file.js';
import type { KeywordMatch } from '../contracts/candidate.js';

/**
 * What a scan of one file makes of one keyword, however the file is searched: by its text
 * (./scan-file.ts) or by its stored word index (./scan-indexed.ts), which give the same.
 */

/** One keyword in one file: its match, if any, and whether the file counts in its frequency. */
export interface FileScan {
  match: KeywordMatch | undefined;
  /** Every word of the keyword is in the file (as a word), its name or its directory's. */
  counted: boolean;
}

export const MAX_LINES_PER_KEYWORD = 200;
export const NOTHING: FileScan = { match: undefined, counted: false };
export const COUNTED: FileScan = { match: undefined, counted: true };

/** Whether the file's name or directory holds a word's stem. */
export const inName = (file: SourceFile, stem: string) =>
  file.fileNameStems.has(stem) || file.directoryStems.has(stem);

/** A keyword matched by the file's name or directory; undefined when neither holds it. */
export function nameMatch(file: SourceFile, keyword: KeywordPattern): KeywordMatch | undefined {
  const inFileName = hasAllWords(keyword, file.fileNameStems);
  const inDirectory = !inFileName && hasAllWords(keyword, file.fileNameStems, file.directoryStems);
  return inFileName || inDirectory
    ? { ...emptyMatch(keyword), inFileName, inDirectory }
    : undefined;
}

/** A keyword whose words are not all in the file: matched by the file's name, if at all. */
export const byNameOnly = (match: KeywordMatch | undefined, counted: boolean): FileScan =>
  match ? { match, counted } : counted ? COUNTED : NOTHING;

/**
 * A member keyword (`Owner.member`): its words are searched on their own already; together they
 * count where the member is defined in its owner.
 */
export function memberScan(
  file: SourceFile,
  keyword: KeywordPattern,
  member: NonNullable<KeywordPattern['member']>,
  counted: boolean,
): FileScan {
  const definitions = memberDefinitions(file, member);
  return {
    match: definitions.length > 0 ? { ...emptyMatch(keyword), definitions } : undefined,
    counted,
  };
}

/**
 * Whether a match holds all the lines it may: a plain word's lines are all exact, so once those
 * are full no later line adds anything.
 */
export const linesFull = (match: KeywordMatch, keyword: KeywordPattern) =>
  match.exactLines.length >= MAX_LINES_PER_KEYWORD &&
  ((keyword.phrase === undefined && keyword.identifier === undefined) ||
    match.partialLines.length >= MAX_LINES_PER_KEYWORD);

/** A line (0-based) holding every word of the keyword: exactly, or only in part. */
export function addLine(match: KeywordMatch, line: number, exact: boolean): void {
  const lines = exact ? match.exactLines : match.partialLines;
  if (lines.length < MAX_LINES_PER_KEYWORD) lines.push(line + 1);
}

export const isMatched = (match: KeywordMatch) =>
  match.inFileName ||
  match.inDirectory ||
  match.definitions.length > 0 ||
  match.exactLines.length > 0 ||
  match.partialLines.length > 0;

/**
 * The lines in every one of these ascending lists (each line once in a list), ascending: the
 * shortest list walked, a cursor moved along each other one. Nothing is built but the answer:
 * every line of every matched file comes here.
 */
export function commonLines(lists: readonly ArrayLike<number>[]): number[] {
  const [first = [], ...rest] = [...lists].sort((left, right) => left.length - right.length);
  const cursors = rest.map(() => 0);
  const common: number[] = [];
  lines: for (let index = 0; index < first.length; index++) {
    const line = first[index] ?? 0;
    for (let list = 0; list < rest.length; list++) {
      const other = rest[list] ?? [];
      let at = cursors[list] ?? 0;
      while (at < other.length && (other[at] ?? 0) < line) at++;
      cursors[list] = at;
      if (other[at] !== line) continue lines;
    }
    common.push(line);
  }
  return common;
}

/**
 * A symbol whose name holds every word of the keyword, with `stemCount` distinct stems: exact
 * when it is the keyword itself, not merely a name that contains it.
 */
export function definitionOf(
  symbol: { name: string; line: number },
  keyword: KeywordPattern,
  stemCount: number,
): KeywordMatch['definitions'][number] {
  const exact =
    keyword.identifier !== undefined
      ? normalizeIdentifier(symbol.name) === keyword.identifier
      : keyword.phrase === undefined && stemCount === 1;
  return { name: symbol.name, line: symbol.line, exact };
}

export function emptyMatch(keyword: KeywordPattern): KeywordMatch {
  return {
    keyword: keyword.keyword,
    form: keyword.form,
    weight: 0,
    inFileName: false,
    inDirectory: false,
    definitions: [],
    exactLines: [],
    partialLines: [],
  };
}
