import { GlobError } from './glob-error.js';

/**
 * Brace expansion as picomatch reads braces: `{a,b}`, nested, and ranges (`{1..3}`, `{a..c}`);
 * a brace of one choice (`{a}`) stays as written. Bounded: more than MAX_ALTERNATIVES globs is a
 * `GlobError`, found before they are all made.
 */

/** Most globs one glob's braces expand to. */
export const MAX_ALTERNATIVES = 256;

/** The globs `glob`'s braces stand for, at most MAX_ALTERNATIVES. */
export function expandBraces(glob: string): string[] {
  const open = findOpenBrace(glob);
  if (open === -1) return [glob];
  const close = matchingBrace(glob, open);
  if (close === -1) return [glob];
  const inside = glob.slice(open + 1, close);
  const choices = rangeOf(inside) ?? splitTopLevel(inside);
  // A brace with one choice (`{a}`) is read as it is written, as picomatch does.
  if (choices.length < 2)
    return expandBraces(glob.slice(close + 1)).map((rest) => `${glob.slice(0, close + 1)}${rest}`);
  const head = glob.slice(0, open);
  const tails = expandBraces(glob.slice(close + 1));
  const expanded: string[] = [];
  for (const choice of choices)
    for (const middle of expandBraces(choice)) {
      if (expanded.length + tails.length > MAX_ALTERNATIVES)
        throw new GlobError(`its braces expand to more than ${MAX_ALTERNATIVES} globs`);
      for (const tail of tails) expanded.push(`${head}${middle}${tail}`);
    }
  return expanded;
}

function findOpenBrace(glob: string): number {
  for (let index = 0; index < glob.length; index++) {
    const character = glob.charAt(index);
    if (character === '\\') index++;
    else if (character === '{') return index;
  }
  return -1;
}

function matchingBrace(glob: string, open: number): number {
  let depth = 0;
  for (let index = open; index < glob.length; index++) {
    const character = glob.charAt(index);
    if (character === '\\') index++;
    else if (character === '{') depth++;
    else if (character === '}' && --depth === 0) return index;
  }
  return -1;
}

/** `a,b{c,d}` → `a`, `b{c,d}`: the choices of a brace, split at its own commas. */
function splitTopLevel(inside: string): string[] {
  const choices: string[] = [];
  let depth = 0;
  let start = 0;
  for (let index = 0; index < inside.length; index++) {
    const character = inside.charAt(index);
    if (character === '\\') index++;
    else if (character === '{') depth++;
    else if (character === '}') depth--;
    else if (character === ',' && depth === 0) {
      choices.push(inside.slice(start, index));
      start = index + 1;
    }
  }
  choices.push(inside.slice(start));
  return choices;
}

/** `1..3` → 1, 2, 3; `a..c` → a, b, c; undefined when it is not a range. */
function rangeOf(inside: string): string[] | undefined {
  const numeric = /^(-?\d{1,9})\.\.(-?\d{1,9})$/.exec(inside);
  const alphabetic = /^([a-zA-Z])\.\.([a-zA-Z])$/.exec(inside);
  if (!numeric && !alphabetic) return undefined;
  const [from, to] = numeric
    ? [Number(numeric[1]), Number(numeric[2])]
    : [alphabetic?.[1]?.charCodeAt(0) ?? 0, alphabetic?.[2]?.charCodeAt(0) ?? 0];
  if (Math.abs(to - from) + 1 > MAX_ALTERNATIVES)
    throw new GlobError(`its braces expand to more than ${MAX_ALTERNATIVES} globs`);
  const step = to >= from ? 1 : -1;
  const values: string[] = [];
  for (let value = from; value !== to + step; value += step)
    values.push(numeric ? String(value) : String.fromCharCode(value));
  return values;
}
