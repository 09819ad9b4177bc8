import { describe, expect, it, vi } from 'vitest';
import {
  MAX_NEEDLE_LENGTH,
  MAX_TEXT_CHARACTERS,
  byteSearch,
  fileByteSearch,
  isSearchableNeedle,
  type ByteSearch,
} from '../../src/dispatch/byte-search.js';
import { KERNEL_BASE64 } from '../../src/dispatch/byte-search-kernel.js';
import { compileKernel } from '../../scripts/build-kernel.js';
import { lineStartsOf } from '../../src/text/line-starts.js';
import { compileKeyword, type KeywordPattern } from '../../src/dispatch/keyword.js';
import { scanFile } from '../../src/dispatch/scan-file.js';
import {
  analyzeSource,
  normalizeLineBreaks,
  type FileOnDisk,
} from '../../src/repository/source-file.js';

/** What the byte search must find: the lines of the lower-cased text holding the needle. */
function linesOfLowerCase(text: string, needle: string): number[] {
  const lower = text.toLowerCase();
  const starts = lineStartsOf(lower);
  const lines = new Set<number>();
  for (let at = lower.indexOf(needle); at !== -1; at = lower.indexOf(needle, at + 1)) {
    let line = 0;
    while ((starts[line + 1] ?? Infinity) <= at) line++;
    lines.add(line);
  }
  return [...lines];
}

/** A small seeded generator: the same texts on every run. */
function random(seed: number) {
  let state = seed;
  return (below: number) => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state % below;
  };
}

// Letters of both cases, the bytes next to them that `| 32` would confuse, line breaks, and
// characters of two, three and four UTF-8 bytes (ß, Σ, €, an emoji, a lone surrogate).
const ALPHABET = ['a', 'b', 'A', 'B', 'z', 'Z', '@', '`', '[', '{', '_', '1', ' ', '\n', '\r'];
const OTHERS = ['ß', 'Σ', 'σ', 'é', '€', '😀', '\ud800'];

function randomText(next: (below: number) => number, length: number): string {
  let text = '';
  for (let index = 0; index < length; index++)
    text += next(20) === 0 ? OTHERS[next(OTHERS.length)] : (ALPHABET[next(ALPHABET.length)] ?? 'a');
  return text;
}

/**
 * `count` needles to look for in `lower` (a lower-cased text), those the kernel searches: half cut
 * out of the text itself, so that most are found; the others made up.
 */
function needlesFor(next: (below: number) => number, lower: string, count: number): string[] {
  const needles: string[] = [];
  for (let index = 0; index < count; index++) {
    const start = next(Math.max(1, lower.length));
    const needle =
      index % 2 === 0
        ? lower.slice(start, start + 1 + next(6))
        : randomText(next, 1 + next(3)).toLowerCase();
    if (isSearchableNeedle(needle)) needles.push(needle);
  }
  return needles;
}

/** Expects `search` to find each needle where a search of the lower-cased text does: how many. */
function expectFoundAsInText(search: ByteSearch | undefined, text: string, needles: string[]) {
  const lower = text.toLowerCase();
  for (const needle of needles) {
    expect(search?.holds(needle), `${JSON.stringify(needle)} in ${JSON.stringify(text)}`).toBe(
      lower.includes(needle),
    );
    expect(search?.linesHolding(needle)).toEqual(linesOfLowerCase(text, needle));
  }
  return needles.length;
}

/** A file of these bytes, read as a workspace reads one again. */
const fileOf = (bytes: Buffer): FileOnDisk => ({
  maxBytes: bytes.length + 10,
  readInto(into) {
    into.set(bytes);
    return bytes.length;
  },
});

