import { describe, expect, it } from 'vitest';
import { RecentTexts } from '../../src/repository/recent-texts.js';
import { KnownWordsTable } from '../../src/dispatch/known-words.js';

describe('RecentTexts', () => {
  it.each([
    // [max texts, max characters, texts set in turn, keys still kept]
    [2, 100, ['a', 'b', 'c'], ['b', 'c']],
    [5, 6, ['a', 'b', 'c'], ['b', 'c']],
    // The last text is kept even when it alone is over the bound.
    [5, 2, ['a', 'b', 'c'], ['c']],
    [3, 100, ['a', 'b', 'a'], ['b', 'a']],
  ])(
    'keeps at most %i texts and %i characters, the newest',
    (maxTexts, maxCharacters, keys, kept) => {
      const texts = new RecentTexts<string>(maxTexts, maxCharacters);
      for (const key of keys) texts.set(key, key.repeat(3));
      const held = [...new Set(keys)].filter((key) => texts.get(key) !== undefined);
      expect(held.sort()).toEqual([...kept].sort());
    },
  );
});

describe('KnownWordsTable', () => {
  it('knows, per file, what was found of each word, and forgets the words searched first', () => {
    const table = new KnownWordsTable(3);
    table.of(0).set('token', true);
    table.of(2).set('token', false);
    table.of(1).set('cache', true);
    expect([0, 1, 2].map((file) => table.of(file).get('token'))).toEqual([true, undefined, false]);
    table.forgetBeyond(1);
    expect(table.of(0).get('token')).toBeUndefined();
    expect(table.of(1).get('cache')).toBe(true);
  });
});
