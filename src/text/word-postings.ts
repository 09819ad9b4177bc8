import { splitIdentifier } from './identifiers.js';
import { stem } from './stem.js';
import { IdentifierTable } from './identifier-table.js';
import { withRoom } from './grown-array.js';

/**
 * Where each word of a text is, by line: the stems of its identifiers' words, each with the lines
 * that hold it. A search for a word then reads its lines instead of the text, which is what a
 * stored index keeps of each file.
 */
export interface WordPostings {
  /** The text's stems, as ids of a `StemTable`, ascending. */
  stems: Uint32Array;
  /** Where each stem's lines start in `lines`: one offset per stem, and the end. */
  offsets: Uint32Array;
  /** 0-based line numbers, ascending within each stem's share. */
  lines: Uint32Array;
}

/** Stems by id, shared by the postings of every file of an index. */
export class StemTable {
  readonly stems: string[] = [];
  private readonly ids = new Map<string, number>();
  /** Identifiers repeat across a repository: each is split and stemmed once (up to a bound). */
  readonly identifiers = new IdentifierTable((identifier) => [
    ...new Set(splitIdentifier(identifier).map((word) => this.intern(stem(word)))),
  ]);

  constructor(stems: readonly string[] = []) {
    for (const word of stems) this.intern(word);
  }

  idOf(word: string): number | undefined {
    return this.ids.get(word);
  }

  intern(word: string): number {
    let id = this.ids.get(word);
    if (id === undefined) {
      id = this.stems.length;
      this.stems.push(word);
      this.ids.set(word, id);
    }
    return id;
  }
}

/** A longer line is never a keyword's match: it is data or minified, and no judge reads it. */
export const MAX_MATCHED_LINE_LENGTH = 1000;

/** Per stem id, scratch space reused from text to text: which text saw it last, and where. */
let seenIn = new Int32Array(1024).fill(-1);
let lastLine = new Int32Array(1024);
let lineCount = new Int32Array(1024);
let texts = 0;
/** (stem, line) pairs of the text being indexed, in the order met. */
let pairs = new Uint32Array(1 << 16);

function makeRoom(id: number): void {
  seenIn = withRoom(seenIn, id + 1, -1);
  lastLine = withRoom(lastLine, id + 1);
  lineCount = withRoom(lineCount, id + 1);
}

const isStart = (code: number) =>
  (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || code === 95 || code === 36;
const isPart = (code: number) => isStart(code) || (code >= 48 && code <= 57);

/** A text's postings, and its lines too long to be a match (0-based, ascending). */
export interface IndexedText {
  postings: WordPostings;
  longLines: Uint32Array;
}

/**
 * The postings of a text whose line breaks are `\n`. Its identifiers are the tokens of
 * `identifiersOf` (`[A-Za-z_$][A-Za-z0-9_$]*`), split into the same words, that a search of the
 * text by lines finds (src/dispatch/scan-file.ts): one loop over the characters, no string cut
 * out for an identifier seen before.
 */
export function indexText(text: string, table: StemTable): IndexedText {
  const textNumber = ++texts;
  const identifiers = table.identifiers;
  const found: number[] = [];
  const longLines: number[] = [];
  let pairCount = 0;
  let line = 0;
  let lineStart = 0;
  const length = text.length;
  for (let at = 0; at < length;) {
    const code = text.charCodeAt(at);
    if (code === 10) {
      if (at - lineStart > MAX_MATCHED_LINE_LENGTH) longLines.push(line);
      line++;
      lineStart = ++at;
      continue;
    }
    if (!isStart(code)) {
      at++;
      continue;
    }
    const start = at;
    let hash = Math.imul(0x811c9dc5 ^ code, 0x01000193);
    for (at++; at < length; at++) {
      const next = text.charCodeAt(at);
      if (!isPart(next)) break;
      hash = Math.imul(hash ^ next, 0x01000193);
    }
    const identifier = identifiers.find(text, start, at, hash);
    const count = identifiers.stemsCount(identifier);
    for (let index = 0; index < count; index++) {
      const id = identifiers.stemIdAt(identifier, index);
      makeRoom(id);
      if (seenIn[id] !== textNumber) {
        seenIn[id] = textNumber;
        found.push(id);
        lineCount[id] = 0;
      } else if (lastLine[id] === line) continue;
      lastLine[id] = line;
      lineCount[id] = (lineCount[id] ?? 0) + 1;
      pairs = withRoom(pairs, pairCount + 2);
      pairs[pairCount++] = id;
      pairs[pairCount++] = line;
    }
  }
  if (length - lineStart > MAX_MATCHED_LINE_LENGTH) longLines.push(line);
  const stems = Uint32Array.from(found).sort();
  const offsets = new Uint32Array(stems.length + 1);
  // `lastLine` becomes each stem's next free place in `lines`.
  stems.forEach((id, index) => {
    offsets[index + 1] = (offsets[index] ?? 0) + (lineCount[id] ?? 0);
    lastLine[id] = offsets[index] ?? 0;
  });
  const lines = new Uint32Array(pairCount / 2);
  for (let index = 0; index < pairCount; index += 2) {
    const id = pairs[index] ?? 0;
    lines[lastLine[id] ?? 0] = pairs[index + 1] ?? 0;
    lastLine[id] = (lastLine[id] ?? 0) + 1;
  }
  return { postings: { stems, offsets, lines }, longLines: Uint32Array.from(longLines) };
}

/** Where a stem id is among a text's stems, or -1 when the text lacks it. */
function stemIndex(postings: WordPostings, id: number): number {
  const { stems } = postings;
  let low = 0;
  let high = stems.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const at = stems[middle] ?? 0;
    if (at === id) return middle;
    if (at < id) low = middle + 1;
    else high = middle - 1;
  }
  return -1;
}

/** Whether a text holds a stem id (any id, -1 included, that is not among its stems: no). */
export const hasStem = (postings: WordPostings, id: number) => stemIndex(postings, id) !== -1;

/** The lines (ascending) of a stem id in one text's postings; empty when it has none. */
export function linesOfStem(postings: WordPostings, id: number): Uint32Array {
  const index = stemIndex(postings, id);
  return index === -1
    ? EMPTY
    : postings.lines.subarray(postings.offsets[index], postings.offsets[index + 1]);
}

const EMPTY = new Uint32Array(0);
