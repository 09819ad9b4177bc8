/**
 * Where a file's content starts once its license header is passed. A file shown from its first
 * line (one asked for by path, with no line matching the query) would otherwise spend its excerpt
 * on a copyright notice. Only comment blocks that speak of a license or copyright are passed: a
 * module's own doc comment says what the file is for and stays.
 */

const LICENSE_WORDS = /\b(?:licen[cs]e[ds]?|copyright|spdx-license-identifier)\b/i;
/** Comment lines: `//`, `--`, `;`, `%`, and `#` followed by a space (`#include` is code). */
const LINE_COMMENT = /^\s*(?:\/\/|--|;|%|#(?:[\s#]|$))/;
const BLOCK_OPENERS = [
  { open: '/*', close: '*/' },
  { open: '<!--', close: '-->' },
  { open: '(*', close: '*)' },
  { open: '{-', close: '-}' },
] as const;

/** The line after the comment block that starts at `start` (1-based), or `start` if none does. */
function commentBlockEnd(lines: readonly string[], start: number): number {
  const first = (lines[start - 1] ?? '').trimStart();
  const block = BLOCK_OPENERS.find((opener) => first.startsWith(opener.open));
  if (block) {
    for (let line = start; line <= lines.length; line++) {
      const text = lines[line - 1] ?? '';
      const from = line === start ? text.indexOf(block.open) + block.open.length : 0;
      if (text.includes(block.close, from)) return line + 1;
    }
    return lines.length + 1;
  }
  let line = start;
  while (line <= lines.length && LINE_COMMENT.test(lines[line - 1] ?? '')) line++;
  return line;
}

function isBlank(text: string | undefined): boolean {
  return text !== undefined && text.trim() === '';
}

/** The first line (1-based) after the file's leading license comments and blank lines. */
export function lineAfterLicenseHeader(lines: readonly string[]): number {
  // A shebang or PHP's opening tag comes before the header.
  let line = lines[0]?.startsWith('#!') || /^<\?php\s*$/i.test(lines[0] ?? '') ? 2 : 1;
  let passed = false;
  for (;;) {
    while (isBlank(lines[line - 1])) line++;
    const end = commentBlockEnd(lines, line);
    if (end === line) break;
    if (!lines.slice(line - 1, end - 1).some((text) => LICENSE_WORDS.test(text))) break;
    line = end;
    passed = true;
  }
  // A file with no license header, or that is all header, shows its beginning.
  return passed && line <= lines.length ? line : 1;
}
