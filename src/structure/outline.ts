import { type DefinedSymbol } from '../contracts/symbol.js';
import { ownString } from '../text/own-string.js';
/**
 * A file's outline: what it imports and which symbols it defines, with line numbers. Regular
 * expressions per language family are enough here: the outline feeds ranking and excerpts, and a
 * missed symbol costs a little ranking, never correctness.
 */

export interface ImportReference {
  /** The module specifier as written (`./jwt-utils.js`, `os.path`, `github.com/x/y`). */
  specifier: string;
  /** Names it binds, where the syntax lists them. */
  names: string[];
  line: number;
}

export interface Outline {
  imports: ImportReference[];
  symbols: DefinedSymbol[];
}

type Family = 'script' | 'python' | 'go' | 'rust' | 'jvm' | 'c' | 'ruby' | 'php' | 'other';

const FAMILY_BY_EXTENSION: Record<string, Family> = {
  js: 'script',
  jsx: 'script',
  mjs: 'script',
  cjs: 'script',
  ts: 'script',
  tsx: 'script',
  mts: 'script',
  cts: 'script',
  vue: 'script',
  svelte: 'script',
  py: 'python',
  pyi: 'python',
  go: 'go',
  rs: 'rust',
  java: 'jvm',
  kt: 'jvm',
  kts: 'jvm',
  scala: 'jvm',
  cs: 'jvm',
  swift: 'jvm',
  c: 'c',
  h: 'c',
  cc: 'c',
  cpp: 'c',
  cxx: 'c',
  hpp: 'c',
  hh: 'c',
  m: 'c',
  mm: 'c',
  rb: 'ruby',
  php: 'php',
};

