import type { Outline } from '../structure/outline.js';
import { FILE_KINDS, type FileKind } from '../contracts/file-kind.js';
import { StemTable, type WordPostings } from '../text/word-postings.js';
import { areStemRows, wordAndNameRows, type StemRows } from '../text/stem-rows.js';
import type { SymbolStems } from '../text/symbol-stems.js';
import type { ListedFile } from '../file-system/tree.js';
import { COUNTS, StoredReadFile, storedFile } from './stored-read-file.js';

/**
 * A repository's stored index: for each file read, what reading it found (its kind, line count,
 * outline and words by line, or that it is binary or minified), keyed by what its `lstat` said.
 * A later run takes an unchanged file from here instead of reading and analysing it again.
 *
 * Bump `INDEX_FORMAT` whenever what is stored, or how a file is analysed, changes: an index of
 * another format is not read (test/unit/word-index.test.ts fails until it is bumped).
 */
export const INDEX_FORMAT = 5;

const MAGIC = 0x49525749; // "IRWI"

/** What the listing said of a file when it was read: the same key means the same content. */
export interface FileKey {
  size: number;
  modifiedMs: number;
  /** The inode's change time: a copy that keeps the modification time (`rsync -t`) changes it. */
  changedMs: number;
  device: number;
  inode: number;
}

export type StoredFile = FileKey & { path: string } & (
    | { verdict: 'binary' | 'minified' }
    | {
        verdict: 'read';
        kind: FileKind;
        lineCount: number;
        readonly outline: Outline;
        readonly postings: WordPostings;
        readonly longLines: Uint32Array;
        readonly symbolStemIds: SymbolStems;
        readonly nameStemIds: Uint32Array;
        readonly directoryStemIds: Uint32Array;
        /** Its place among the files of the index it was read from (`StoredRows`). */
        readonly place?: number;
      }
  );

export interface StoredIndex {
  /** When the listing the index was built from started: a file modified since is not trusted. */
  builtAtMs: number;
  stems: StemTable;
  files: ReadonlyMap<string, StoredFile>;
  /**
   * Read from an index: which of its files hold each stem, in their words and in their names,
   * by their places among `files` (a stored file's `place`). Written from the files' own ids.
   */
  rows?: StoredRows | undefined;
}

/** The rows of a stored index, and how many files it has (places are below that). */
export interface StoredRows {
  words: StemRows;
  names: StemRows;
  files: number;
}

/** A file whose modification is this close to a listing may have changed unseen since. */
const RACY_MS = 2000;

/** A listed file's key. */
export const fileKeyOf = (entry: ListedFile): FileKey => ({
  size: entry.size,
  modifiedMs: entry.modifiedMs ?? Number.NaN,
  changedMs: entry.changedMs ?? Number.NaN,
  device: entry.identity?.device ?? 0,
  inode: entry.identity?.inode ?? 0,
});

/**
 * Whether a file listed again is the one a listing started at `listedAtMs` saw: the same key,
 * and modified safely before that listing (a file written as it ran may have changed unseen).
 */
export const isUnchangedSince = (before: FileKey, now: FileKey, listedAtMs: number) =>
  before.size === now.size &&
  before.modifiedMs === now.modifiedMs &&
  before.changedMs === now.changedMs &&
  before.device === now.device &&
  before.inode === now.inode &&
  now.modifiedMs < listedAtMs - RACY_MS;

/** The stored file for a listed one, when its key is the same and was safely older than the build. */
export function unchangedFile(
  index: StoredIndex,
  path: string,
  key: FileKey,
): StoredFile | undefined {
  const stored = index.files.get(path);
  return stored && isUnchangedSince(stored, key, index.builtAtMs) ? stored : undefined;
}

/**
 * Numbers a read file's postings take: its counts, then stems, offsets, lines, long lines, its
 * symbols' stems (offsets, ids), and its file name's and directories' stems.
 */
