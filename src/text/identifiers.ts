/**
 * Code-aware tokenisation: identifiers are split into their words, whatever the convention
 * (`refreshToken`, `refresh_token`, `refresh-token`, `REFRESH_TOKEN`, `HTTPServer`).
 */

const IDENTIFIER = /[A-Za-z_$][A-Za-z0-9_$]*/g;

/** The words of one identifier, lower-cased: `parseHTTPResponse2` → `parse`, `http`, `response`. */
export function splitIdentifier(identifier: string): string[] {
  return identifier
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[^A-Za-z]+/)
    .filter((word) => word.length > 0)
    .map((word) => word.toLowerCase());
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
