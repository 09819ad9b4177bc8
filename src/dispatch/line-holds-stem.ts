/** ASCII letters: an identifier's words are runs of them (src/text/identifiers.ts). */
const isLetter = (code: number) => (code >= 65 && code <= 90) || (code >= 97 && code <= 122);

/**
 * Whether a line holds `stem` as the stem of one of its identifiers' words. A stem is a prefix of
 * the lower-cased word it came from, and a word never crosses a character that is not a letter;
 * so only the runs of letters where the lower-cased line holds the stem as text can have it, and
 * only those are split and stemmed, not every identifier of the line.
 *
 * `lowerLine` is `line` lower-cased, the same length (so each character is where it was). Each
 * run is looked at once, however often it holds the stem: linear in the line's length.
 */
export function lineHoldsStem(
  line: string,
  lowerLine: string,
  stem: string,
  stemsOf: (letters: string) => readonly string[],
): boolean {
  if (stem.length === 0) return false;
  let at = lowerLine.indexOf(stem);
  while (at !== -1) {
    let start = at;
    while (start > 0 && isLetter(line.charCodeAt(start - 1))) start--;
    let end = at;
    while (end < line.length && isLetter(line.charCodeAt(end))) end++;
    if (start < end && stemsOf(line.slice(start, end)).includes(stem)) return true;
    at = lowerLine.indexOf(stem, Math.max(end, at + 1));
  }
  return false;
}
