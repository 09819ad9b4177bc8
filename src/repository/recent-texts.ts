/**
 * A file's text with what is cut from it on use: its lines, split, and where each starts. They
 * are kept together, so that what is let go of a text goes with it.
 */
export interface HeldText {
  readonly text: string;
  splitLines?: string[] | undefined;
  lineStarts?: number[] | undefined;
}

/**
 * The texts of the files used last, where a file's text is not held: a search reads a file's
 * text, and its outline and excerpt ask for it again at once. Bounded by count and characters,
 * the oldest let go first.
 */
export class RecentTexts<Key> {
  private readonly texts = new Map<Key, HeldText>();
  private characters = 0;

  constructor(
    private readonly maxTexts: number,
    private readonly maxCharacters: number,
  ) {}

  get(key: Key): HeldText | undefined {
    return this.texts.get(key);
  }

  set(key: Key, text: string): HeldText {
    this.delete(key);
    const held = { text };
    this.texts.set(key, held);
    this.characters += text.length;
    for (const oldest of this.texts.keys()) {
      if (oldest === key) break;
      if (this.texts.size <= this.maxTexts && this.characters <= this.maxCharacters) break;
      this.delete(oldest);
    }
    return held;
  }

  private delete(key: Key): void {
    const held = this.texts.get(key);
    if (held === undefined) return;
    this.texts.delete(key);
    this.characters -= held.text.length;
  }
}
