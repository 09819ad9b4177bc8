import type { Outline } from '../structure/outline.js';
import type { FileKind } from '../contracts/file-kind.js';
import type { WordPostings } from '../text/word-postings.js';
import type { SymbolStems } from '../text/symbol-stems.js';
import type { FileKey, StoredFile } from './word-index.js';

/**
 * A read file as a stored index (./word-index.ts) holds it, viewed in the index's bytes where
 * they are: a warm run makes one for every file of the repository, and looks at the words of only
 * a few thousand.
 */

/** Per read file, before its numbers: how many stems, lines, long lines, symbols, symbol stems. */
export const COUNTS = 5;

/** A file's outline in the outlines' section. */
interface StoredOutline {
  bytes: Buffer;
  start: number;
  end: number;
}

/** A read file as the index holds it: a class, since a warm run makes one for every file. */
export class StoredReadFile {
  readonly verdict = 'read';
  private parsed: Outline | undefined;
  private storedPostings: WordPostings | undefined;

  constructor(
    readonly path: string,
    readonly size: number,
    readonly modifiedMs: number,
    readonly changedMs: number,
    readonly device: number,
    readonly inode: number,
    readonly kind: FileKind,
    readonly lineCount: number,
    /** Where the outline is stored, as JSON: cut out of the section only when asked for. */
    private readonly storedOutline: StoredOutline,
    /** Where its numbers are, checked by `storedFile`: viewed only when asked for. */
    private readonly numbers: StoredNumbers,
  ) {}

  get outlineBytes(): Uint8Array {
    const { bytes, start, end } = this.storedOutline;
    return bytes.subarray(start, end);
  }

  /** Decoded when first asked for: most files' outlines are never looked at. */
  get outline(): Outline {
    const { bytes, start, end } = this.storedOutline;
    return (this.parsed ??= parseOutline(bytes.toString('utf8', start, end)));
  }

  /**
   * Views made when first asked for: a warm run asks every file for its stems, and only the
   * few thousand files holding a keyword's words for their lines.
   */
  get postings(): WordPostings {
    return (this.storedPostings ??= new StoredPostings(this.numbers));
  }

  get longLines(): Uint32Array {
    const { numbers, linesAt, lineTotal, longCount } = this.numbers;
    return numbers.subarray(linesAt + lineTotal, linesAt + lineTotal + longCount);
  }

  get symbolStemIds(): SymbolStems {
    const { numbers, linesAt, lineTotal, longCount, symbolCount, symbolStemTotal } = this.numbers;
    const offsetsAt = linesAt + lineTotal + longCount;
    const idsAt = offsetsAt + symbolCount + 1;
    return {
      offsets: numbers.subarray(offsetsAt, idsAt),
      ids: numbers.subarray(idsAt, idsAt + symbolStemTotal),
    };
  }
}

/** Where a read file's numbers are in the postings' section. */
interface StoredNumbers {
  numbers: Uint32Array;
  stemsAt: number;
  stemCount: number;
  linesAt: number;
  lineTotal: number;
  longCount: number;
  symbolCount: number;
  symbolStemTotal: number;
}

/** A stored file's postings, each part viewed when first asked for. */
class StoredPostings implements WordPostings {
  private viewedStems: Uint32Array | undefined;

  constructor(private readonly at: StoredNumbers) {}

  get stems(): Uint32Array {
    const { numbers, stemsAt, stemCount } = this.at;
    return (this.viewedStems ??= numbers.subarray(stemsAt, stemsAt + stemCount));
  }

  get offsets(): Uint32Array {
    const { numbers, stemsAt, stemCount } = this.at;
    return numbers.subarray(stemsAt + stemCount, stemsAt + stemCount * 2 + 1);
  }

  get lines(): Uint32Array {
    const { numbers, linesAt, lineTotal } = this.at;
    return numbers.subarray(linesAt, linesAt + lineTotal);
  }
}

export function storedFile(
  key: FileKey & { path: string },
  kind: FileKind,
  lineCount: number,
  outline: StoredOutline,
  numbers: Uint32Array,
  start: number,
): StoredFile | undefined {
  if (start + COUNTS > numbers.length) return undefined;
  const stemCount = numbers[start] ?? 0;
  const lineTotal = numbers[start + 1] ?? 0;
  const longCount = numbers[start + 2] ?? 0;
  const symbolCount = numbers[start + 3] ?? 0;
  const symbolStemTotal = numbers[start + 4] ?? 0;
  const stemsAt = start + COUNTS;
  const linesAt = stemsAt + stemCount * 2 + 1;
  const symbolOffsetsAt = linesAt + lineTotal + longCount;
  const end = symbolOffsetsAt + symbolCount + 1 + symbolStemTotal;
  if (end > numbers.length) return undefined;
  // Offsets past the ids they index: a damaged index, built again. Checked in place, with no
  // view made: this runs for every file of the index.
  for (let at = symbolOffsetsAt; at <= symbolOffsetsAt + symbolCount; at++)
    if ((numbers[at] ?? 0) > symbolStemTotal) return undefined;
  const { path, size, modifiedMs, changedMs, device, inode } = key;
  return new StoredReadFile(
    path,
    size,
    modifiedMs,
    changedMs,
    device,
    inode,
    kind,
    lineCount,
    outline,
    {
      numbers,
      stemsAt,
      stemCount,
      linesAt,
      lineTotal,
      longCount,
      symbolCount,
      symbolStemTotal,
    },
  );
}

/** A stored outline; none where it does not parse (the index is written by this code alone). */
function parseOutline(json: string): Outline {
  try {
    const outline = JSON.parse(json) as Outline;
    if (Array.isArray(outline.imports) && Array.isArray(outline.symbols)) return outline;
  } catch {
    // An index written by this code always parses: this one was damaged.
  }
  return { imports: [], symbols: [] };
}
