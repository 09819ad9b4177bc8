/**
 * Offers `item` to `best`, the best `limit` items offered so far in `compare`'s order (best
 * first): the same as sorting every item and keeping the first `limit`, without sorting them all.
 * A cycle ranks every matched file (thousands) to hand over a few dozen.
 */
export function keepBest<Item>(
  best: Item[],
  item: Item,
  limit: number,
  compare: (left: Item, right: Item) => number,
): void {
  const last = best[best.length - 1];
  if (limit <= 0 || (best.length >= limit && last !== undefined && compare(item, last) >= 0))
    return;
  // After every item that ranks as well, as a stable sort would place it.
  let low = 0;
  let high = best.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (compare(best[middle] as Item, item) <= 0) low = middle + 1;
    else high = middle;
  }
  best.splice(low, 0, item);
  if (best.length > limit) best.pop();
}
