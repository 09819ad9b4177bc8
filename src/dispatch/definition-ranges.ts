import type { LineRange } from '../contracts/candidate.js';
import type { DefinedSymbol } from '../contracts/symbol.js';

/**
 * Where a definition ends when no parser said so (the regular-expression outline): by balanced
 * braces in brace languages, by indentation in Python- and Ruby-like code. One linear pass over the
 * file tokenizes brackets (skipping strings and comments); each definition then walks at most
 * `MAX_DEFINITION_LINES` lines, so a file with unbalanced brackets stays cheap.
 */

export interface DefinitionRange {
  start: number;
  end: number;
  /** Last line of the signature: the line that opens the body (`{` or a trailing `:`). */
  signatureEnd: number;
}

const MAX_DEFINITION_LINES = 2000;
const MAX_SIGNATURE_LINES = 12;
const INDENTED_EXTENSIONS = new Set(['py', 'pyi', 'pyw', 'rb', 'rake', 'gemspec']);
const OPENERS = '{([';
const CLOSERS = '})]';

/** Per line, the net depth change of `{}` and of `()[]`, and whether a `{` opens on it. */
export interface LineBrackets {
  braces: number;
  parentheses: number;
  opensBrace: boolean;
  /** The lowest brace depth reached within the line, relative to its start. */
  lowestBrace: number;
}

/**
 * Tokenizes brackets outside strings and comments, line by line. A quote that does not close on
 * its line is taken as a plain character (a Rust lifetime, an apostrophe in prose), except
 * backticks, which may span lines.
 */
export function scanBrackets(lines: readonly string[]): LineBrackets[] {
  const result: LineBrackets[] = [];
  let inBlockComment = false;
  let inTemplate = false;
  for (const line of lines) {
    const entry: LineBrackets = { braces: 0, parentheses: 0, opensBrace: false, lowestBrace: 0 };
    let index = 0;
    while (index < line.length) {
      const character = line[index] ?? '';
      if (inBlockComment) {
        const close = line.indexOf('*/', index);
        if (close < 0) break;
        inBlockComment = false;
        index = close + 2;
        continue;
      }
      if (inTemplate) {
        const close = closingQuote(line, index, '`');
        if (close < 0) break;
        inTemplate = false;
        index = close + 1;
        continue;
      }
      if (character === '/' && line[index + 1] === '/') break;
      if (character === '/' && line[index + 1] === '*') {
        inBlockComment = true;
        index += 2;
        continue;
      }
      if (character === '`') {
        inTemplate = true;
        index++;
        continue;
      }
      if (character === '"' || character === "'") {
        const close = closingQuote(line, index + 1, character);
        // An unclosed quote is a plain character: brackets after it still count.
        index = close < 0 ? index + 1 : close + 1;
        continue;
      }
      if (character === '{') {
        entry.braces++;
        entry.opensBrace = true;
      } else if (character === '}') {
        entry.braces--;
        entry.lowestBrace = Math.min(entry.lowestBrace, entry.braces);
      } else if (OPENERS.includes(character)) entry.parentheses++;
      else if (CLOSERS.includes(character)) entry.parentheses--;
      index++;
    }
    result.push(entry);
  }
  return result;
}

/** Index of the quote closing a string that starts at `from`, or -1; backslash escapes. */
function closingQuote(line: string, from: number, quote: string): number {
  for (let index = from; index < line.length; index++) {
    if (line[index] === '\\') index++;
    else if (line[index] === quote) return index;
  }
  return -1;
}

function indentation(line: string): number {
  return line.length - line.trimStart().length;
}

function endsWithColon(line: string): boolean {
  const hash = line.indexOf('#');
  return (hash < 0 ? line : line.slice(0, hash)).trimEnd().endsWith(':');
}

function usesIndentation(path: string): boolean {
  return INDENTED_EXTENSIONS.has(path.slice(path.lastIndexOf('.') + 1).toLowerCase());
}

/**
 * End by braces: the line where the depth falls back after the body's `{`. Undefined when no body
 * opens within the signature's reach or the braces do not close within the bound.
 */