const postingsLength = (file: Extract<StoredFile, { verdict: 'read' }>) =>
  COUNTS +
  file.postings.stems.length * 2 +
  1 +
  file.postings.lines.length +
  file.longLines.length +
  file.symbolStemIds.offsets.length +
  file.symbolStemIds.ids.length +
  file.nameStemIds.length +
  file.directoryStemIds.length;

const VERDICTS = ['read', 'binary', 'minified'] as const;
const HEADER_BYTES = 24;
/**
 * Most files an index may hold: git's listing is read up to 64 MB, about two million short
 * paths. Decoding one costs up to a few hundred bytes of heap a file, so a damaged count of more
 * is refused before it can exhaust the heap.
 */
const MAX_STORED_FILES = 2_000_000;
/** Per file: its key (five float64s) and four uint32s: verdict and kind, lines, postings, outline end. */
const KEY_NUMBERS = 5;
const META_NUMBERS = 4;

/** Sections start on 8-byte boundaries, so that typed arrays can view them where they are. */
const padded = (length: number) => Math.ceil(length / 8) * 8;

/** Most bytes of one chunk `indexChunks` gives: a write at a time, never the whole index. */
const CHUNK_BYTES = 1 << 20;

/** `pieces` joined into chunks of about `CHUNK_BYTES`: fewer, larger writes. */
function* batched(pieces: Iterable<Uint8Array>): Generator<Uint8Array> {
  let chunk = Buffer.allocUnsafe(CHUNK_BYTES);
  let filled = 0;
  for (const piece of pieces) {
    if (filled + piece.length > CHUNK_BYTES && filled > 0) {
      yield chunk.subarray(0, filled);
      chunk = Buffer.allocUnsafe(CHUNK_BYTES);
      filled = 0;
    }
    if (piece.length > CHUNK_BYTES) yield piece;
    else {
      chunk.set(piece, filled);
      filled += piece.length;
    }
  }
  if (filled > 0) yield chunk.subarray(0, filled);
}

const bytesOf = (numbers: Uint32Array | Float64Array) =>
  new Uint8Array(numbers.buffer, numbers.byteOffset, numbers.byteLength);

/**
 * The index, as chunks of bytes to write one after another: a header (magic, format, counts,
 * build time), then sections, each its length and its bytes: the paths and the stems
 * (NUL-separated), the files' keys and numbers, their outlines (JSON, one after the other),
 * their postings (32-bit numbers), and the rows of the files holding each stem in their words
 * and in their names (`StoredRows`). An index of a large repository is 100 MB and more: it is
 * written without a second copy of it in memory.
 */
