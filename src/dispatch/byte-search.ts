import { KERNEL_BASE64 } from './byte-search-kernel.js';
import type { FileOnDisk } from '../repository/source-file.js';

/**
 * A file's text searched as UTF-8 bytes by a WebAssembly kernel (./byte-search-kernel.as.ts),
 * with no lower-cased copy made: what `text.toLowerCase().includes(needle)` tells, found at about
 * three times the speed, for a lower-case ASCII needle. Its letters are compared without case, and
 * every other byte as it is. The two agree on every text that holds neither `İ` nor the Kelvin
 * sign, the only characters whose lower case is or holds an ASCII letter; a text that holds one
 * is searched as a string instead (./searchable-text.ts), as is a needle of other characters.
 */

/** What of WebAssembly's API is used here (the ES library's types leave it out). */
interface WebAssemblyApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object) => { exports: unknown };
}

interface Kernel {
  memory: { buffer: ArrayBuffer; grow(pages: number): number };
  holds(text: number, length: number, needle: number, needleLength: number): number;
  linesHolding(
    text: number,
    length: number,
    needle: number,
    needleLength: number,
    out: number,
    room: number,
    start: number,
    startLine: number,
  ): number;
  stoppedAt(): number;
  stoppedLine(): number;
  lineStarts(text: number, length: number, out: number): number;
}

/** The kernel's memory: needles, then the lines a search finds, then the text. */
const NEEDLES_AT = 0;
const NEEDLE_ROOM = 16 * 1024;
const LINES_AT = NEEDLES_AT + NEEDLE_ROOM;
/** Lines one call finds at most: a search with more goes on where it stopped. */
const LINES_ROOM = 16 * 1024;
const TEXT_AT = LINES_AT + LINES_ROOM * 4;
/** Longest text searched here, in characters (each at most 3 bytes in UTF-8): 48 MiB of memory. */
export const MAX_TEXT_CHARACTERS = 16 * 1024 * 1024;
const PAGE_BYTES = 64 * 1024;

/**
 * Longest needle searched here: each place where its first and last bytes match is checked in
 * full, so a hostile text costs up to this many comparisons a byte. Keywords' words are far
 * shorter; a longer phrase is searched as a string.
 */
export const MAX_NEEDLE_LENGTH = 64;

const OTHERWISE_LOWERED = /[\u0130\u212a]/;
const CARRIAGE_RETURN = 13;
const LINE_FEED = 10;

let kernel: Kernel | null | undefined;

/** The kernel, or null where this runtime cannot run it (no WebAssembly, or no SIMD). */
function loadKernel(): Kernel | null {
  if (kernel !== undefined) return kernel;
  try {
    const { Module, Instance } = (globalThis as unknown as { WebAssembly: WebAssemblyApi })
      .WebAssembly;
    kernel = new Instance(new Module(Buffer.from(KERNEL_BASE64, 'base64'))).exports as Kernel;
  } catch {
    kernel = null;
  }
  return kernel;
}

let bytes = Buffer.alloc(0);
let numbers = new Uint32Array(0);
const encoder = new TextEncoder();
/** What the kernel's memory holds the bytes of (a text, or a file's reading), and how many. */
let loaded: unknown;
let loadedLength = 0;
/** Where each needle written so far is, until their room is full. */
const needles = new Map<string, number>();
let needlesEnd = NEEDLES_AT;

/** The kernel's memory seen as bytes, at least `size` of them. */
function memoryOf(found: Kernel, size: number): Uint8Array {
  const missing = size - found.memory.buffer.byteLength;
  if (missing > 0) found.memory.grow(Math.ceil(missing / PAGE_BYTES));
  if (bytes.buffer !== found.memory.buffer) {
    bytes = Buffer.from(found.memory.buffer);
    numbers = new Uint32Array(found.memory.buffer);
  }
  return bytes;
}

function needleAt(found: Kernel, needle: string): number {
  let at = needles.get(needle);
  if (at !== undefined) return at;
  if (needlesEnd + needle.length > NEEDLES_AT + NEEDLE_ROOM) {
    needles.clear();
    needlesEnd = NEEDLES_AT;
  }
  at = needlesEnd;
  const memory = memoryOf(found, TEXT_AT);
  for (let index = 0; index < needle.length; index++) memory[at + index] = needle.charCodeAt(index);
  needlesEnd += needle.length;
  needles.set(needle, at);
  return at;
}

/**
 * Whether the kernel searches for `needle`: ASCII but line breaks, and at most
 * `MAX_NEEDLE_LENGTH` long. A file's bytes as read keep the `\r` of each `\r\n`, which its text
 * does not: a needle across a line break is searched in the text.
 */
export function isSearchableNeedle(needle: string): boolean {
  if (needle.length === 0 || needle.length > MAX_NEEDLE_LENGTH) return false;
  for (let index = 0; index < needle.length; index++) {
    const code = needle.charCodeAt(index);
    if (code > 0x7f || code === CARRIAGE_RETURN || code === LINE_FEED) return false;
  }
  return true;
}

export interface ByteSearch {
  /** Whether the text holds the needle (`isSearchableNeedle`), letters in any case. */
  holds(needle: string): boolean;
  /** The lines (0-based, ascending, each once) holding the needle. */
  linesHolding(needle: string): number[];
}