describe('byte search', () => {
  it('finds what a search of the lower-cased text finds, on random texts and needles', () => {
    const next = random(7);
    let compared = 0;
    for (let round = 0; round < 400; round++) {
      const text = randomText(next, next(300));
      const search = byteSearch(text);
      expect(search).toBeDefined();
      compared += expectFoundAsInText(search, text, needlesFor(next, text.toLowerCase(), 8));
    }
    expect(compared).toBeGreaterThan(1200);
  });

  it('finds needles at every offset from the ends of a text, across the 16-byte steps', () => {
    for (let length = 1; length <= 70; length++)
      for (let at = 0; at < length; at++) {
        const text = `${'x'.repeat(at)}Key${'y'.repeat(length - at)}`;
        expect(byteSearch(text)?.holds('key')).toBe(true);
        expect(byteSearch(text)?.linesHolding('key')).toEqual([0]);
        expect(byteSearch(text)?.holds('kez')).toBe(false);
      }
  });

  it('gives every line of a text with more lines than one call holds', () => {
    const text = 'a Needle\n'.repeat(40_000);
    const lines = byteSearch(text)?.linesHolding('needle');
    expect(lines).toHaveLength(40_000);
    expect(lines?.[39_999]).toBe(39_999);
    expect(lines?.every((line, index) => line === index)).toBe(true);
  });

  it('searches each text as its own when searches of two texts take turns', () => {
    const first = byteSearch('alpha\nbeta');
    const second = byteSearch('gamma\n\nalpha');
    expect(first?.linesHolding('alpha')).toEqual([0]);
    expect(second?.linesHolding('alpha')).toEqual([2]);
    expect(first?.holds('gamma')).toBe(false);
    expect(second?.holds('beta')).toBe(false);
  });

  it('leaves to a string search the texts whose lower case holds a letter their bytes do not', () => {
    // The Kelvin sign lower-cases to `k`, and `İ` to `i` and a combining dot.
    expect('\u212a'.toLowerCase()).toBe('k');
    expect(byteSearch('a \u212aelvin')).toBeUndefined();
    expect(byteSearch('\u0130stanbul')).toBeUndefined();
    expect(byteSearch('ß and Σ')).toBeDefined();
  });

  it('leaves to a string search needles that are not ASCII, or longer than its bound', () => {
    expect(isSearchableNeedle('größe')).toBe(false);
    // A file's bytes keep the `\r` of each `\r\n`; its text does not.
    expect(isSearchableNeedle('line\r')).toBe(false);
    expect(isSearchableNeedle('line\nnext')).toBe(false);
    expect(isSearchableNeedle('')).toBe(false);
    expect(isSearchableNeedle('a'.repeat(MAX_NEEDLE_LENGTH))).toBe(true);
    expect(isSearchableNeedle('a'.repeat(MAX_NEEDLE_LENGTH + 1))).toBe(false);
  });

  it('finds the same matches as the search of strings it stands in for, which runs without it', async () => {
    const next = random(3);
    const words = ['config', 'Configuration', 'parseHTTPResponse', 'refresh_token', 'NULL', 'ß'];
    const glue = [' ', '.', '(', ' = ', '\n', '\n\n', '\t'];
    const files = Array.from({ length: 200 }, (_, index) =>
      analyzeSource(
        index % 2 === 0 ? 'src/config.ts' : 'lib/parse.py',
        Array.from({ length: next(120) }, () =>
          next(3) === 0 ? (glue[next(glue.length)] ?? ' ') : (words[next(words.length)] ?? ''),
        ).join(''),
      ),
    );
    const keywords = ['config', 'configuration file', 'HTTP response', 'refreshToken', 'null']
      .map((keyword) => compileKeyword(keyword))
      .filter((pattern): pattern is KeywordPattern => pattern !== undefined);
    const withKernel = files.map((file) => scanFile(file, keywords));
    // Where WebAssembly cannot run (`node --jitless`), the module loads without it.
    vi.resetModules();
    vi.stubGlobal('WebAssembly', undefined);
    try {
      const strings = await import('../../src/dispatch/byte-search.js');
      expect(strings.byteSearch('a needle')).toBeUndefined();
      const { scanFile: scanWithout } = await import('../../src/dispatch/scan-file.js');
      expect(files.map((file) => scanWithout(file, keywords))).toEqual(withKernel);
    } finally {
      vi.unstubAllGlobals();
      vi.resetModules();
    }
    expect(withKernel.flat().filter((scan) => scan.match).length).toBeGreaterThan(300);
  });

  it('searches bytes as read as it searches their text, and cuts the same lines', () => {
    const next = random(13);
    // Line breaks of every kind, and bytes that are not UTF-8, beside the random text's.
    const extras = ['\r\n', '\r', '\n', '\ufeff'];
    let compared = 0;
    for (let round = 0; round < 300; round++) {
      const parts = [randomText(next, next(200))];
      for (let index = next(4); index > 0; index--)
        parts.push(extras[next(extras.length)] ?? '', randomText(next, next(40)));
      const bytes = Buffer.concat([
        Buffer.from(parts.join('')),
        ...(next(3) === 0 ? [Buffer.from([0xc3, 0x0a, 0xff, 0x41])] : []),
      ]);
      const file = fileOf(bytes);
      const search = fileByteSearch(file);
      const text = normalizeLineBreaks(bytes.toString('utf8'));
      expect(search, JSON.stringify(text)).toBeDefined();
      const lines = text.split('\n');
      for (let line = -1; line <= lines.length; line++)
        expect(search?.line(line), `line ${line} of ${JSON.stringify(text)}`).toBe(
          lines[line] ?? '',
        );
      compared += expectFoundAsInText(search, text, needlesFor(next, text.toLowerCase(), 6));
    }
    expect(compared).toBeGreaterThan(700);
  });

  it('reads a file again where another was read into its place, and an unreadable one as empty', () => {
    const first = fileByteSearch(fileOf(Buffer.from('alpha\r\nbeta')));
    const second = fileByteSearch(fileOf(Buffer.from('gamma\n\nalpha')));
    expect(first?.linesHolding('alpha')).toEqual([0]);
    expect(second?.linesHolding('alpha')).toEqual([2]);
    expect(first?.line(1)).toBe('beta');
    expect(second?.line(0)).toBe('gamma');
    expect(first?.decoded()).toBe('alpha\r\nbeta');
    // A file allowed more bytes grows the kernel's memory; the first is read into it again.
    const lines = Array.from({ length: 50_000 }, (_, line) => `line ${line}`);
    const long = fileByteSearch({
      ...fileOf(Buffer.from(lines.join('\r\n'))),
      maxBytes: 4_000_000,
    });
    expect(long?.line(49_999)).toBe('line 49999');
    expect(first?.line(1)).toBe('beta');
    expect(long?.linesHolding('line 4999')).toHaveLength(11);
    const gone = fileByteSearch({ maxBytes: 100, readInto: () => undefined });
    expect(gone?.holds('a')).toBe(false);
    expect(gone?.line(0)).toBe('');
  });

  it('leaves to a string search a file holding a letter its bytes lower-case otherwise, or too large', () => {
    expect(fileByteSearch(fileOf(Buffer.from('a \u212aelvin')))).toBeUndefined();
    expect(fileByteSearch(fileOf(Buffer.from('\u0130stanbul')))).toBeUndefined();
    expect(fileByteSearch(fileOf(Buffer.from('ß and Σ')))).toBeDefined();
    expect(
      fileByteSearch({ maxBytes: MAX_TEXT_CHARACTERS * 3, readInto: () => 0 }),
    ).toBeUndefined();
  });

  it('is the build of its source', async () => {
    expect(Buffer.from(await compileKernel()).toString('base64')).toBe(KERNEL_BASE64);
  }, 60_000);
});
