import type { ListedFile } from '../file-system/tree.js';
import { StemTable } from '../text/word-postings.js';
import {
  indexWords,
  restoreSource,
  restoredTexts,
  type IndexedWords,
  type SourceFile,
} from './source-file.js';
import { fileKeyOf, unchangedFile, type StoredFile, type StoredIndex } from './word-index.js';

/**
 * A workspace's side of a stored index: which listed files it holds unchanged, and the index of
 * this listing, made of those and of every file read (./workspace.ts).
 */
export interface IndexKeeper {
  /** The stored file for a listed one, when it is unchanged. */
  unchanged(entry: ListedFile): StoredFile | undefined;
  /** A file read and found binary or minified. */
  recordVerdict(entry: ListedFile, verdict: 'binary' | 'minified'): void;
  /**
   * A file read and analysed: its words are indexed, for the index and for the search. It comes
   * back as a restored file would, its text read again (with `readText`) only if it is needed.
   */
  recordRead(entry: ListedFile, file: SourceFile, readText: () => string): SourceFile;
  /** A stored file taken as it is: its text is read (with `readText`) only if it is needed. */
  restore(
    entry: ListedFile,
    stored: StoredFile & { verdict: 'read' },
    readText: () => string,
  ): SourceFile;
  /** The index of this listing; whether it differs from the stored one; how many files were read. */
  result(read: number): { updated: StoredIndex; changed: boolean; read: number };
}

/** `builtAtMs`: when the listing started, so that a file modified during it is not trusted later. */
export function keepIndex(stored: StoredIndex | undefined, builtAtMs: number): IndexKeeper {
  const stems = stored?.stems ?? new StemTable();
  const files = new Map<string, StoredFile>();
  const texts = restoredTexts();
  return {
    unchanged: (entry) =>
      stored ? unchangedFile(stored, entry.path, fileKeyOf(entry)) : undefined,
    recordVerdict(entry, verdict) {
      files.set(entry.path, { path: entry.path, ...fileKeyOf(entry), verdict });
    },
    recordRead(entry, file, readText) {
      const words = indexWords(file, stems);
      const recorded = {
        path: entry.path,
        ...fileKeyOf(entry),
        verdict: 'read' as const,
        kind: file.kind,
        lineCount: file.lineCount,
        outline: file.outline,
        postings: words.postings,
        longLines: words.longLines,
        symbolStemIds: words.symbolStemIds,
        nameStemIds: words.nameStemIds,
        directoryStemIds: words.directoryStemIds,
      };
      files.set(entry.path, recorded);
      // Searched by its words from now on, as a restored file is: its text is let go.
      return restoreSource(entry.path, recorded, words, readText, texts);
    },
    restore(entry, file, readText) {
      files.set(entry.path, file);
      const rows = stored?.rows;
      const place = rows && file.place !== undefined ? { place: file.place, rows } : undefined;
      return restoreSource(entry.path, file, new StoredWords(stems, file, place), readText, texts);
    },
    result: (read) => ({
      updated: { builtAtMs, stems, files },
      // Files read, or stored files no longer listed.
      changed: read > 0 || files.size !== stored?.files.size,
      read,
    }),
  };
}

/**
 * A stored file's words, taken from it when asked for: a warm run makes one for every file, and
 * searches the words of only a few thousand.
 */
class StoredWords implements IndexedWords {
  constructor(
    readonly table: StemTable,
    private readonly file: StoredFile & { verdict: 'read' },
    readonly stored: IndexedWords['stored'],
  ) {}

  get postings() {
    return this.file.postings;
  }

  get longLines() {
    return this.file.longLines;
  }

  get symbolStemIds() {
    return this.file.symbolStemIds;
  }

  get nameStemIds() {
    return this.file.nameStemIds;
  }

  get directoryStemIds() {
    return this.file.directoryStemIds;
  }
}