/** A search of the bytes in the kernel's memory, `load` putting them back first when others are. */
function searchOf(found: Kernel, load: () => void): ByteSearch {
  return {
    holds(needle) {
      load();
      const at = needleAt(found, needle);
      return found.holds(TEXT_AT, loadedLength, at, needle.length) === 1;
    },
    linesHolding(needle) {
      load();
      const at = needleAt(found, needle);
      const lines: number[] = [];
      let start = 0;
      let startLine = 0;
      for (;;) {
        const count = found.linesHolding(
          TEXT_AT,
          loadedLength,
          at,
          needle.length,
          LINES_AT,
          LINES_ROOM,
          start,
          startLine,
        );
        const view = new Uint32Array(found.memory.buffer, LINES_AT, count);
        for (const line of view) lines.push(line);
        start = found.stoppedAt();
        if (start === -1) return lines;
        startLine = found.stoppedLine();
      }
    },
  };
}

/**
 * A search of `text`'s bytes, or undefined where it would not find what a search of its lower
 * case finds (or the kernel cannot run here). One text at a time is in the kernel's memory:
 * a search of another text's puts that one's back first.
 */
export function byteSearch(text: string): ByteSearch | undefined {
  const found = loadKernel();
  if (!found || text.length > MAX_TEXT_CHARACTERS) return undefined;
  const load = () => {
    if (loaded === text) return;
    const memory = memoryOf(found, TEXT_AT + text.length * 3);
    loadedLength = encoder.encodeInto(text, memory.subarray(TEXT_AT)).written;
    loaded = text;
  };
  load();
  // More bytes than characters: some are not ASCII, and two of those would be missed.
  if (loadedLength !== text.length && OTHERWISE_LOWERED.test(text)) return undefined;
  return searchOf(found, load);
}

/** A search of a file's bytes as read, with its lines decoded from them one by one. */
export interface FileByteSearch extends ByteSearch {
  /** Line `line` (0-based; '' past the last) as the text's would be: UTF-8, without `\r\n`. */
  line(line: number): string;
  /** The whole text as read, UTF-8 (its line breaks not yet made `\n`). */
  decoded(): string;
}

// `İ` and the Kelvin sign in UTF-8.
const DOTTED_CAPITAL_I = Buffer.from('\u0130');
const KELVIN_SIGN = Buffer.from('\u212a');

/**
 * A search of a file's bytes, read into the kernel's memory (at most its `maxBytes`) with
 * no string made of them, for a file whose text is not held: a line is decoded only where it is
 * read. Undefined where the kernel cannot run, the file is too large for it, or it holds a
 * character whose lower case is ASCII (those are searched as text). An ASCII needle is held by
 * UTF-8 bytes where it is held by their decoding, ill-formed sequences included (an ASCII byte
 * always decodes to itself), and line breaks are the same `\n` bytes: lines are numbered as in
 * the text.
 */
export function fileByteSearch(file: FileOnDisk): FileByteSearch | undefined {
  const { maxBytes } = file;
  const found = loadKernel();
  if (!found || maxBytes >= MAX_TEXT_CHARACTERS * 3) return undefined;
  // Its own key: a file read twice is two readings (it may have changed in between).
  const reading = {};
  // Where the line starts are, once found: after the text, 4-byte aligned, one a byte at most.
  let startsAt = 0;
  let lineCount = -1;
  let lastLine = -1;
  let lastText = '';
  const load = () => {
    if (loaded === reading) return;
    const memory = memoryOf(found, TEXT_AT + maxBytes + 1);
    loaded = reading;
    lineCount = -1;
    loadedLength = file.readInto(memory.subarray(TEXT_AT, TEXT_AT + maxBytes + 1)) ?? 0;
  };
  load();
  const text = bytes.subarray(TEXT_AT, TEXT_AT + loadedLength);
  if (text.includes(DOTTED_CAPITAL_I) || text.includes(KELVIN_SIGN)) return undefined;
  const startOf = (line: number) => numbers[(startsAt >> 2) + line] ?? 0;
  return {
    ...searchOf(found, load),
    line(line) {
      // A scan asks for a line several times in a row (its length, its words, its lower case).
      if (line === lastLine && loaded === reading) return lastText;
      load();
      if (lineCount < 0) {
        // Room for the starts of this text's lines, not of the longest text allowed.
        startsAt = (TEXT_AT + loadedLength + 4) & ~3;
        memoryOf(found, startsAt + (loadedLength + 2) * 4);
        lineCount = found.lineStarts(TEXT_AT, loadedLength, startsAt);
      }
      if (line < 0 || line >= lineCount) return '';
      const start = TEXT_AT + startOf(line);
      let end = line + 1 < lineCount ? TEXT_AT + startOf(line + 1) - 1 : TEXT_AT + loadedLength;
      // `\r\n` is a line break as `\n` is; a lone `\r` ending the text stays, as in the text.
      if (end > start && bytes[end - 1] === CARRIAGE_RETURN && end < TEXT_AT + loadedLength) end--;
      lastLine = line;
      return (lastText = bytes.toString('utf8', start, end));
    },
    decoded() {
      load();
      return bytes.toString('utf8', TEXT_AT, TEXT_AT + loadedLength);
    },
  };
}
