import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fastGlob from 'fast-glob';
import { describe, expect, it } from 'vitest';
import { compileKeyword, type KeywordPattern } from '../../src/dispatch/keyword.js';
import { scanFile } from '../../src/dispatch/scan-file.js';
import {
  analyzeSource,
  indexWords,
  restoreSource,
  restoredTexts,
} from '../../src/repository/source-file.js';
import {
  INDEX_FORMAT,
  MalformedIndexError,
  decodeIndex,
  encodeIndex,
  indexChunks,
  unchangedFile,
  type StoredFile,
  type StoredIndex,
} from '../../src/repository/word-index.js';
import { StemTable } from '../../src/text/word-postings.js';
import { forEachInRow } from '../../src/text/stem-rows.js';

const EXAMPLE = join(import.meta.dirname, '../fixtures/example-service');
const KEY = { size: 10, modifiedMs: 1_000, changedMs: 1_000, device: 1, inode: 2 };

/** The example's files, analysed and indexed as a run that stores its index does. */
function exampleIndex(): { index: StoredIndex; texts: Map<string, string> } {
  const stems = new StemTable();
  const files = new Map<string, StoredFile>();
  const texts = new Map<string, string>();
  for (const path of fastGlob.sync('**/*', { cwd: EXAMPLE, dot: true }).sort()) {
    const file = analyzeSource(path, readFileSync(join(EXAMPLE, path), 'utf8'));
    const words = indexWords(file, stems);
    texts.set(path, file.text);
    const { kind, lineCount, outline } = file;
    files.set(path, {
      path,
      ...KEY,
      verdict: 'read',
      kind,
      lineCount,
      outline,
      ...words,
    });
  }
  files.set('logo.png', { path: 'logo.png', ...KEY, verdict: 'binary' });
  return { index: { builtAtMs: 5_000, stems, files }, texts };
}

/** What a stored file says of its content, with the stems spelt out. */
function described(file: StoredFile, stems: StemTable) {
  if (file.verdict !== 'read') return file.verdict;
  const { stems: ids, offsets, lines } = file.postings;
  return {
    kind: file.kind,
    lineCount: file.lineCount,
    outline: file.outline,
    words: [...ids].map((id, index) => [
      stems.stems[id],
      [...lines.subarray(offsets[index], offsets[index + 1])],
    ]),
    longLines: [...file.longLines],
    nameStems: [...file.nameStemIds].map((id) => stems.stems[id]),
    directoryStems: [...file.directoryStemIds].map((id) => stems.stems[id]),
    symbolStems: [...file.symbolStemIds.offsets.subarray(0, -1)].map((start, index) =>
      [...file.symbolStemIds.ids.subarray(start, file.symbolStemIds.offsets[index + 1])].map(
        (id) => stems.stems[id],
      ),
    ),
  };
}

