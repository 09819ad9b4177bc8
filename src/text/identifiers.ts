/**
 * Code-aware tokenisation: identifiers are split into their words, whatever the convention
 * (`refreshToken`, `refresh_token`, `refresh-token`, `REFRESH_TOKEN`, `HTTPServer`).
 */

const IDENTIFIER = /[A-Za-z_$][A-Za-z0-9_$]*/g;

const isUpper = (code: number) => code >= 65 && code <= 90;
const isLower = (code: number) => code >= 97 && code <= 122;
const isDigit = (code: number) => code >= 48 && code <= 57;

/**
 * The words of one identifier, lower-cased: `parseHTTPResponse2` → `parse`, `http`, `response`.
 * A character loop rather than regular expressions: this runs for every distinct identifier of a
 * repository.
 */
export function splitIdentifier(identifier: string): string[] {
  const words: string[] = [];
  let start = -1;
  for (let index = 0; index <= identifier.length; index++) {
    const code = index < identifier.length ? identifier.charCodeAt(index) : 0;
    const letter = isUpper(code) || isLower(code);
    if (!letter) {
      if (start >= 0) words.push(identifier.slice(start, index).toLowerCase());
      start = -1;
      continue;
    }
    if (start < 0) {
      start = index;
      continue;
    }
    const previous = identifier.charCodeAt(index - 1);
    const next = index + 1 < identifier.length ? identifier.charCodeAt(index + 1) : 0;
    // A word starts at an upper-case letter after a lower-case one or a digit (`parseHttp`), and
    // at the last capital of an acronym that is followed by lower case (`HTTPServer`).
    if (
      isUpper(code) &&
      (isLower(previous) || isDigit(previous) || (isUpper(previous) && isLower(next)))
    ) {
      words.push(identifier.slice(start, index).toLowerCase());
      start = index;
    }
  }
  return words;
}

/** Every identifier-like token of a text, in order, as written. */
export function identifiersOf(text: string): string[] {
  return text.match(IDENTIFIER) ?? [];
}

/** The words of a text: every identifier split into lower-case words, in order. */
export function wordsOf(text: string): string[] {
  const words: string[] = [];
  for (const identifier of identifiersOf(text)) {
    for (const word of splitIdentifier(identifier)) words.push(word);
  }
  return words;
}

/** True when a token is a compound identifier (it splits into more than one word). */
export function isCompoundIdentifier(token: string): boolean {
  return splitIdentifier(token).length > 1;
}
