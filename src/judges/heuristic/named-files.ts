import type { TermModel } from './term-model.js';
import { insideNodeModules, isLibraryPath } from './written-paths.js';
import type { RepoOverview } from '../../contracts/overview.js';

/** The repository's files a task names, and which of them only as callers in a stack trace. */
export interface NamedFiles {
  named: ReadonlySet<string>;
  /** Named only by frames below the one that failed: context, not the failure. */
  callers: ReadonlySet<string>;
}

const cache = new WeakMap<RepoOverview, WeakMap<TermModel, NamedFiles>>();
const ABSOLUTE = /^(?:\/|[A-Za-z]:[\\/]|file:\/\/|webpack:\/\/)/;

/**
 * The repository's files a task names: by path (`lib/adapters/http.js`), by a file name only one
 * file here has (`session-manager.ts`; a name several files share names none of them), or by a
 * file of an installed copy of a package this repository publishes (a stack frame in
 * `node_modules/axios/lib/utils.js` names `lib/utils.js` of axios). In a stack trace, the
 * innermost frame that names a file here is where it failed; the frames below it are callers.
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
  const named = new Set([...mentioned, ...failed, ...called]);
  // A file the task also names outside the traces, or where a trace failed, is no mere caller.
  const callers = new Set([...called].filter((path) => !failed.has(path) && !mentioned.has(path)));
  return { named, callers };
}

const fileName = (path: string) => path.slice(path.lastIndexOf('/') + 1);

/** `axios/lib/utils.js` of an installed package is `lib/utils.js` here when this repository publishes `axios`. */
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
