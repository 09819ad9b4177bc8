import type { DefinedSymbol } from './outline.js';
import type { LineRange } from './excerpt.js';
import type { KeywordMatch } from './match.js';
import type { FileKind } from './source-file.js';

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
  /** Outline and windows around hits, bounded by the excerpt token budget; secrets redacted. */
  excerpt: string;
  lineRanges: LineRange[];
  /** How many secrets were cut out of the excerpt (each shown as `[REDACTED:<rule>]`). */
  redactions: number;
}
