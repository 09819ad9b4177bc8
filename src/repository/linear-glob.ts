import { expandBraces } from './brace-expansion.js';
import { GlobError } from './glob-error.js';

/**
 * Globs matched in time linear in the path: picomatch turns a glob into a regular expression
 * that backtracks, and `*a*a*a*a*a*ac` took 9 s against one name of 100 `a`s, where globs come
 * from users, from a model's queries and are tried on every file name of a repository. Here each
 * path part is matched by dynamic programming over the glob's tokens (at most glob × part steps),
 * and `**` by the same over parts. It reads picomatch's globs with `dot` (what the search uses):
 * `*`, `?`, `**` as a whole part, classes (`[a-z]`, `[^.]`), braces (`{a,b}`, `{1..3}`, nested),
 * escapes and a leading `!`; extglobs (`@(a|b)`) and POSIX classes are refused (`GlobError`), as
 * are braces that expand to more than MAX_ALTERNATIVES globs (./brace-expansion.ts).
 */

/** Longest glob read. */
export const MAX_GLOB_LENGTH = 1_024;

type Token =
  | { kind: 'literal'; text: string }
  | { kind: 'one' }
  | { kind: 'star' }
  | { kind: 'class'; negated: boolean; test: (character: string) => boolean };

/** A part of a glob between slashes: its tokens, or `**`. */
type Part = Token[] | 'globstar';

export interface LinearGlobOptions {
  nocase?: boolean;
}

