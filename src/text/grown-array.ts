type GrowableArray = Uint8Array | Int32Array | Uint32Array;

/**
 * `array` when it holds `needed` items; else a copy at least twice as large, the new items set
 * to `fill`. The growing buffers of the word index's builders (./identifier-table.ts,
 * ./word-postings.ts).
 */
export function withRoom<T extends GrowableArray>(array: T, needed: number, fill = 0): T {
  if (needed <= array.length) return array;
  const grown = new (array.constructor as new (length: number) => T)(
    Math.max(needed, array.length * 2),
  );
  if (fill !== 0) grown.fill(fill, array.length);
  grown.set(array);
  return grown;
}
