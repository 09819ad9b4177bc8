import { SYMBOL_KINDS } from '../contracts/symbol.js';
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

/**
 * Per read file, before its numbers: how many stems, lines, long lines, symbols, symbol stems,
 * file name stems and directory stems.
 */
export const COUNTS = 7;

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
    readonly place: number,
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

  /** Viewed when first asked for: a warm run searches the words of a few thousand files. */
  get postings(): WordPostings {
    return (this.storedPostings ??= new StoredPostings(this.numbers));
  }

  get longLines(): Uint32Array {
    const { numbers, longAt, symbolOffsetsAt } = this.numbers;
    return numbers.subarray(longAt, symbolOffsetsAt);
  }

  get symbolStemIds(): SymbolStems {
    const { numbers, symbolOffsetsAt, symbolIdsAt, namesAt } = this.numbers;
    return {
      offsets: numbers.subarray(symbolOffsetsAt, symbolIdsAt),
      ids: numbers.subarray(symbolIdsAt, namesAt),
    };
  }

  get nameStemIds(): Uint32Array {
    const { numbers, namesAt, directoriesAt } = this.numbers;
    return numbers.subarray(namesAt, directoriesAt);
  }

  get directoryStemIds(): Uint32Array {
    const { numbers, directoriesAt, end } = this.numbers;
    return numbers.subarray(directoriesAt, end);
  }
}

/** Where each part of a read file's numbers starts in the postings' section, and where they end. */
interface StoredNumbers {
  numbers: Uint32Array;
  stemsAt: number;
  offsetsAt: number;
  linesAt: number;
  longAt: number;
  symbolOffsetsAt: number;
  symbolIdsAt: number;
  namesAt: number;
  directoriesAt: number;
  end: number;
}

/** A stored file's postings, each part viewed when first asked for. */
class StoredPostings implements WordPostings {
  private viewedStems: Uint32Array | undefined;

  constructor(private readonly at: StoredNumbers) {}

  get stems(): Uint32Array {
    const { numbers, stemsAt, offsetsAt } = this.at;
    return (this.viewedStems ??= numbers.subarray(stemsAt, offsetsAt));
  }

  get offsets(): Uint32Array {
    const { numbers, offsetsAt, linesAt } = this.at;
    return numbers.subarray(offsetsAt, linesAt);
  }

  get lines(): Uint32Array {
    const { numbers, linesAt, longAt } = this.at;
    return numbers.subarray(linesAt, longAt);
  }
}

/**
 * A read file of the index whose numbers start at `start` in the postings' section, and where
 * they end; undefined where they do not fit there.
 */
export function storedFile(
  key: FileKey & { path: string },
  place: number,
  kind: FileKind,
  lineCount: number,
  outline: StoredOutline,
  numbers: Uint32Array,
  start: number,
): { file: StoredFile; end: number } | undefined {
  if (start + COUNTS > numbers.length) return undefined;
  const count = (at: number) => numbers[start + at] ?? 0;
  const stemsAt = start + COUNTS;
  const offsetsAt = stemsAt + count(0);
  const linesAt = offsetsAt + count(0) + 1;
  const longAt = linesAt + count(1);
  const symbolOffsetsAt = longAt + count(2);
  const symbolIdsAt = symbolOffsetsAt + count(3) + 1;
  const namesAt = symbolIdsAt + count(4);
  const directoriesAt = namesAt + count(5);
  const end = directoriesAt + count(6);
  if (end > numbers.length) return undefined;
  // Offsets past the ids they index: a damaged index, built again. Checked in place, with no
  // view made: this runs for every file of the index.
  for (let at = symbolOffsetsAt; at < symbolIdsAt; at++)
    if ((numbers[at] ?? 0) > count(4)) return undefined;
  const { path, size, modifiedMs, changedMs, device, inode } = key;
  const file = new StoredReadFile(
    path,
    size,
    modifiedMs,
    changedMs,
    device,
    inode,
    place,
    kind,
    lineCount,
    outline,
    {
      numbers,
      stemsAt,
      offsetsAt,
      linesAt,
      longAt,
      symbolOffsetsAt,
      symbolIdsAt,
      namesAt,
      directoriesAt,
      end,
    },
  );
  return { file, end };
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

function isImport(value: unknown): boolean {
  return (
    isRecord(value) &&
    typeof value.specifier === 'string' &&
    typeof value.line === 'number' &&
    Array.isArray(value.names) &&
    value.names.every((name) => typeof name === 'string')
  );
}

function isSymbol(value: unknown): boolean {
  return (
    isRecord(value) &&
    typeof value.name === 'string' &&
    typeof value.line === 'number' &&
    typeof value.exported === 'boolean' &&
    (value.endLine === undefined || typeof value.endLine === 'number') &&
    (value.kind === undefined || (SYMBOL_KINDS as readonly unknown[]).includes(value.kind))
  );
}

/**
 * Whether `value` is an outline as this code writes one, to the last entry. Checked by hand, not
 * by a schema: a model's overview of a large repository asks for every file's.
 */
function isOutline(value: unknown): value is Outline {
  return (
    isRecord(value) &&
    Array.isArray(value.imports) &&
    value.imports.every(isImport) &&
    Array.isArray(value.symbols) &&
    value.symbols.every(isSymbol)
  );
}

/**
 * A stored outline; none where it does not parse as one (the index is written by this code alone,
 * so this one was damaged): its file is searched by its words, with no definitions or imports,
 * rather than failing the run that asks for them.
 */
function parseOutline(json: string): Outline {
  try {
    const outline: unknown = JSON.parse(json);
    if (isOutline(outline)) return outline;
  } catch {
    // Not JSON: damaged, as above.
  }
  return { imports: [], symbols: [] };
}
