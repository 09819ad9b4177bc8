/**
 * Text on one line: every run of white space or control characters becomes one space. Control
 * characters too: a terminal would act on them, and a reader cannot see them. Invisible format
 * characters (bidirectional overrides, zero-width spaces) are left out, and a closing tag is
 * written `<\/…>`: the text may be a commit subject or a model's words, shown inside the
 * hand-over's own tag, which it must not be able to close or to reorder.
 */
export function oneLine(text: string): string {
  return text
    .replace(/\p{Cf}+/gu, '')
    .replace(/[\s\p{Cc}]+/gu, ' ')
    .replaceAll('</', '<\\/')
    .trim();
}