describe('the stored word index', () => {
  it('reads back what it stored, and files restored from it are searched alike', () => {
    const { index, texts } = exampleIndex();
    const bytes = encodeIndex(index);
    const decoded = decodeIndex(bytes);
    expect(decoded.builtAtMs).toBe(5_000);
    // Written back as read (a run that changed nothing else saves what it took from it).
    expect(encodeIndex(decoded).equals(bytes)).toBe(true);
    // Its size is known before it is written (the cache's bound is checked first).
    expect(indexChunks(index).bytes).toBe(bytes.length);
    expect([...decoded.files.keys()]).toEqual([...index.files.keys()]);
    // Its rows of files by stem are read back as they were written.
    expect(decodeIndex(encodeIndex(decoded)).rows).toEqual(decoded.rows);
    expect(decoded.rows?.files).toBe(index.files.size);
    // A file is in the rows of its name's stems, by its place among the index's files.
    const place = [...decoded.files.keys()].indexOf('src/auth/session-manager.ts');
    const sessionId = decoded.stems.idOf('session') ?? -1;
    const holding: number[] = [];
    if (decoded.rows) forEachInRow(decoded.rows.names, sessionId, (item) => holding.push(item));
    expect(holding).toContain(place);
    for (const [path, file] of index.files) {
      const read = decoded.files.get(path);
      expect(read && described(read, decoded.stems)).toEqual(described(file, index.stems));
    }
    const keywords = ['token expiry', 'refreshToken', 'auth', 'session.refresh', 'config']
      .map((keyword) => compileKeyword(keyword))
      .filter((pattern): pattern is KeywordPattern => pattern !== undefined);
    for (const [path, text] of texts) {
      const stored = decoded.files.get(path);
      if (stored?.verdict !== 'read') throw new Error(`${path} not stored`);
      const { postings, longLines, symbolStemIds, nameStemIds, directoryStemIds } = stored;
      const words = {
        table: decoded.stems,
        ...{ postings, longLines, symbolStemIds, nameStemIds, directoryStemIds },
      };
      const restored = restoreSource(path, stored, words, () => text, restoredTexts());
      expect(scanFile(restored, keywords), path).toEqual(
        scanFile(analyzeSource(path, text), keywords),
      );
    }
  });

  it('refuses bytes that are not an index of its format, without throwing anything else', () => {
    const bytes = encodeIndex(exampleIndex().index);
    const otherFormat = Buffer.from(bytes);
    otherFormat.writeUInt32LE(INDEX_FORMAT + 1, 4);
    const wrongCount = Buffer.from(bytes);
    wrongCount.writeUInt32LE(bytes.readUInt32LE(8) + 1, 8);
    const hugeSection = Buffer.from(bytes);
    hugeSection.writeUInt32LE(0xffffffff, 24);
    // A symbol's stems said to go past the file's stored ids.
    const { index } = exampleIndex();
    const [path, file] = [...index.files].find(([, stored]) => stored.verdict === 'read') ?? [];
    if (!path || file?.verdict !== 'read') throw new Error('no file read');
    const symbolsPastIds = encodeIndex({
      ...index,
      files: new Map([
        [
          path,
          { ...file, symbolStemIds: { offsets: Uint32Array.of(0, 5), ids: Uint32Array.of(1) } },
        ],
      ]),
    });
    for (const damaged of [
      symbolsPastIds,
      Buffer.alloc(0),
      Buffer.from('not an index at all'),
      bytes.subarray(0, 40),
      bytes.subarray(0, bytes.length - 8),
      otherFormat,
      wrongCount,
      hugeSection,
    ])
      expect(() => decodeIndex(damaged)).toThrow(MalformedIndexError);
  });

  it('refuses an index whose parts disagree, or of more files than it may hold', () => {
    const bytes = encodeIndex(exampleIndex().index);
    // The sections after the header, as the format lays them out: a length, then the bytes.
    const sections: { start: number; length: number }[] = [];
    for (let offset = 24; offset + 8 <= bytes.length;) {
      const length = bytes.readUInt32LE(offset);
      sections.push({ start: offset + 8, length });
      offset += 8 + Math.ceil(length / 8) * 8;
    }
    const [, stemsSection, , meta] = sections;
    if (!stemsSection || !meta) throw new Error('no sections');
    // The second file read said to start its numbers where the first does.
    const shared = Buffer.from(bytes);
    const starts = [0, 1, 2].map((at) => meta.start + (at * 4 + 2) * 4);
    shared.writeUInt32LE(shared.readUInt32LE(starts[0] ?? 0), starts[1] ?? 0);
    // Two stems spelt alike: the second of two of one length written over with the first.
    const stems = bytes.toString(
      'utf8',
      stemsSection.start,
      stemsSection.start + stemsSection.length,
    );
    const words = stems.split('\0');
    const first = words.findIndex((word, at) =>
      words.some((other, later) => later > at && other.length === word.length),
    );
    const second = words.findIndex(
      (other, later) => later > first && other.length === words[first]?.length,
    );
    const twice = Buffer.from(bytes);
    const stemAt = (at: number) =>
      stemsSection.start +
      Buffer.byteLength(
        words
          .slice(0, at)
          .map((word) => `${word}\0`)
          .join(''),
      );
    twice.write(words[first] ?? '', stemAt(second), 'utf8');
    for (const damaged of [shared, twice])
      expect(() => decodeIndex(damaged)).toThrow(MalformedIndexError);
    expect(() => decodeIndex(bytes, exampleIndex().index.files.size - 1)).toThrow(
      MalformedIndexError,
    );
    expect(decodeIndex(bytes, exampleIndex().index.files.size).files.size).toBe(
      exampleIndex().index.files.size,
    );
  });

  it('gives a file whose stored outline is not one an empty outline, not a failed run', () => {
    const { index } = exampleIndex();
    const damaged = new Map(
      [...index.files].map(([path, file]) => [
        path,
        file.verdict === 'read'
          ? { ...file, outline: { imports: [null], symbols: [{ line: 'one' }] } as never }
          : file,
      ]),
    );
    const decoded = decodeIndex(encodeIndex({ ...index, files: damaged }));
    for (const file of decoded.files.values())
      if (file.verdict === 'read') expect(file.outline).toEqual({ imports: [], symbols: [] });
    // Outlines as written are read back whole.
    const intact = decodeIndex(encodeIndex(index));
    for (const [path, file] of index.files)
      if (file.verdict === 'read')
        expect((intact.files.get(path) as typeof file).outline).toEqual(file.outline);
  });

  it('trusts a stored file only with the same key, modified safely before the build', () => {
    const index: StoredIndex = {
      builtAtMs: 10_000,
      stems: new StemTable(),
      files: new Map([['a.ts', { path: 'a.ts', ...KEY, verdict: 'binary' }]]),
    };
    expect(unchangedFile(index, 'a.ts', KEY)?.path).toBe('a.ts');
    for (const changed of [
      { size: 11 },
      { modifiedMs: 1_001 },
      { changedMs: 1_001 },
      { device: 9 },
      { inode: 9 },
    ])
      expect(unchangedFile(index, 'a.ts', { ...KEY, ...changed })).toBeUndefined();
    expect(unchangedFile(index, 'b.ts', KEY)).toBeUndefined();
    // Modified within two seconds of the build's listing: it may have changed again unseen.
    const racy = { ...index, builtAtMs: KEY.modifiedMs + 1_500 };
    expect(unchangedFile(racy, 'a.ts', KEY)).toBeUndefined();
  });

  // What the stored analysis of a known set of files looks like. When this changes, indexes
  // written before describe files differently from a fresh read: bump INDEX_FORMAT (so that they
  // are built again), then update the digest here. (An edit of the example changes it too.)
  it(`is format ${INDEX_FORMAT} while files are analysed as they were when it was set`, () => {
    const { index } = exampleIndex();
    const analysis = [...index.files.values()].map((file) => [
      file.path,
      described(file, index.stems),
    ]);
    const digest = createHash('sha256').update(JSON.stringify(analysis)).digest('hex');
    expect({ format: INDEX_FORMAT, digest: digest.slice(0, 16) }).toEqual({
      format: 5,
      digest: '3749956714e08e34',
    });
  });
});
