import type { StemTable } from './word-postings.js';

/**
 * The stems of each defined symbol's name, as ids of a `StemTable`: symbol `i`'s distinct ids are
 * `ids[offsets[i]] … ids[offsets[i + 1]]`, in the outline's order. A search for a keyword's
 * definitions reads these instead of the outline, which is then parsed only for the files that
 * define one (most files a common word is in define nothing named after it).
 */
export interface SymbolStems {
  offsets: Uint32Array;
  ids: Uint32Array;
}

/** Each symbol's stems (its name split and stemmed, as the search stems it), as ids of `table`. */
export function symbolStemsOf(
  stemsBySymbol: readonly (readonly string[])[],
  table: StemTable,
): SymbolStems {
  const offsets = new Uint32Array(stemsBySymbol.length + 1);
  const ids: number[] = [];
  stemsBySymbol.forEach((stems, index) => {
    for (const id of new Set(stems.map((word) => table.intern(word)))) ids.push(id);
    offsets[index + 1] = ids.length;
  });
  return { offsets, ids: Uint32Array.from(ids) };
}

/**
 * The symbols (by index) whose names hold, for each word, one of its alternatives' ids. In loops,
 * with nothing made per symbol: a warm run asks this of every file holding a keyword's words.
 */
export function symbolsHoldingAll(
  symbols: SymbolStems,
  words: readonly (readonly number[])[],
): number[] {
  const { offsets, ids } = symbols;
  const found: number[] = [];
  for (let symbol = 0; symbol + 1 < offsets.length; symbol++) {
    const start = offsets[symbol] ?? 0;
    const end = offsets[symbol + 1] ?? 0;
    let holdsEvery = true;
    for (let word = 0; word < words.length && holdsEvery; word++) {
      const alternatives = words[word] ?? [];
      let holds = false;
      for (let index = 0; index < alternatives.length && !holds; index++)
        for (let at = start; at < end && !holds; at++) holds = ids[at] === alternatives[index];
      holdsEvery = holds;
    }
    if (holdsEvery) found.push(symbol);
  }
  return found;
}

/** How many distinct stems symbol `index`'s name has. */
export const stemCountOf = (symbols: SymbolStems, index: number) =>
  (symbols.offsets[index + 1] ?? 0) - (symbols.offsets[index] ?? 0);
