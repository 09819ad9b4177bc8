import { identifiersOf } from '../text/identifiers.js';
import { lineAt, lineStartsOf } from '../text/line-starts.js';
import { normalizeIdentifier } from './keyword.js';
import {
  normalizeLineBreaks,
  stemsOfIdentifier,
  type SourceFile,
} from '../repository/source-file.js';
import { lineHoldsStem } from './line-holds-stem.js';
import {
  byteSearch,
  fileByteSearch,
  isSearchableNeedle,
  type ByteSearch,
  type FileByteSearch,
} from './byte-search.js';

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
export function scanMemory(): KnownWords {
  const held = new Map<string, boolean>();
  return { get: (text) => held.get(text), set: (text, holds) => void held.set(text, holds) };
}

/**
 * The lower-cased text of a file, searched by substring, with a line's words read where asked.
 * Lower-case ASCII needles are searched in the text's bytes (./byte-search.ts), as if lower-cased;
 * the lower-cased text itself is made only for others, or for a text where that would differ. A
 * file whose text is not held is searched in its bytes as read again, and its text made from
 * them only where a line is read.
 */
export function searchableText(file: SourceFile, known: KnownWords) {
  let fromDisk: FileByteSearch | undefined;
  let ownText: string | undefined;
  const text = () => (ownText ??= fromDisk ? normalizeLineBreaks(fromDisk.decoded()) : file.text);
  let lowered: string | undefined;
  const lower = () => (lowered ??= text().toLowerCase());
  // Searched first, settled on first need: null where the bytes cannot be searched.
  let bytes: ByteSearch | null | undefined;
  const searchOfBytes = (): ByteSearch | null => {
    const onDisk = file.bytes;
    if (onDisk) fromDisk = fileByteSearch(onDisk);
    return fromDisk ?? byteSearch(text()) ?? null;
  };
  const bytesFor = (needle: string): ByteSearch | null =>
    isSearchableNeedle(needle) ? (bytes ??= searchOfBytes()) : null;
  // Lower-casing never moves a line break, and lengthens a line only where it holds `İ`, the one
  // character whose lower case is two: a text without one has its lines, lower-cased one by one,
  // where they are in the lower-cased whole. Bytes searched as read hold none.
  let inPlaceText: boolean | undefined;
  const inPlace = () => (inPlaceText ??= fromDisk !== undefined || !text().includes('\u0130'));
  let textStarts: number[] | undefined;
  let lowerStarts: number[] | undefined;
  const textLineStarts = () => (textStarts ??= lineStartsOf(text()));
  const lowerLineStarts = () =>
    (lowerStarts ??= inPlace() ? textLineStarts() : lineStartsOf(lower()));
  /** A line of the text as written, without the file's lines split and kept. */
  const lineOfText = (line: number): string =>
    fromDisk ? fromDisk.line(line) : lineAt(text(), textLineStarts(), line);
  const lowerLine = (line: number): string =>
    inPlace() ? lineOfText(line).toLowerCase() : lineAt(lower(), lowerLineStarts(), line);
  // Made on first need, as is the map of lines below: most files are settled before a line is read.
  let words: Map<number, LineWords> | undefined;
  const wordsOf = (line: number): LineWords => {
    let lineWords = words?.get(line);
    if (!lineWords)
      (words ??= new Map()).set(line, (lineWords = { tokens: identifiersOf(lineOfText(line)) }));
    return lineWords;
  };
  // Keywords share words (`config`, `file`): each is searched for once per file.
  const holds = (text: string): boolean => {
    let holds = known.get(text);
    if (holds === undefined)
      known.set(text, (holds = bytesFor(text)?.holds(text) ?? lower().includes(text)));
    return holds;
  };
  /** The lines (0-based, ascending) holding `text`, found in the lower-cased text. */
  const linesOfLowerCase = (text: string): number[] => {
    const lines: number[] = [];
    let line = 0;
    let at = lower().indexOf(text);
    const starts = lowerLineStarts();
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
    return lines;
  };
  let linesByText: Map<string, number[]> | undefined;
  /** The lines (0-based, ascending) holding `text`. */
  const linesOf = (text: string): number[] => {
    let lines = linesByText?.get(text);
    if (!lines) {
      lines =
        text.length > 0 && holds(text)
          ? (bytesFor(text)?.linesHolding(text) ?? linesOfLowerCase(text))
          : [];
      (linesByText ??= new Map()).set(text, lines);
    }
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
    /** A line's length as written, measured without cutting it out (but for bytes as read). */
    lineLength(line: number): number {
      if (fromDisk) return fromDisk.line(line).length;
      const starts = textLineStarts();
      const next = starts[line + 1];
      return (next === undefined ? text().length + 1 : next) - 1 - (starts[line] ?? 0);
    },
    /** The line's identifiers, normalised: to tell an identifier keyword exactly. */
    identifiersOn: (line: number) => identifiersOfLine(wordsOf(line)),
    /** Whether the line holds `stem` as one of its words' stems. */
    holdsWord(line: number, stem: string): boolean {
      // Where lower-casing moved characters, the line's words are found from its tokens instead.
      return inPlace()
        ? lineHoldsStem(lineOfText(line), lowerLine(line), stem, stemsOfIdentifier)
        : stemsOfLine(wordsOf(line)).has(stem);
    },
  };
}

export type SearchableText = ReturnType<typeof searchableText>;