function braceRange(
  lines: readonly string[],
  brackets: readonly LineBrackets[],
  start: number,
): DefinitionRange | undefined {
  const base = indentation(lines[start - 1] ?? '');
  let depth = 0;
  let opened = 0;
  const last = Math.min(brackets.length, start + MAX_DEFINITION_LINES);
  for (let line = start; line <= last; line++) {
    const entry = brackets[line - 1];
    const text = lines[line - 1] ?? '';
    if (!entry) break;
    if (opened === 0 && !entry.opensBrace) {
      if (line - start >= MAX_SIGNATURE_LINES) return undefined;
      // A declaration without a body (`type Id int`, `const x = 1;`) ends before the next one.
      if (
        line > start &&
        text.trim() !== '' &&
        indentation(text) <= base &&
        !/^\s*[)\]]/.test(text)
      )
        return { start, end: line - 1, signatureEnd: line - 1 };
      if (text.trimEnd().endsWith(';') && entry.parentheses <= 0)
        return { start, end: line, signatureEnd: line };
    }
    if (entry.opensBrace && opened === 0) opened = line;
    depth += entry.braces;
    if (opened > 0 && depth <= 0) return { start, end: line, signatureEnd: opened };
  }
  return undefined;
}

/** End by indentation: the last line before one indented no deeper than the definition. */
function indentedRange(lines: readonly string[], start: number): DefinitionRange {
  const base = indentation(lines[start - 1] ?? '');
  let signatureEnd = start;
  // A signature over several lines ends with a trailing `:` (Python); Ruby's is one line.
  for (let line = start; line < start + MAX_SIGNATURE_LINES && line <= lines.length; line++) {
    if (endsWithColon(lines[line - 1] ?? '')) {
      signatureEnd = line;
      break;
    }
  }
  let end = signatureEnd;
  const last = Math.min(lines.length, start + MAX_DEFINITION_LINES);
  for (let line = signatureEnd + 1; line <= last; line++) {
    const text = lines[line - 1] ?? '';
    if (text.trim() === '') continue;
    if (indentation(text) <= base) {
      // Ruby's `end` (or a closing bracket) at the definition's own depth belongs to it.
      if (indentation(text) === base && /^\s*(end\b|[}\])])/.test(text)) end = line;
      break;
    }
    end = line;
  }
  return { start, end, signatureEnd };
}

/**
 * The line ranges of a file's definitions: `endLine` when the parser gave it, else inferred.
 * Parallel to `symbols`. `brackets` is `scanBrackets(lines)`, computed once per file.
 */
export function definitionRanges(
  path: string,
  lines: readonly string[],
  symbols: readonly DefinedSymbol[],
  brackets: readonly LineBrackets[] = scanBrackets(lines),
): DefinitionRange[] {
  const indented = usesIndentation(path);
  return symbols.map((symbol) => {
    const start = symbol.line;
    const inferred = indented
      ? indentedRange(lines, start)
      : (braceRange(lines, brackets, start) ?? indentedRange(lines, start));
    if (symbol.endLine === undefined) return inferred;
    const end = Math.max(start, symbol.endLine);
    return { start, end, signatureEnd: Math.min(end, inferred.signatureEnd) };
  });
}

/** The innermost range that holds `line`. */
export function innermostRange(
  ranges: readonly DefinitionRange[],
  line: number,
): DefinitionRange | undefined {
  let innermost: DefinitionRange | undefined;
  for (const range of ranges) {
    if (line < range.start || line > range.end) continue;
    if (!innermost || range.end - range.start < innermost.end - innermost.start) innermost = range;
  }
  return innermost;
}

/**
 * Widens `window` (inside `within`) so it neither starts nor ends inside an open `()[]{}`: up to
 * `reach` lines each way, so a call or literal is shown from its first line to its last.
 */
export function alignWindow(
  brackets: readonly LineBrackets[],
  window: LineRange,
  within: LineRange,
  reach = 4,
): LineRange {
  let [start, end] = window;
  const net = (from: number, to: number) => {
    let total = 0;
    for (let line = from; line <= to; line++) {
      const entry = brackets[line - 1];
      if (entry) total += entry.braces + entry.parentheses;
    }
    return total;
  };
  for (let step = 0; step < reach && start > within[0] && net(start, end) < 0; step++) start--;
  for (let step = 0; step < reach && end < within[1] && net(start, end) > 0; step++) end++;
  return [start, end];
}
