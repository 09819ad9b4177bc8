import { describe, expect, it } from 'vitest';
import { splitBytes } from '../../src/text/split-bytes.js';

/** A small seeded generator: the same bytes on every run. */
function random(seed: number) {
  let state = seed;
  return (below: number) => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state % below;
  };
}

// Separators, ASCII, the lead and continuation bytes of longer characters, and bytes that are
// never UTF-8: ill-formed sequences cut by a separator must decode as they do in the whole.
const BYTES = [
  0, 0x0a, 0x1e, 0x61, 0x2f, 0xc3, 0xa9, 0xe2, 0x82, 0xac, 0xf0, 0x9f, 0x98, 0x80, 0xff,
];

describe('splitBytes', () => {
  it('gives the parts that splitting the decoded whole gives, on random bytes', () => {
    const next = random(11);
    for (let round = 0; round < 2000; round++) {
      const bytes = Buffer.from(
        Array.from({ length: next(40) }, () => BYTES[next(BYTES.length)] ?? 0),
      );
      for (const separator of [0, 0x0a, 0x1e])
        expect(splitBytes(bytes, separator), bytes.toString('hex')).toEqual(
          bytes.toString('utf8').split(String.fromCharCode(separator)),
        );
    }
  });

  it('gives one empty part for no bytes, and empty parts around separators', () => {
    expect(splitBytes(Buffer.alloc(0), 0)).toEqual(['']);
    expect(splitBytes(Buffer.from('\0a\0\0'), 0)).toEqual(['', 'a', '', '']);
  });
});
