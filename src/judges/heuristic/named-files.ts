import type { TermModel } from './term-model.js';
import { insideNodeModules, isLibraryPath } from './written-paths.js';
import type { RepoOverview } from '../../contracts/overview.js';
import { IMPORTANCE } from './weights.js';
import { comparable, leafNames, qualifiedModules } from './qualified-names.js';

/** The repository's files a task names, and which of them only as callers in a stack trace. */
export interface NamedFiles {
  named: ReadonlySet<string>;
  /** Named only by frames below the one that failed: context, not the failure. */
  callers: ReadonlySet<string>;
  /** Named only by a qualified name (`xr.core.dataset`), often that of an import the task uses. */
  modules: ReadonlySet<string>;
}

const cache = new WeakMap<RepoOverview, WeakMap<TermModel, NamedFiles>>();
const ABSOLUTE = /^(?:\/|[A-Za-z]:[\\/]|file:\/\/|webpack:\/\/)/;

/**
 * The repository's files a task names: by path (`lib/adapters/http.js`), by a file name only one
 * file here has (`session-manager.ts`; a name several files share names none of them), or by a
 * file of an installed copy of a package this repository publishes (a stack frame in
 * `node_modules/fetchy/lib/utils.js` names `lib/utils.js` of fetchy), or by the name of a module
 * that is a directory (`advancedFormat` names `plugin/advancedFormat/index.js`). In a stack
 * trace, the innermost frame that names a file here is where it failed; the frames below it are
 * callers.
 */
export function namedFiles(model: TermModel, overview: RepoOverview): NamedFiles {
  let byModel = cache.get(overview);
  if (!byModel) cache.set(overview, (byModel = new WeakMap()));
  let named = byModel.get(model);
  if (!named) byModel.set(model, (named = findNamedFiles(model, overview)));
  return named;
}

function findNamedFiles(model: TermModel, overview: RepoOverview): NamedFiles {
  const present = new Set(overview.paths);
  // A path that ends with what the task wrote has its file name: only those are compared, so a
  // task that writes many paths is not matched against every file of the repository for each.
  const byName = new Map<string, string[]>();
  for (const path of overview.paths) {
    const name = fileName(path);
    const same = byName.get(name);
    if (same) same.push(path);
    else byName.set(name, [path]);
  }
  const filesOf = (written: string): string[] => {
    const installed = insideNodeModules(written);
    if (installed !== undefined) return installedFiles(installed, overview, present);
    const slashed = written.replaceAll('\\', '/');
    const clean = slashed.replace(/^(?:file:\/\/)?\.?\//, '');
    const sameName = byName.get(fileName(clean)) ?? [];
    const found = sameName.filter((path) => path === clean || path.endsWith(`/${clean}`));
    if (found.length === 1 || (found.length > 1 && clean.includes('/'))) return found;
    // An absolute path on the reporter's machine (not into an installed library) ends with the
    // path here; two directories deep at least, so that `/home/me/app/index.js` names nothing.
    if (!ABSOLUTE.test(written) || isLibraryPath(slashed)) return [];
    const [longest] = sameName
      .filter((path) => path.split('/').length >= 3 && clean.endsWith(`/${path}`))
      .sort((left, right) => right.length - left.length);
    return longest ? [longest] : [];
  };
  const mentioned = new Set([
    ...directoryModules(model, overview.paths),
    ...model.terms.mentionedPaths.flatMap(filesOf),
    ...model.terms.installedPaths.flatMap((path) => installedFiles(path, overview, present)),
  ]);
  const failed = new Set<string>();
  const called = new Set<string>();
  for (const trace of model.terms.traces) {
    const [first = [], ...rest] = trace.map(filesOf).filter((files) => files.length > 0);
    for (const path of first) failed.add(path);
    for (const path of rest.flat()) called.add(path);
  }
  const modules = qualifiedModules(model.terms.text, overview.paths).filter(
    (path) => !mentioned.has(path) && !failed.has(path) && !called.has(path),
  );
  const named = new Set([...mentioned, ...failed, ...called, ...modules]);
  // A file the task also names outside the traces, or where a trace failed, is no mere caller.
  const callers = new Set([...called].filter((path) => !failed.has(path) && !mentioned.has(path)));
  return { named, callers, modules: new Set(modules) };
}

const fileName = (path: string) => path.slice(path.lastIndexOf('/') + 1);

/** The file that is a directory's module in JavaScript and TypeScript, Python and Rust. */
const DIRECTORY_MODULE = /^(?:index\.(?:[cm]?[jt]sx?)|__init__\.py|mod\.rs)$/;

/**
 * The modules a task names by the name of their directory: an identifier it writes as code
 * (`advancedFormat`, not a plain word such as `core`) that is the name of exactly one directory
 * here with a module file in it. A name several directories share names none of them.
 */
function directoryModules(model: TermModel, paths: readonly string[]): string[] {
  const leaves = leafNames(model.terms.text);
  const named = new Set(
    [...model.terms.importance]
      .filter(([keyword, weight]) => weight >= IMPORTANCE.proseIdentifier && keyword.length >= 4)
      .map(([keyword]) => comparable(keyword))
      .filter((name) => leaves.has(name)),
  );
  if (named.size === 0) return [];
  // For each name, the directories of that name with a module file, and those files.
  const byName = new Map<string, Map<string, string[]>>();
  for (const path of paths) {
    const slash = path.lastIndexOf('/');
    const directory = path.slice(0, slash);
    if (slash < 0 || !DIRECTORY_MODULE.test(path.slice(slash + 1))) continue;
    const key = comparable(directory.slice(directory.lastIndexOf('/') + 1));
    if (!named.has(key)) continue;
    const directories = byName.get(key) ?? new Map<string, string[]>();
    directories.set(directory, [...(directories.get(directory) ?? []), path]);
    byName.set(key, directories);
  }
  return [...byName.values()].flatMap((directories) =>
    directories.size === 1 ? [...directories.values()].flat() : [],
  );
}

/** `fetchy/lib/utils.js` of an installed package is `lib/utils.js` here when this repository publishes `fetchy`. */
function installedFiles(
  installed: string,
  overview: RepoOverview,
  present: ReadonlySet<string>,
): string[] {
  return overview.packages.flatMap(({ name, directory }) => {
    if (!installed.startsWith(`${name}/`)) return [];
    const inside = installed.slice(name.length + 1);
    const path = directory ? `${directory}/${inside}` : inside;
    return present.has(path) ? [path] : [];
  });
}
