import { describe, expect, it } from 'vitest';
import { commonLines } from '../../src/dispatch/keyword-match.js';

describe('commonLines', () => {
  it.each([
    [[], []],
    [[[3, 5, 9]], [3, 5, 9]],
    [
      [
        [1, 2, 3, 4],
        [2, 4, 6],
      ],
      [2, 4],
    ],
    [
      [
        [2, 4, 6],
        [1, 2, 3, 4],
      ],
      [2, 4],
    ],
    [
      [
        [1, 5, 7, 10],
        [5, 10],
        [0, 5, 8, 10, 11],
      ],
      [5, 10],
    ],
    [[[1, 2], []], []],
    [
      [
        [0, 10, 20],
        [30, 40],
      ],
      [],
    ],
    [
      [Uint32Array.of(1, 3, 4294967295), Uint32Array.of(3, 4294967295)],
      [3, 4294967295],
    ],
  ])('of %j is %j', (lists, expected) => {
    expect(commonLines(lists)).toEqual(expected);
  });

  it('agrees with a plain filter on random ascending lists', () => {
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    for (let round = 0; round < 500; round++) {
      const lists = Array.from({ length: 1 + Math.floor(random() * 4) }, () =>
        [
          ...new Set(
            Array.from({ length: Math.floor(random() * 30) }, () => Math.floor(random() * 40)),
          ),
        ].sort((left, right) => left - right),
      );
      const expected = (lists[0] ?? []).filter((line) =>
        lists.every((list) => list.includes(line)),
      );
      expect(commonLines(lists), JSON.stringify(lists)).toEqual(expected);
    }
  });
});