export function indexChunks(index: StoredIndex): { bytes: number; chunks: Iterable<Uint8Array> } {
  const files = [...index.files.values()];
  const keys = new Float64Array(files.length * KEY_NUMBERS);
  const meta = new Uint32Array(files.length * META_NUMBERS);
  const outlines: Uint8Array[] = [];
  let outlineBytes = 0;
  let total = 0;
  files.forEach((file, at) => {
    keys.set(
      [file.size, file.modifiedMs, file.changedMs, file.device, file.inode],
      at * KEY_NUMBERS,
    );
    const verdict = VERDICTS.indexOf(file.verdict);
    if (file.verdict === 'read') {
      // A file kept from the stored index keeps its outline's bytes: not parsed to be written back.
      const outline =
        file instanceof StoredReadFile
          ? file.outlineBytes
          : Buffer.from(JSON.stringify(file.outline));
      outlines.push(outline);
      outlineBytes += outline.length;
      const kind = FILE_KINDS.indexOf(file.kind);
      meta.set([verdict | (kind << 8), file.lineCount, total, outlineBytes], at * META_NUMBERS);
      total += postingsLength(file);
    } else meta.set([verdict, 0, 0, outlineBytes], at * META_NUMBERS);
  });
  const header = Buffer.alloc(HEADER_BYTES);
  header.writeUInt32LE(MAGIC, 0);
  header.writeUInt32LE(INDEX_FORMAT, 4);
  header.writeUInt32LE(files.length, 8);
  header.writeUInt32LE(index.stems.stems.length, 12);
  header.writeDoubleLE(index.builtAtMs, 16);
  function* section(length: number, parts: Iterable<Uint8Array>): Generator<Uint8Array> {
    const start = Buffer.alloc(8);
    start.writeUInt32LE(length, 0);
    yield start;
    yield* parts;
    yield Buffer.alloc(padded(length) - length);
  }
  function* postings(): Generator<Uint8Array> {
    for (const file of files) {
      if (file.verdict !== 'read') continue;
      const { stems, offsets, lines } = file.postings;
      const symbols = file.symbolStemIds;
      yield bytesOf(
        Uint32Array.of(
          stems.length,
          lines.length,
          file.longLines.length,
          symbols.offsets.length - 1,
          symbols.ids.length,
          file.nameStemIds.length,
          file.directoryStemIds.length,
        ),
      );
      const parts = [stems, offsets, lines, file.longLines, symbols.offsets, symbols.ids];
      for (const part of [...parts, file.nameStemIds, file.directoryStemIds]) yield bytesOf(part);
    }
  }
  const paths = Buffer.from(files.map((file) => file.path).join('\0'));
  const stems = Buffer.from(index.stems.stems.join('\0'));
  const stemCount = index.stems.stems.length;
  const read = (at: number) => {
    const file = files[at];
    return file?.verdict === 'read' ? file : undefined;
  };
  const { words, names } = wordAndNameRows(stemCount, files.length, read);
  const rows = [words.starts, words.items, names.starts, names.items];
  const lengths = [
    paths.length,
    stems.length,
    keys.byteLength,
    meta.byteLength,
    outlineBytes,
    total * 4,
    ...rows.map((part) => part.byteLength),
  ];
  return {
    bytes: HEADER_BYTES + lengths.reduce((sum, length) => sum + 8 + padded(length), 0),
    chunks: batched(
      (function* () {
        yield header;
        yield* section(paths.length, [paths]);
        yield* section(stems.length, [stems]);
        yield* section(keys.byteLength, [bytesOf(keys)]);
        yield* section(meta.byteLength, [bytesOf(meta)]);
        yield* section(outlineBytes, outlines);
        yield* section(total * 4, postings());
        for (const part of rows) yield* section(part.byteLength, [bytesOf(part)]);
      })(),
    ),
  };
}

/** The index as one buffer (`indexChunks` joined). */
export function encodeIndex(index: StoredIndex): Buffer {
  return Buffer.concat([...indexChunks(index).chunks]);
}

/** Bytes that tell an index's format: its magic number and format. */
export const FORMAT_BYTES = 8;

/** Whether an index file's first bytes are those of this format. */
export const isCurrentFormat = (head: Buffer) =>
  head.length >= FORMAT_BYTES &&
  head.readUInt32LE(0) === MAGIC &&
  head.readUInt32LE(4) === INDEX_FORMAT;

export class MalformedIndexError extends Error {
  override readonly name = 'MalformedIndexError';
}

/**
 * The index in `bytes`, or a `MalformedIndexError` when they are not one of this format: a file
 * cut short, of another version, or not an index at all. Each file's outline is decoded when
 * first asked for.
 */