/** A test of POSIX paths relative to the root against `glob`; a `GlobError` where it cannot be one. */
export function linearGlob(
  glob: string,
  options: LinearGlobOptions = {},
): (path: string) => boolean {
  if (glob.length > MAX_GLOB_LENGTH)
    throw new GlobError(`longer than ${MAX_GLOB_LENGTH} characters`);
  const negated = glob.startsWith('!') && !glob.startsWith('!(');
  const body = negated ? glob.slice(1) : glob;
  checkBrackets(body);
  const nocase = options.nocase === true;
  // picomatch reads a part's leading `**` as any run of parts when braces follow it at once
  // (`**{a,b}` is `**/*{a,b}`), a `**` only as written as a whole part (not where braces leave
  // one alone in a part, `{,a}**`), and strips a leading `./` only as written.
  const written = markGlobstars(body.replace(/^(?:\.\/)+/, '').replace(/(^|\/)\*\*\{/g, '$1**/*{'));
  // `dir/**` also matches `dir` itself, unless what is written before `/**` ends in `*`.
  const matchesItself = !(
    written.endsWith(`*/${GLOBSTAR}`) && !written.endsWith(`\\*/${GLOBSTAR}`)
  );
  const alternatives = expandBraces(written).map((expanded) =>
    splitParts(expanded).map((part) => (part === GLOBSTAR ? 'globstar' : tokensOf(part, nocase))),
  );
  return (path) => {
    const parts = (nocase ? path.toLowerCase() : path).split('/');
    const matched = alternatives.some((alternative) =>
      matchesParts(alternative, parts, matchesItself),
    );
    return negated ? !matched : matched;
  };
}

/**
 * Refuses what picomatch reads in ways of its own: a class or a brace left open, a brace closed
 * that was never opened, and `**` inside braces (there it may cross parts).
 */
function checkBrackets(glob: string): void {
  let depth = 0;
  for (let index = 0; index < glob.length; index++) {
    const character = glob.charAt(index);
    if (character === '\\') index++;
    else if (character === GLOBSTAR) throw new GlobError('a NUL character is not a glob');
    else if (character === '[') {
      const end = classEnd(glob, index);
      if (end === index) throw new GlobError('a [ is never closed');
      if (glob.slice(index, end).includes('{'))
        throw new GlobError('a { inside a class is not supported');
      index = end;
    } else if (character === '{') depth++;
    else if (character === '}' && --depth < 0) throw new GlobError('a } closes no {');
    else if (character === '*' && depth > 0 && glob.charAt(index + 1) === '*')
      throw new GlobError('** inside braces is not supported');
  }
  if (depth > 0) throw new GlobError('a { is never closed');
}

/** A whole part `**` as written, kept apart from stars that braces put side by side. */
const GLOBSTAR = '\u0000';

/**
 * `glob` with each `**` written as a whole part marked as GLOBSTAR. Three stars or more are
 * refused: picomatch reads them now as `*`, now as `**`.
 */
function markGlobstars(glob: string): string {
  let read = '';
  for (let index = 0; index < glob.length; index++) {
    const character = glob.charAt(index);
    if (character === '\\') {
      read += glob.slice(index, index + 2);
      index++;
      continue;
    }
    if (character !== '*') {
      read += character;
      continue;
    }
    let end = index;
    while (glob.charAt(end) === '*') end++;
    if (end - index > 2) throw new GlobError('three stars or more in a row are not a glob');
    const whole =
      end - index === 2 &&
      (index === 0 || glob.charAt(index - 1) === '/') &&
      (end === glob.length || glob.charAt(end) === '/');
    read += whole ? GLOBSTAR : glob.slice(index, end);
    index = end - 1;
  }
  return read;
}

/** Whether `parts` of a path match the glob's parts, `**` standing for any number of them. */
function matchesParts(
  glob: readonly Part[],
  parts: readonly string[],
  matchesItself: boolean,
): boolean {
  // reachable[j]: the glob's parts so far can match the path's first j parts.
  let reachable = new Array<boolean>(parts.length + 1).fill(false);
  reachable[0] = true;
  for (const [index, part] of glob.entries()) {
    const next = new Array<boolean>(parts.length + 1).fill(false);
    if (part === 'globstar') {
      // Any run of parts, none of them `.` or `..`; at the end, at least one (below for none).
      const atLeastOne = index === glob.length - 1;
      let open = false;
      for (let j = 0; j <= parts.length; j++) {
        next[j] = open;
        if (reachable[j]) open = true;
        if (!atLeastOne) next[j] = open;
        if (j < parts.length && isOddPart(parts[j] ?? '')) open = false;
      }
    } else {
      for (let j = 0; j < parts.length; j++)
        if (reachable[j] && matchesPart(part, parts[j] ?? '')) next[j + 1] = true;
    }
    reachable = next;
  }
  if (reachable[parts.length]) return true;
  // `dir/**` also matches `dir` itself, as picomatch reads it.
  return (
    matchesItself &&
    glob.at(-1) === 'globstar' &&
    glob.length > 1 &&
    matchesParts(glob.slice(0, -1), parts, matchesItself)
  );
}

const isOddPart = (part: string) => part === '.' || part === '..';

/** Whether one part of a path matches a part's tokens: dynamic programming, glob × text steps. */
function matchesPart(tokens: readonly Token[], text: string): boolean {
  if (isOddPart(text)) return false;
  // at[i]: the tokens so far can match the text's first i characters.
  let at = new Array<boolean>(text.length + 1).fill(false);
  at[0] = true;
  for (const token of tokens) {
    const next = new Array<boolean>(text.length + 1).fill(false);
    if (token.kind === 'star') {
      let open = false;
      for (let i = 0; i <= text.length; i++) {
        if (at[i]) open = true;
        next[i] = open;
      }
    } else if (token.kind === 'literal') {
      const { text: literal } = token;
      for (let i = 0; i + literal.length <= text.length; i++)
        if (at[i] && text.startsWith(literal, i)) next[i + literal.length] = true;
    } else {
      for (let i = 0; i < text.length; i++)
        if (at[i] && (token.kind === 'one' || token.test(text.charAt(i)) !== token.negated))
          next[i + 1] = true;
    }
    at = next;
    if (!at.includes(true)) return false;
  }
  // An empty part matches only an empty glob part; `*` alone does not match an empty name.
  if (text.length === 0) return tokens.length === 0;
  return at[text.length] === true;
}

/** The glob's parts between unescaped slashes outside classes. */
function splitParts(glob: string): string[] {
  const parts: string[] = [];
  let part = '';
  for (let index = 0; index < glob.length; index++) {
    const character = glob.charAt(index);
    if (character === '\\' && index + 1 < glob.length) {
      part += character + glob.charAt(++index);
    } else if (character === '[') {
      const end = classEnd(glob, index);
      part += glob.slice(index, end + 1);
      index = end;
    } else if (character === '/') {
      parts.push(part);
      part = '';
    } else part += character;
  }
  parts.push(part);
  return parts;
}

/** Where the class opened at `start` closes (`]` first after it is a member), or `start` if never. */
function classEnd(glob: string, start: number): number {
  let index = start + 1;
  if (glob.charAt(index) === '^') index++;
  if (glob.charAt(index) === ']') index++;
  for (; index < glob.length; index++) {
    const character = glob.charAt(index);
    if (character === '\\') index++;
    else if (character === '/') return start;
    else if (character === ']') return index;
  }
  return start;
}

function tokensOf(part: string, nocase: boolean): Token[] {
  const tokens: Token[] = [];
  const literal = (character: string) => {
    const text = nocase ? character.toLowerCase() : character;
    const last = tokens.at(-1);
    if (last?.kind === 'literal') last.text += text;
    else tokens.push({ kind: 'literal', text });
  };
  for (let index = 0; index < part.length; index++) {
    const character = part.charAt(index);
    const next = part.charAt(index + 1);
    if (character === '\\' && index + 1 < part.length) literal(part.charAt(++index));
    else if ('@!+*?'.includes(character) && next === '(')
      throw new GlobError('extglobs such as @(a|b) are not supported');
    else if (character === '*') {
      // `**` inside a part is `*`.
      if (tokens.at(-1)?.kind !== 'star') tokens.push({ kind: 'star' });
    } else if (character === '?') tokens.push({ kind: 'one' });
    else if (character === '[' && classEnd(part, index) > index) {
      const end = classEnd(part, index);
      tokens.push(classToken(part.slice(index + 1, end), nocase));
      index = end;
    } else literal(character);
  }
  return tokens;
}

function classToken(inside: string, nocase: boolean): Token {
  if (inside.includes('[:'))
    throw new GlobError('POSIX classes such as [[:alpha:]] are not supported');
  // Only `^` negates, as picomatch reads a class: `[!a]` holds `!` and `a`.
  const negated = inside.startsWith('^');
  const members = negated ? inside.slice(1) : inside;
  const ranges: [string, string][] = [];
  for (let index = 0; index < members.length; index++) {
    let from = members.charAt(index);
    if (from === '\\' && index + 1 < members.length) from = members.charAt(++index);
    let to = from;
    if (members.charAt(index + 1) === '-' && index + 2 < members.length) {
      to = members.charAt(index + 2);
      if (to === '\\' && index + 3 < members.length) to = members.charAt(++index + 2);
      index += 2;
    }
    ranges.push([from, to]);
  }
  const inRange = (character: string) =>
    ranges.some(([from, to]) => character >= from && character <= to);
  return {
    kind: 'class',
    negated,
    // Never a slash, as `*` is never one.
    test: (character) =>
      character !== '/' &&
      (inRange(character) ||
        (nocase && (inRange(character.toLowerCase()) || inRange(character.toUpperCase())))),
  };
}
