import { describe, expect, it } from 'vitest';
import {
  MAX_LINES_PER_KEYWORD,
  addLine,
  commonLines,
  emptyMatch,
  linesFull,
} from '../../src/dispatch/keyword-match.js';
import { compileKeyword, type KeywordPattern } from '../../src/dispatch/keyword.js';

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

describe("a match's lines", () => {
  const keyword = (text: string) => compileKeyword(text) as KeywordPattern;

  it('keeps at most MAX_LINES_PER_KEYWORD of each kind, 1-based, in order', () => {
    const match = emptyMatch(keyword('getUser'));
    for (let line = 0; line < MAX_LINES_PER_KEYWORD + 5; line++)
      addLine(match, line, line % 2 === 0);
    for (let line = 0; line < MAX_LINES_PER_KEYWORD * 2; line++) addLine(match, line, true);
    expect(match.exactLines).toHaveLength(MAX_LINES_PER_KEYWORD);
    expect(match.exactLines.slice(0, 3)).toEqual([1, 3, 5]);
    expect(match.partialLines).toHaveLength(Math.floor((MAX_LINES_PER_KEYWORD + 5) / 2));
  });

  it.each([
    // A plain word's lines are all exact: full once those are.
    ['retry', MAX_LINES_PER_KEYWORD, 0, true],
    ['retry', MAX_LINES_PER_KEYWORD - 1, 0, false],
    // An identifier or a phrase may still add partial lines.
    ['getUser', MAX_LINES_PER_KEYWORD, 0, false],
    ['getUser', MAX_LINES_PER_KEYWORD, MAX_LINES_PER_KEYWORD, true],
    ['token expiry', MAX_LINES_PER_KEYWORD, 3, false],
  ])('%s with %i exact and %i partial lines is full: %s', (text, exact, partial, full) => {
    const match = emptyMatch(keyword(text));
    match.exactLines = Array.from({ length: exact }, (_, line) => line + 1);
    match.partialLines = Array.from({ length: partial }, (_, line) => line + 1);
    expect(linesFull(match, keyword(text))).toBe(full);
  });
});
