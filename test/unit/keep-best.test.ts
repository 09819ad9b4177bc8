import { describe, expect, it } from 'vitest';
import { keepBest } from '../../src/dispatch/keep-best.js';

interface Item {
  score: number;
  order: number;
}
const byScore = (left: Item, right: Item) => right.score - left.score;

/** A seeded generator, so a failure can be run again. */
function random(seed: number) {
  let state = seed;
  return () => (state = (state * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
}

describe('keepBest', () => {
  it.each([0, 1, 3, 30, 500])(
    'keeps what a stable sort keeps first, ties in the order offered (limit %i)',
    (limit) => {
      const next = random(limit + 1);
      for (let round = 0; round < 50; round++) {
        // Few distinct scores, so that ties are common.
        const items = Array.from({ length: Math.floor(next() * 300) }, (_, order) => ({
          score: Math.floor(next() * 12),
          order,
        }));
        const best: Item[] = [];
        for (const item of items) keepBest(best, item, limit, byScore);
        expect(best).toEqual([...items].sort(byScore).slice(0, limit));
      }
    },
  );
});
