import { KERNEL_BASE64 } from './byte-search-kernel.js';

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

let bytes = new Uint8Array(0);
const encoder = new TextEncoder();
/** The text whose bytes are in the kernel's memory, and how many there are. */
let loadedText: string | undefined;
let loadedLength = 0;
/** Where each needle written so far is, until their room is full. */
const needles = new Map<string, number>();
let needlesEnd = NEEDLES_AT;

/** The kernel's memory seen as bytes, at least `size` of them. */
function memoryOf(found: Kernel, size: number): Uint8Array {
  const missing = size - found.memory.buffer.byteLength;
  if (missing > 0) found.memory.grow(Math.ceil(missing / PAGE_BYTES));
  if (bytes.buffer !== found.memory.buffer) bytes = new Uint8Array(found.memory.buffer);
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

/** Whether the kernel searches for `needle`: ASCII, and at most `MAX_NEEDLE_LENGTH` long. */
export function isSearchableNeedle(needle: string): boolean {
  if (needle.length === 0 || needle.length > MAX_NEEDLE_LENGTH) return false;
  for (let index = 0; index < needle.length; index++)
    if (needle.charCodeAt(index) > 0x7f) return false;
  return true;
}

export interface ByteSearch {
  /** Whether the text holds the needle (`isSearchableNeedle`), letters in any case. */
  holds(needle: string): boolean;
  /** The lines (0-based, ascending, each once) holding the needle. */
  linesHolding(needle: string): number[];
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
    if (loadedText === text) return;
    const memory = memoryOf(found, TEXT_AT + text.length * 3);
    loadedLength = encoder.encodeInto(text, memory.subarray(TEXT_AT)).written;
    loadedText = text;
  };
  load();
  // More bytes than characters: some are not ASCII, and two of those would be missed.
  if (loadedLength !== text.length && OTHERWISE_LOWERED.test(text)) return undefined;
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
