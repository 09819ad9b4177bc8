import type { KnownWords } from './searchable-text.js';

const UNKNOWN = 0;
const ABSENT = 1;
const PRESENT = 2;

/**
 * For each word searched, which of a set of files hold it (one byte per file, in the set's order):
 * a later cycle's keywords reuse most words, and a file known to lack one of them is settled
 * without searching it again.
 */
export class KnownWordsTable {
  private readonly byWord = new Map<string, Uint8Array>();

  constructor(private readonly fileCount: number) {}

  /** What is known of file `index`'s words: one small object, asked for per file per scan. */
  of(index: number): KnownWords {
    return new KnownWordsOfFile(this.byWord, this.fileCount, index);
  }

  /** Forgets the words searched first, beyond `max`: what is forgotten is searched again if asked. */
  forgetBeyond(max: number): void {
    for (const word of this.byWord.keys()) {
      if (this.byWord.size <= max) return;
      this.byWord.delete(word);
    }
  }
}

class KnownWordsOfFile implements KnownWords {
  constructor(
    private readonly byWord: Map<string, Uint8Array>,
    private readonly fileCount: number,
    private readonly index: number,
  ) {}

  get(text: string): boolean | undefined {
    const state = this.byWord.get(text)?.[this.index] ?? UNKNOWN;
    return state === UNKNOWN ? undefined : state === PRESENT;
  }

  set(text: string, held: boolean): void {
    let files = this.byWord.get(text);
    if (!files) this.byWord.set(text, (files = new Uint8Array(this.fileCount)));
    files[this.index] = held ? PRESENT : ABSENT;
  }
}
