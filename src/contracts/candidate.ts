import type { DefinedSymbol } from './symbol.js';
import type { FileKind } from './file-kind.js';

/**
 * What DISPATCH hands a judge: a candidate file, where the query's keywords matched it, and its
 * excerpt. The contract between the search and every judge.
 */

/** Lines `[first, last]` of a file, 1-based and inclusive. */
export type LineRange = [start: number, end: number];

/**
 * A query keyword compiled for code-aware matching. A keyword is one of
 * - a word (`throttle`): matches any identifier containing that word, after stemming;
 * - an identifier (`refreshToken`, `max_body_length`): matches the identifier exactly, and its
 *   words together as a weaker match;
 * - a phrase (`token expiry`, `Request body larger than maxBodyLength limit`): matches the text
 *   exactly, and its words together on one line as a weaker match.
 */
export type KeywordForm = 'word' | 'identifier' | 'phrase';

/** Where one keyword matched one file. Line numbers are 1-based. */
export interface KeywordMatch {
  keyword: string;
  form: KeywordForm;
  weight: number;
  inFileName: boolean;
  inDirectory: boolean;
  definitions: { name: string; line: number; exact: boolean }[];
  /** Lines with the keyword itself: the word, the identifier, or the phrase verbatim. */
  exactLines: number[];
  /** Lines with all of the keyword's words but not the keyword itself. */
  partialLines: number[];
}

/** An import of a candidate, resolved to a workspace file where possible. */
export interface CandidateImport {
  specifier: string;
  names: string[];
  line: number;
  /** The workspace path it resolves to; absent for packages outside the repository. */
  resolved?: string;
}

/** A file that DISPATCH found for a query, with everything a judge needs to score it. */
export interface Candidate {
  /** POSIX path relative to the root. */
  path: string;
  kind: FileKind;
  lineCount: number;
  /** Length relative to the repository's average file (length normalisation in scoring). */
  relativeLength: number;
  /** Where each query keyword matched. */
  matches: KeywordMatch[];
  /** Lexical rank under the query that found it (not calibrated; for ordering only). */
  rankScore: number;
  /** The query named this file literally. */
  explicit: boolean;
  /** The file lies in one of the query's focus areas. */
  inFocusArea: boolean;
  imports: CandidateImport[];
  symbols: DefinedSymbol[];
  /** Outline and the parts around hits (whole definitions where they fit), bounded by the excerpt token budget; secrets redacted. */
  excerpt: string;
  lineRanges: LineRange[];
  /** How many secrets were cut out of the excerpt (each shown as `[REDACTED:<rule>]`). */
  redactions: number;
}
