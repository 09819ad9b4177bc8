/**
 * A light suffix-stripping stemmer, so that `expiry`, `expires`, `expired` and `expiration` meet.
 * It is deliberately conservative: a stem keeps at least four letters, and only common English
 * inflections are removed.
 */

// No agentive `-er`: `render` and `rendering` would part, and `parser` is not `parse` anyway.
const SUFFIXES = [
  'ations',
  'ation',
  'ating',
  'ates',
  'ated',
  'ate',
  'ings',
  'ing',
  'ies',
  'ed',
  'es',
  's',
  'y',
  'e',
];
const MIN_STEM = 4;

const cache = new Map<string, string>();

export function stem(word: string): string {
  const cached = cache.get(word);
  if (cached !== undefined) return cached;
  let result = word.toLowerCase();
  if (!result.endsWith('ss')) {
    for (const suffix of SUFFIXES) {
      if (result.endsWith(suffix) && result.length - suffix.length >= MIN_STEM) {
        result = result.slice(0, -suffix.length);
        break;
      }
    }
  }
  if (cache.size > 50_000) cache.clear();
  cache.set(word, result);
  return result;
}