export function decodeIndex(bytes: Buffer, maxFiles = MAX_STORED_FILES): StoredIndex {
  const fail = (why: string): never => {
    throw new MalformedIndexError(`not a word index of format ${INDEX_FORMAT}: ${why}`);
  };
  if (!isCurrentFormat(bytes))
    fail(
      bytes.length >= FORMAT_BYTES && bytes.readUInt32LE(0) === MAGIC
        ? `format ${bytes.readUInt32LE(4)}`
        : 'no header',
    );
  if (bytes.length < HEADER_BYTES) fail('cut short');
  // Typed arrays view the sections in place: they need them aligned.
  if (bytes.byteOffset % 8 !== 0) return decodeIndex(Buffer.from(bytes), maxFiles);
  const fileCount = bytes.readUInt32LE(8);
  if (fileCount > maxFiles) fail(`more than ${maxFiles} files`);
  const stemCount = bytes.readUInt32LE(12);
  let offset = HEADER_BYTES;
  const section = (): Buffer => {
    if (offset + 8 > bytes.length) fail('cut short');
    const length = bytes.readUInt32LE(offset);
    const start = offset + 8;
    if (start + length > bytes.length) fail('cut short');
    offset = start + padded(length);
    return bytes.subarray(start, start + length);
  };
  const view = <T>(
    part: Buffer,
    Type: new (buffer: ArrayBuffer, at: number, length: number) => T,
    size: number,
    count: number,
  ): T => {
    if (part.length !== size * count) fail('a section of the wrong size');
    return new Type(part.buffer as ArrayBuffer, part.byteOffset, count);
  };
  const paths = section().toString('utf8').split('\0');
  const stems = section().toString('utf8').split('\0');
  const keys = view(section(), Float64Array, 8, fileCount * KEY_NUMBERS);
  const meta = view(section(), Uint32Array, 4, fileCount * META_NUMBERS);
  const outlines = section();
  const numbers = () => {
    const part = section();
    return view(part, Uint32Array, 4, part.length / 4);
  };
  const postings = numbers();
  const words = { starts: numbers(), items: numbers() };
  const names = { starts: numbers(), items: numbers() };
  if (!areStemRows(words, stemCount) || !areStemRows(names, stemCount)) fail('rows differ');
  if (paths.length !== fileCount && fileCount > 0) fail('paths and files differ');
  if (stems.length !== stemCount && stemCount > 0) fail('stems differ');
  const files = new Map<string, StoredFile>();
  let outlineStart = 0;
  // The writer lays the files' numbers out one after another: a file whose numbers start
  // elsewhere is damage (or a crafted index, whose files would share numbers checked over and
  // over).
  let postingsEnd = 0;
  // Numbers read by index, not destructured from views: this runs for every file of the index.
  for (let at = 0; at < fileCount; at++) {
    const keyAt = at * KEY_NUMBERS;
    const key = {
      path: paths[at] ?? '',
      size: keys[keyAt] ?? 0,
      modifiedMs: keys[keyAt + 1] ?? 0,
      changedMs: keys[keyAt + 2] ?? 0,
      device: keys[keyAt + 3] ?? 0,
      inode: keys[keyAt + 4] ?? 0,
    };
    const metaAt = at * META_NUMBERS;
    const codes = meta[metaAt] ?? 0;
    const lineCount = meta[metaAt + 1] ?? 0;
    const postingsAt = meta[metaAt + 2] ?? 0;
    const outlineEnd = meta[metaAt + 3] ?? 0;
    const verdict = VERDICTS[codes & 0xff];
    const kind = FILE_KINDS[codes >> 8];
    if (!verdict || !kind || outlineEnd < outlineStart || outlineEnd > outlines.length)
      fail('a file out of bounds');
    const outline = { bytes: outlines, start: outlineStart, end: outlineEnd };
    outlineStart = outlineEnd;
    if (verdict !== 'read') {
      files.set(key.path, { ...key, verdict: verdict === 'binary' ? 'binary' : 'minified' });
      continue;
    }
    if (postingsAt !== postingsEnd) fail('postings out of order');
    const stored = storedFile(key, at, kind ?? 'source', lineCount, outline, postings, postingsAt);
    if (!stored) fail('postings out of bounds');
    else {
      files.set(key.path, stored.file);
      postingsEnd = stored.end;
    }
  }
  if (postingsEnd !== postings.length) fail('postings out of order');
  const table = new StemTable(stemCount > 0 ? stems : []);
  // Two stems spelt alike would shift every later stem's id: the files' ids would name others.
  if (table.stems.length !== stemCount) fail('a stem twice');
  return {
    builtAtMs: bytes.readDoubleLE(16),
    stems: table,
    files,
    rows: { words, names, files: fileCount },
  };
}
