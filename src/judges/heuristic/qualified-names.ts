/**
 * Names a task writes qualified by their packages (`tl.core.dataset.DataVariables`,
 * `Blog::DataReader`, `Acme\Sheets\Calculation\Functions`, `crate::io::util`): which
 * of their parts name a module, and which file that module is.
 */

/** How a name is compared: `advancedFormat`, `advanced_format` and `advanced-format` are one. */
export const comparable = (name: string) => name.toLowerCase().replace(/[_$.-]/g, '');

/** A name, or one qualified by `.`, `::`, `\` or `/`. Separators never start a name: linear. */
const QUALIFIED_NAME = /[A-Za-z_$][\w$-]*(?:(?:\.|::|\\|\/)[A-Za-z_$][\w$-]*)*/g;
const SEPARATOR = /\.|::|\\|\//;

const partsOf = (text: string) =>
  [...text.matchAll(QUALIFIED_NAME)].map(([name]) => name.split(SEPARATOR));

/**
 * The names a text writes on their own, or first or last in a qualified name: in
 * `tl.core.dataset` the middle `core` is only a package on the way to the module `dataset`.
 */
export function leafNames(text: string): Set<string> {
  const leaves = new Set<string>();
  for (const parts of partsOf(text)) {
    leaves.add(comparable(parts[0] ?? ''));
    leaves.add(comparable(parts.at(-1) ?? ''));
  }
  return leaves;
}

/**
 * A name qualified by `.`, `::` or `\`, tried only where a word starts (from inside a long word
 * it would fail once per character) and maximal, since separators never start a name: linear.
 */
const MODULE_NAME = /(?<![\w$])[A-Za-z_$][\w$]*(?:(?:\.|::|\\)[A-Za-z_$][\w$]*)+/g;
/** Around a name, what makes it part of a path or a link rather than code. */
const PATH_EDGE = /[\w$/\\:.@-]/;

/**
 * The qualified names of a text, as parts. A path is not one: a file path is named as a path,
 * with the rules for paths (`qs/lib/utils.js` is another package's, `C:\app\lib\utils.js` the
 * reporter's), and a link's path is a site's.
 */
function moduleNamesOf(text: string): string[][] {
  const names: string[][] = [];
  for (const match of text.matchAll(MODULE_NAME)) {
    const [name] = match;
    const before = text[match.index - 1] ?? ' ';
    const after = text[match.index + name.length] ?? ' ';
    if (PATH_EDGE.test(before) || after === '/' || after === '\\') continue;
    if (name.includes('\\') && name.includes('.')) continue;
    names.push(name.split(SEPARATOR));
  }
  return names;
}

/** `tablib/core/dataset.py` as compared: its directory's name and its own, `core/dataset`. */
function moduleKey(path: string): string | undefined {
  const parts = path.split('/');
  const file = parts.pop() ?? '';
  const directory = parts.pop();
  const dot = file.indexOf('.');
  if (directory === undefined || dot <= 0) return undefined;
  return `${comparable(directory)}/${comparable(file.slice(0, dot))}`;
}

/**
 * The files a task names by a qualified name whose two adjacent parts are a directory and a file
 * in it: `tl.core.dataset.DataVariables` names `tablib/core/dataset.py`, `Blog::DataReader`
 * names `lib/blog/data_reader.rb`. Where several files fit, the parts before decide; a name
 * that still fits several files names none of them. Two parts at least, so a lone word is never
 * a module here (`dataset` alone is a word).
 */
export function qualifiedModules(text: string, paths: readonly string[]): string[] {
  const pairs = moduleNamesOf(text);
  if (pairs.length === 0) return [];
  const byKey = new Map<string, string[]>();
  for (const path of paths) {
    const key = moduleKey(path);
    if (key !== undefined) byKey.set(key, [...(byKey.get(key) ?? []), path]);
  }
  const found = new Set<string>();
  for (const parts of pairs) {
    const names = parts.map(comparable);
    for (let index = 1; index < names.length; index++) {
      const fitting = byKey.get(`${names[index - 1]}/${names[index]}`);
      if (!fitting) continue;
      const chosen = fitting.length === 1 ? fitting : narrowed(fitting, names.slice(0, index - 1));
      if (chosen.length === 1) found.add(chosen[0] ?? '');
    }
  }
  return [...found];
}

/** The files whose directories go on to match the parts before, `tablib` of `tablib.core`. */
function narrowed(paths: readonly string[], before: readonly string[]): string[] {
  let fitting = [...paths];
  for (let depth = 1; depth <= before.length && fitting.length > 1; depth++) {
    const wanted = before[before.length - depth];
    const deeper = fitting.filter(
      (path) => comparable(path.split('/').at(-2 - depth) ?? '') === wanted,
    );
    if (deeper.length === 0) break;
    fitting = deeper;
  }
  return fitting;
}
