import { equivalentStems } from '../text/abbreviations.js';
import { identifiersOf, splitIdentifier } from '../text/identifiers.js';
import { stem } from '../text/stem.js';
import { STOP_WORDS } from '../text/stop-words.js';
import { hasCjk } from '../text/cjk.js';
import { type KeywordForm } from '../contracts/candidate.js';

export interface KeywordPattern {
  keyword: string;
  form: KeywordForm;
  /** Lower-cased identifier with separators removed, when the keyword is one identifier. */
  identifier: string | undefined;
  /** Lower-cased text, when the keyword is a phrase of several words. */
  phrase: string | undefined;
  /**
   * For each content word of the keyword, the stems that count as that word; none for text
   * found as written (Chinese, Japanese, Korean), which is a `phrase` only.
   */
  words: string[][];
  /**
   * For a member written with its owner (`Coarsen.construct`, `Model::save`, `String#split`,
   * `$cell->getValue`): the owner and the member, compared as identifiers. The last two parts
   * of a longer chain (`ds.Coarsen.construct`): what comes before is a receiver or a package.
   */
  member: { owner: string; name: string; ownerIsType: boolean } | undefined;
}

/** An identifier, then members reached by `.`, `::`, `#` or `->`. */
const CHAIN = String.raw`[A-Za-z_$][\w$]*(?:(?:\.|::|#|->)[A-Za-z_$][\w$]*)+`;
/** A keyword that is a chain and nothing else. */
const MEMBER_CHAIN = new RegExp(`^${CHAIN}$`);
/**
 * The chains of a text (`ds.Coarsen.construct` in prose), tried only where a word starts;
 * separators never start a name, so each attempt ends within its word: linear.
 */
export const MEMBER_CHAINS = new RegExp(String.raw`(?<![\w$.:#>/\\-])${CHAIN}`, 'g');
export const MEMBER_SEPARATOR = /\.|::|#|->/;

/** Owners that name no definition: a receiver (`self.items`, `this.state`) or a reader's alias (`np`, `ds`). */
const NOT_AN_OWNER = /^(?:.{1,2}|self|this|cls|super|console)$/i;

export function memberOf(keyword: string): KeywordPattern['member'] {
  if (!MEMBER_CHAIN.test(keyword)) return undefined;
  const [owner = '', name = ''] = keyword.split(MEMBER_SEPARATOR).slice(-2);
  if (NOT_AN_OWNER.test(owner) || name.length < 2) return undefined;
  return {
    owner: normalizeIdentifier(owner),
    name: normalizeIdentifier(name),
    // `Coarsen.construct` is a class's; `post.url` a variable's, unless a module is named `post`.
    ownerIsType: /^[A-Z]/.test(owner),
  };
}

export function compileKeyword(keyword: string): KeywordPattern | undefined {
  const trimmed = keyword.trim();
  const tokens = identifiersOf(trimmed);
  // Chinese, Japanese or Korean text has no words to split: it is found as written.
  if (tokens.length === 0 && hasCjk(trimmed))
    return {
      keyword: trimmed,
      form: 'phrase',
      identifier: undefined,
      phrase: trimmed.toLowerCase(),
      words: [],
      member: undefined,
    };
  const isPhrase = /\s/.test(trimmed) && tokens.length > 1;
  const split = tokens.flatMap((token) => splitIdentifier(token));
  const content = isPhrase ? split.filter((word) => !STOP_WORDS.has(word)) : split;
  const words = [...new Set((content.length ? content : split).map(stem))].map(equivalentStems);
  if (words.length === 0) return undefined;
  // `refreshToken`, `refresh_token` and `refresh-token` are one identifier in different dress.
  const identifier =
    !/\s/.test(trimmed) && split.length > 1 ? normalizeIdentifier(tokens.join('')) : undefined;
  return {
    keyword: trimmed,
    form: isPhrase ? 'phrase' : identifier !== undefined ? 'identifier' : 'word',
    identifier,
    phrase: isPhrase ? trimmed.toLowerCase() : undefined,
    words,
    member: memberOf(trimmed),
  };
}

/** The form in which identifiers are compared: lower case, no separators. */
export function normalizeIdentifier(identifier: string): string {
  return identifier.toLowerCase().replace(/[_$-]/g, '');
}

/**
 * True when, for every word of the pattern, `holds` one of its alternatives (equivalents). In
 * loops, with nothing allocated: every file is asked this for every keyword.
 */
export function holdsEveryWord(pattern: KeywordPattern, holds: (word: string) => boolean): boolean {
  for (const alternatives of pattern.words) {
    let any = false;
    for (let index = 0; index < alternatives.length && !any; index++)
      any = holds(alternatives[index] ?? '');
    if (!any) return false;
  }
  return true;
}

/**
 * True when every word of the pattern (or an equivalent) is in the set, or in `more`. In loops,
 * with nothing allocated: every file's name is asked for every keyword.
 */
export function hasAllWords(
  pattern: KeywordPattern,
  stems: ReadonlySet<string>,
  more?: ReadonlySet<string>,
): boolean {
  for (const alternatives of pattern.words) {
    let any = false;
    for (let index = 0; index < alternatives.length && !any; index++) {
      const word = alternatives[index] ?? '';
      any = stems.has(word) || more?.has(word) === true;
    }
    if (!any) return false;
  }
  return true;
}

/** Text found as written rather than by its words: Chinese, Japanese or Korean. */
export const isLiteral = (
  pattern: KeywordPattern,
): pattern is KeywordPattern & { phrase: string } =>
  pattern.words.length === 0 && pattern.phrase !== undefined;
