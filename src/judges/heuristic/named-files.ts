import type { RepoOverview } from '../judge.js';
import type { TermModel } from './term-model.js';

const cache = new WeakMap<RepoOverview, WeakMap<TermModel, ReadonlySet<string>>>();

/**
 * The repository's files a task names: by path (`lib/adapters/http.js`), by a file name only one
 * file here has (`session-manager.ts`; a name several files share names none of them), or by a
 * file of an installed copy of a package this repository publishes (a stack frame in
 * `node_modules/axios/lib/utils.js` names `lib/utils.js` of axios).
 */
export function namedFiles(model: TermModel, overview: RepoOverview): ReadonlySet<string> {
  let byModel = cache.get(overview);
  if (!byModel) cache.set(overview, (byModel = new WeakMap()));
  let named = byModel.get(model);
  if (!named) byModel.set(model, (named = findNamedFiles(model, overview)));
  return named;
}

function findNamedFiles(model: TermModel, overview: RepoOverview): Set<string> {
  const named = new Set<string>();
  for (const mentioned of model.terms.mentionedPaths) {
    const clean = mentioned.replace(/^\.?\//, '');
    const found = overview.paths.filter((path) => path === clean || path.endsWith(`/${clean}`));
    if (found.length === 1 || clean.includes('/')) for (const path of found) named.add(path);
  }
  const present = new Set(overview.paths);
  for (const installed of model.terms.installedPaths) {
    for (const { name, directory } of overview.packages) {
      if (!installed.startsWith(`${name}/`)) continue;
      const inside = installed.slice(name.length + 1);
      const path = directory ? `${directory}/${inside}` : inside;
      if (present.has(path)) named.add(path);
    }
  }
  return named;
}
