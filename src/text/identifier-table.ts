import { withRoom } from './grown-array.js';

/**
 * Identifiers met in texts, each with the stem ids of its words, found by the characters of the
 * text itself: indexing a repository meets some 14 million identifiers per 50,000 files, and
 * cutting each out as a string to look it up in a `Map` cost more than everything else. Here
 * an identifier is hashed as it is read, compared where it stands with its first sighting's
 * characters (identifiers are ASCII: a byte each), and cut out only that first time.
 */
export class IdentifierTable {
  /** Per identifier: where its characters start in `characters`, its length and hash. */
  private starts = new Int32Array(1 << 12);
  private lengths = new Int32Array(1 << 12);
  private hashes = new Int32Array(1 << 12);
  /** Per identifier, where its stem ids start in `stemIds`, and how many it has. */
  private firstStem = new Int32Array(1 << 12);
  private stemCount = new Int32Array(1 << 12);
  private count = 0;
  private characters = new Uint8Array(1 << 16);
  private characterCount = 0;
  private stemIds = new Int32Array(1 << 12);
  private stemIdCount = 0;
  /** Open addressing: identifier number + 1, 0 where empty. */
  private slots = new Int32Array(1 << 13);

  constructor(
    private readonly stemsOf: (identifier: string) => readonly number[],
    /** Past this many identifiers the table starts again, so that memory stays bounded. */
    private readonly maxIdentifiers = 4_000_000,
  ) {}

  /**
   * The number of the identifier `text.slice(start, end)`, whose FNV-1a hash of its character
   * codes is `hash`.
   */
  find(text: string, start: number, end: number, hash: number): number {
    const mask = this.slots.length - 1;
    const length = end - start;
    for (let slot = mix(hash) & mask; ; slot = (slot + 1) & mask) {
      const entry = this.slots[slot] ?? 0;
      if (entry === 0) return this.add(text.slice(start, end), hash, slot);
      const number = entry - 1;
      if (this.hashes[number] !== hash || this.lengths[number] !== length) continue;
      const from = this.starts[number] ?? 0;
      let index = 0;
      while (index < length && this.characters[from + index] === text.charCodeAt(start + index))
        index++;
      if (index === length) return number;
    }
  }

  /** How many stem ids identifier `number` has; `stemIdAt` gives each. */
  stemsCount(number: number): number {
    return this.stemCount[number] ?? 0;
  }

  stemIdAt(number: number, index: number): number {
    return this.stemIds[(this.firstStem[number] ?? 0) + index] ?? 0;
  }

  private add(name: string, hash: number, slot: number): number {
    if (this.count >= this.maxIdentifiers) {
      this.clear();
      slot = this.emptySlot(hash);
    }
    const ids = this.stemsOf(name);
    const number = this.count++;
    if (number >= this.starts.length) this.growIdentifiers();
    this.characters = withRoom(this.characters, this.characterCount + name.length);
    this.stemIds = withRoom(this.stemIds, this.stemIdCount + ids.length);
    this.starts[number] = this.characterCount;
    for (let index = 0; index < name.length; index++)
      this.characters[this.characterCount++] = name.charCodeAt(index);
    this.lengths[number] = name.length;
    this.hashes[number] = hash;
    this.firstStem[number] = this.stemIdCount;
    this.stemCount[number] = ids.length;
    for (const id of ids) this.stemIds[this.stemIdCount++] = id;
    this.slots[slot] = number + 1;
    // At most half full, so that probes stay short.
    if (this.count * 2 > this.slots.length) {
      this.slots = new Int32Array(this.slots.length * 2);
      for (let identifier = 0; identifier < this.count; identifier++)
        this.slots[this.emptySlot(this.hashes[identifier] ?? 0)] = identifier + 1;
    }
    return number;
  }

  private emptySlot(hash: number): number {
    const mask = this.slots.length - 1;
    let slot = mix(hash) & mask;
    while (this.slots[slot] !== 0) slot = (slot + 1) & mask;
    return slot;
  }

  private growIdentifiers(): void {
    const size = this.starts.length * 2;
    this.starts = withRoom(this.starts, size);
    this.lengths = withRoom(this.lengths, size);
    this.hashes = withRoom(this.hashes, size);
    this.firstStem = withRoom(this.firstStem, size);
    this.stemCount = withRoom(this.stemCount, size);
  }

  private clear(): void {
    this.count = 0;
    this.characterCount = 0;
    this.stemIdCount = 0;
    this.slots.fill(0);
  }
}

/** Spreads a hash's bits into its low ones, which pick the slot (murmur3's finaliser). */
function mix(hash: number): number {
  let mixed = hash ^ (hash >>> 16);
  mixed = Math.imul(mixed, 0x85ebca6b);
  mixed ^= mixed >>> 13;
  mixed = Math.imul(mixed, 0xc2b2ae35);
  return mixed ^ (mixed >>> 16);
}