const DEFINITIONS: Record<Family, RegExp[]> = {
  script: [
    /^\s*(export\s+)?(?:default\s+)?(?:declare\s+)?(?:async\s+)?function(?:\s*\*)?\s*([A-Za-z_$][\w$]*)/,
    /^\s*(export\s+)?(?:default\s+)?(?:declare\s+)?(?:abstract\s+)?class\s+([A-Za-z_$][\w$]*)/,
    /^\s*(export\s+)?(?:declare\s+)?(?:interface|type|enum|namespace)\s+([A-Za-z_$][\w$]*)/,
    // Only top-level bindings: an indented `const` is a local variable, not part of the outline.
    /^(export\s+)?(?:declare\s+)?(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*(?::[^=]*)?=/,
    // Methods and object-literal functions: `name(args) {`, `async name(`, `name: function`.
    // After the `(`: a list without `)`; or up to the first `)`, then a return type; or a return
    // type that starts at the list's last `:`. Three alternatives that each scan once, not one
    // pattern of nested optional parts, which backtracks over every split of a long line.
    /^\s*()(?:(?:public|private|protected|static|async|get|set|override|readonly)\s+)*([A-Za-z_$][\w$]*)\s*(?:<[^>]*>)?\((?:[^)]*|[^)]*\)\s*(?::[^{=]+)?|[^)]*:[^):{=]*\)[^{=]*)\{\s*$/,
    // An arrow or function value with a body; `name: (x) => boolean,` is a parameter's type.
    /^\s*()([A-Za-z_$][\w$]*)\s*[:=]\s*(?:async\s+)?(?:function\b|(?:\([^)]*\)|[A-Za-z_$][\w$]*)\s*(?::[^=]+)?=>\s*(?:\{|\(|$))/,
    // CommonJS: `exports.name =`, `module.exports.name =`, `X.prototype.name =`.
    /^\s*((?:module\.)?exports\.)([A-Za-z_$][\w$]*)\s*=/,
    /^\s*()[A-Za-z_$][\w$]*\.prototype\.([A-Za-z_$][\w$]*)\s*=/,
  ],
  python: [
    /^\s*()(?:async\s+)?def\s+([A-Za-z_]\w*)/,
    /^\s*()class\s+([A-Za-z_]\w*)/,
    /^()([A-Z_][A-Z0-9_]*)\s*=/,
  ],
  go: [
    /^()func\s+(?:\([^)]*\)\s*)?([A-Za-z_]\w*)/,
    /^\s*()type\s+([A-Za-z_]\w*)/,
    /^\s*()(?:const|var)\s+([A-Za-z_]\w*)/,
  ],
  rust: [
    /^\s*(pub(?:\([^)]*\))?\s+)?(?:async\s+)?(?:unsafe\s+)?(?:fn|struct|enum|trait|type|mod|const|static|union|macro_rules!)\s+([A-Za-z_]\w*)/,
  ],
  jvm: [
    /^\s*(public\s+)?(?:(?:private|protected|internal|static|final|abstract|sealed|open|data|inline|override|suspend|partial|async|virtual)\s+)*(?:class|interface|enum|record|object|struct|trait|fun|func|protocol|extension)\s+([A-Za-z_]\w*)/,
    /^\s*(public\s+)?(?:(?:private|protected|static|final|abstract|synchronized|override|async|virtual)\s+)*[\w<>[\],.?]+\s+([A-Za-z_]\w*)\s*\([^;]*$/,
  ],
  c: [
    /^()(?:[\w*&:<>]+\s+)+\**([A-Za-z_]\w*)\s*\([^;]*$/,
    /^\s*()(?:typedef\s+)?(?:struct|class|enum|union)\s+([A-Za-z_]\w*)/,
    /^\s*()#define\s+([A-Za-z_]\w*)/,
  ],
  ruby: [/^\s*()def\s+(?:self\.)?([A-Za-z_]\w*[?!]?)/, /^\s*()(?:class|module)\s+([A-Z]\w*)/],
  php: [
    /^\s*()(?:(?:public|private|protected|static|abstract|final)\s+)*function\s+([A-Za-z_]\w*)/,
    /^\s*()(?:abstract\s+|final\s+)?(?:class|interface|trait|enum)\s+([A-Za-z_]\w*)/,
  ],
  other: [],
};

const KEYWORDS_THAT_LOOK_LIKE_CALLS = new Set([
  'if',
  'for',
  'while',
  'switch',
  'catch',
  'return',
  'function',
  'constructor',
  'super',
  'typeof',
  'new',
  'else',
  'do',
  'try',
  'with',
  'await',
  'yield',
  'sizeof',
  'elif',
  'when',
  'match',
]);

const IMPORTS: Record<Family, RegExp[]> = {
  script: [
    // The bound clause starts and ends with a name or brace, so that a long run of spaces is
    // not split every possible way between it and the spaces around `from`.
    /^\s*import\s+(?:type\s+)?(?:([\w$*{},](?:[\w$*{}\s,]*?[\w$*{},])?)\s+from\s+)?['"]([^'"]+)['"]/,
    /^\s*export\s+(?:type\s+)?([\w$*{},](?:[\w$*{}\s,]*?[\w$*{},])?)\s+from\s+['"]([^'"]+)['"]/,
    /(?:^|[=\s(])()require\(\s*['"]([^'"]+)['"]\s*\)/,
    /\bimport\(\s*()['"]([^'"]+)['"]\s*\)/,
    // The closing line of an import that spans several lines.
    /^\s*\}()\s*from\s+['"]([^'"]+)['"]/,
  ],
  python: [
    // Spaces after `import` are all taken before the names; a line that ends in spaces imports
    // the module with no names.
    /^\s*from\s+([.\w]+)\s+import(?:\s+(?!\s)(.+)|\s+[^\S\n\r\u2028\u2029])$/,
    /^\s*import\s+([.\w]+)()/,
  ],
  go: [/^\s*(?:import\s+)?(?:\w+\s+)?"([^"]+)"()\s*$/],
  // `pub(crate)` too; the path's segments are taken whole, so `a::b::{C, D}` leaves `{C, D}` as
  // the names.
  rust: [
    /^\s*(?:pub(?:\([\w:\s]*\))?\s+)?use\s+((?:\w+::)*\w+)(?:::\{([^}]*)\})?/,
    /^\s*(?:pub(?:\([\w:\s]*\))?\s+)?mod\s+(\w+)\s*;()/,
  ],
  jvm: [/^\s*(?:import|using)\s+(?:static\s+)?([\w.]+?)(?:\.\*)?\s*(?:;\s*)?()$/],
  c: [/^\s*#\s*(?:include|import)\s+["<]([^">]+)[">]()/],
  ruby: [/^\s*require(?:_relative)?\s+['"]([^'"]+)['"]()/],
  php: [
    // `use A\B\C;`, `use function A\f;`, `use A\B\{C, D};` (the names after the namespace).
    /^\s*use\s+(?:function\s+|const\s+)?([\w\\]+)(?:\{([^}]*)\})?/,
    /^\s*(?:require|require_once|include|include_once)\s*(?:\(\s*)?['"]?([\w\\/.]+)['"]?()/,
  ],
  other: [],
};

const COMMENT = /^\s*(?:\/\/|\/\*|\*|#(?!\s*(?:include|import|define)))/;

/**
 * A cheap test that a line could hold a definition, so that the many lines that cannot (calls,
 * returns, conditions) skip the per-pattern expressions: most of a file's lines are those.
 */
const MAY_DEFINE: Record<Family, RegExp> = {
  script:
    /\b(?:function|class|interface|type|enum|namespace|const|let|var|exports|prototype)\b|=>|[{]\s*$/,
  python: /^\s*(?:async\s+)?(?:def|class)\b|^[A-Z_]/,
  go: /^(?:func|type|const|var)\b|^\s+(?:type|const|var)\b/,
  rust: /\b(?:fn|struct|enum|trait|type|mod|const|static|union|macro_rules!)\s/,
  // `\([^;(]*$`: the last `(` has no `;` after it, found from each `(` up to the next one only.
  jvm: /[({]\s*$|\b(?:class|interface|enum|record|object|struct|trait|fun|func|protocol|extension)\b|\([^;(]*$/,
  c: /\(|\b(?:struct|class|enum|union|define)\b/,
  ruby: /\b(?:def|class|module)\b/,
  php: /\b(?:function|class|interface|trait|enum)\b/,
  other: /$^/,
};

/** Likewise for imports: a line without these words imports nothing. */
const MAY_IMPORT: Record<Family, RegExp> = {
  script: /\b(?:import|require|from)\b/,
  python: /\bimport\b/,
  go: /"/,
  rust: /\b(?:use|mod)\b/,
  jvm: /\b(?:import|using)\b/,
  c: /#\s*(?:include|import)/,
  ruby: /\brequire/,
  php: /\b(?:use|require|include)/,
  other: /$^/,
};

export function familyOf(path: string): Family {
  const extension = path.slice(path.lastIndexOf('.') + 1).toLowerCase();
  return FAMILY_BY_EXTENSION[extension] ?? 'other';
}

/** Names an import clause takes from the module: `{ a, b as c }` → a, b; `* as d` → d; `e`. */
function boundNames(clause: string): string[] {
  return clause
    .replace(/[{}]/g, ',')
    .split(',')
    .map((part) => {
      const words = part
        .trim()
        .replace(/^type\s+/, '')
        .split(/\s+/);
      // A namespace import has no name of its own in the module; its local name stands for it.
      return words[0] === '*' ? (words[2] ?? '') : (words[0] ?? '');
    })
    .filter((name) => /^[A-Za-z_$][\w$]*$/.test(name));
}

/**
 * Imports whose names may go on over the next lines: Python's `from . import (`, a Rust or PHP
 * group `use a::{` / `use A\{`. Their lines hold names only; a group still open after this many
 * lines was never one.
 */
const GROUPS: Partial<Record<Family, [opener: string, closer: string]>> = {
  python: ['(', ')'],
  rust: ['{', '}'],
  php: ['{', '}'],
};
const MAX_GROUP_LINES = 100;
/** The longest line read for imports and definitions; a group's line is read as far. */
const MAX_READ_LINE = 400;
/** A comment at the end of a line of names (`a,  # noqa`, `B, // why`). */
const TRAILING_COMMENT = /\s(?:#|\/\/).*$/;

interface OpenGroup {
  names: string[];
  closer: string;
  lastLine: number;
}

/** The group an import line leaves open, with the names it already lists; none if it closes. */
function openedGroup(
  family: Family,
  text: string,
  names: string[],
  index: number,
): OpenGroup | undefined {
  const [opener, closer] = GROUPS[family] ?? [];
  if (opener === undefined || closer === undefined) return undefined;
  const open = text.lastIndexOf(opener);
  if (open < 0 || text.includes(closer, open)) return undefined;
  const after = boundNames(text.slice(open + 1).replace(TRAILING_COMMENT, ''));
  for (const name of after) if (!names.includes(name)) names.push(name);
  return { names, closer, lastLine: index + MAX_GROUP_LINES };
}

/** Whether the outline can find anything in a file of this path: not in data, docs or config. */
export function hasOutline(path: string): boolean {
  return familyOf(path) !== 'other';
}

/** The import a readable line makes, and the group of names it leaves open, if any. */
function importOn(
  family: Family,
  text: string,
  index: number,
): { reference: ImportReference; group: OpenGroup | undefined } | undefined {
  if (!MAY_IMPORT[family].test(text)) return undefined;
  const python = family === 'python';
  for (const pattern of IMPORTS[family]) {
    const match = pattern.exec(text);
    if (!match) continue;
    // Python names the module first; the other syntaxes name the bound clause first.
    const specifier = (python || family !== 'script' ? match[1] : match[2]) ?? '';
    const clause = (python || family !== 'script' ? match[2] : match[1]) ?? '';
    if (!specifier) return undefined;
    // `mod x;` declares the module `self::x`, which is how it resolves.
    const declared = family === 'rust' && /^\s*(?:pub\S*\s+)?mod\s/.test(text);
    // `from . import (a, b)`: the parentheses only group the names.
    const names = boundNames(python ? clause.replace(/[()]/g, ' ') : clause);
    return {
      reference: { specifier: declared ? `self::${specifier}` : specifier, names, line: index + 1 },
      group: openedGroup(family, text, names, index),
    };
  }
  return undefined;
}

export function extractOutline(path: string, lines: readonly string[]): Outline {
  const family = familyOf(path);
  const imports: ImportReference[] = [];
  const symbols: DefinedSymbol[] = [];
  // Each line is read once: a group's lines add to its import and are nothing else.
  let group: OpenGroup | undefined;
  lines.forEach((text, index) => {
    const line = index + 1;
    if (group && index <= group.lastLine) {
      const part = text.slice(0, MAX_READ_LINE);
      const close = part.indexOf(group.closer);
      const listed = close < 0 ? part : part.slice(0, close);
      group.names.push(...boundNames(listed.replace(TRAILING_COMMENT, '')));
      if (close >= 0) group = undefined;
      return;
    }
    group = undefined;
    if (!mayReadLine(text)) return;
    const found = importOn(family, text, index);
    if (found) {
      imports.push(found.reference);
      group = found.group;
    }
    const defined = definitionOn(family, text);
    if (defined) symbols.push({ name: ownString(defined.name), line, exported: defined.exported });
  });
  // Names cut from the lines would keep the file's text alive with its outline.
  for (const reference of imports) {
    reference.specifier = ownString(reference.specifier);
    reference.names = reference.names.map(ownString);
  }
  return { imports, symbols };
}

/** Whether a line is read for imports and definitions at all: not a comment, not too long. */
const mayReadLine = (text: string) => text.length <= MAX_READ_LINE && !COMMENT.test(text);

/** The name the line defines, by the first pattern of its family that finds one. */
function definitionOn(family: Family, text: string): Omit<DefinedSymbol, 'line'> | undefined {
  if (!MAY_DEFINE[family].test(text)) return undefined;
  for (const pattern of DEFINITIONS[family]) {
    const match = pattern.exec(text);
    const name = match?.[2];
    if (!match || !name || KEYWORDS_THAT_LOOK_LIKE_CALLS.has(name)) continue;
    return { name, exported: Boolean(match[1]) || (family === 'go' && /^[A-Z]/.test(name)) };
  }
  return undefined;
}

/**
 * For the file at `path`: the name a line of it would define in its outline, read alone. The
 * outline finds a symbol only on a line this names it on (it also skips the lines of an import
 * group), so a file none of whose lines of interest define a name need not have its outline found.
 */
export function namesDefinedIn(path: string): (text: string) => string | undefined {
  const family = familyOf(path);
  return (text) => (mayReadLine(text) ? definitionOn(family, text)?.name : undefined);
}

/**
 * Lower-case words one of which every line that may import holds (`MAY_IMPORT` read as plain
 * words), in the families whose imports may open a group of names.
 */
const GROUP_IMPORT_WORDS: Partial<Record<Family, readonly string[]>> = {
  python: ['import'],
  rust: ['use', 'mod'],
  php: ['use', 'require', 'include'],
};

/**
 * For the file at `path`: whether a line (0-based) is inside a group of imported names
 * (`from a import (` … `)`), where the outline finds no definition. Found from the lines that may
 * import alone, as the outline would find them reading every line: `lineAt` gives a line ('' past
 * the last), `linesHolding` the lines (0-based, ascending) that hold any of some lower-case words,
 * in any case. Each group is read to its close, at most `MAX_GROUP_LINES` lines.
 */
export function importGroupLines(
  path: string,
  lineAt: (line: number) => string,
  linesHolding: (words: readonly string[]) => readonly number[],
): (line: number) => boolean {
  const family = familyOf(path);
  const closer = GROUPS[family]?.[1];
  const words = GROUP_IMPORT_WORDS[family];
  if (closer === undefined || words === undefined) return () => false;
  const groups: { first: number; last: number }[] = [];
  let last = -1;
  for (const index of linesHolding(words)) {
    // A group's lines are its names: none of them opens another.
    if (index <= last) continue;
    const text = lineAt(index);
    if (!mayReadLine(text) || !importOn(family, text, index)?.group) continue;
    last = index + MAX_GROUP_LINES;
    for (let line = index + 1; line < last; line++)
      if (lineAt(line).slice(0, MAX_READ_LINE).includes(closer)) last = line;
    groups.push({ first: index + 1, last });
  }
  // Groups do not overlap and come in order: the one that may hold a line is found by halving.
  return (line) => {
    let low = 0;
    let high = groups.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if ((groups[middle]?.first ?? 0) <= line) low = middle;
      else high = middle - 1;
    }
    const group = groups[low];
    return group !== undefined && group.first <= line && line <= group.last;
  };
}
