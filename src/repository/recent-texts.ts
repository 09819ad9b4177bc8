/**
 * The texts of the files used last, where a file's text is not held: a search reads a file's
 * text, and its outline and excerpt ask for it again at once. Bounded by count and characters,
 * the oldest let go first.
 */
export class RecentTexts<Key> {
  private readonly texts = new Map<Key, string>();
  private characters = 0;

  constructor(
    private readonly maxTexts: number,
    private readonly maxCharacters: number,
  ) {}

  get(key: Key): string | undefined {
    return this.texts.get(key);
  }

  set(key: Key, text: string): string {
    this.delete(key);
    this.texts.set(key, text);
    this.characters += text.length;
    for (const oldest of this.texts.keys()) {
      if (oldest === key) break;
      if (this.texts.size <= this.maxTexts && this.characters <= this.maxCharacters) break;
      this.delete(oldest);
    }
    return text;
  }

  private delete(key: Key): void {
    const text = this.texts.get(key);
    if (text === undefined) return;
    this.texts.delete(key);
    this.characters -= text.length;
  }
}
