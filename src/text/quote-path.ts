/**
 * File names are untrusted: Linux allows a name to hold a line break, a quote or markup, and a
 * name is written into prompts, Markdown and line-oriented output. One rule for all of them: a
 * plain path is written as it is, so ordinary paths read exactly as before; any other path is
 * written as a quoted string whose escapes keep it on one line and inside its element.
 */

/**
 * What makes a path not plain: control characters (C0, DEL, C1), the Unicode line and paragraph
 * separators, invisible format characters (the bidirectional-text controls, which reorder what
 * a reader sees; zero-width spaces and marks), the quote and escape characters, and the
 * characters of markup.
 */
const NOT_PLAIN = /[\p{Cc}\p{Cf}"\\<>&\u2028\u2029]/u;

/** What `JSON.stringify` leaves as it is but a prompt or Markdown must not see raw. */
const UNSAFE_IN_JSON = /[<>&\u007f-\u009f\u2028\u2029\p{Cf}]/gu;

/** Control characters below 0x80, quote and backslash: what `git` quotes with `core.quotePath` off. */
// eslint-disable-next-line no-control-regex -- control characters are what it finds.
const NOT_PLAIN_FOR_GIT = /[\u0000-\u001f"\\\u007f]/g;
const C_ESCAPES: Readonly<Record<string, string>> = {
  '\u0007': '\\a',
  '\b': '\\b',
  '\t': '\\t',
  '\n': '\\n',
  '\v': '\\v',
  '\f': '\\f',
  '\r': '\\r',
  '"': '\\"',
  '\\': '\\\\',
};

/** `\u` escapes of a character's UTF-16 units (two for one past U+FFFF), as JSON reads them. */
export function unicodeEscape(character: string): string {
  let escaped = '';
  for (let unit = 0; unit < character.length; unit++)
    escaped += `\\u${character.charCodeAt(unit).toString(16).padStart(4, '0')}`;
  return escaped;
}

/**
 * The path as a JSON string, with `<`, `>` and `&` escaped too (as Go's `encoding/json` does for
 * HTML), so that no quoted path can close an element such as `</file>` around it.
 */
function jsonString(path: string): string {
  return JSON.stringify(path).replace(UNSAFE_IN_JSON, unicodeEscape);
}

/** Whether a path is written as it is. */
export function isPlainPath(path: string): boolean {
  return !NOT_PLAIN.test(path);
}

/**
 * A path as prompts and Markdown show it: as it is when plain, else a JSON string
 * (`"src/a\nb.ts"`), which `JSON.parse` reads back. A shown path that starts with `"` is always
 * such a string, since a plain path never holds a quote.
 */
export function quotePath(path: string): string {
  return isPlainPath(path) ? path : jsonString(path);
}

/**
 * A path for a double-quoted attribute (`<file path="…">`): the attribute's value is a JSON
 * string, so a plain path is itself and any other has its quotes and line breaks escaped.
 */
export function pathAttribute(path: string): string {
  return jsonString(path).slice(1, -1);
}

/**
 * A path for line-oriented output, quoted as `git ls-files` quotes it (with `core.quotePath`
 * off, so that non-ASCII names stay readable): control characters, `"` and `\` make it a
 * C-style string, `"a\nb.ts"`, with octal escapes for controls that have no letter.
 */
export function quotePathLikeGit(path: string): string {
  const escaped = path.replace(
    NOT_PLAIN_FOR_GIT,
    (character) =>
      C_ESCAPES[character] ?? `\\${character.charCodeAt(0).toString(8).padStart(3, '0')}`,
  );
  return escaped === path ? path : `"${escaped}"`;
}
