/**
 * Text on one line: every run of white space or control characters becomes one space. Control
 * characters too: a terminal would act on them, and a reader cannot see them.
 */
export function oneLine(text: string): string {
  return text.replace(/[\s\p{Cc}]+/gu, ' ').trim();
}
