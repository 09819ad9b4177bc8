import { posix } from 'node:path';
import { createLanguageImports } from './language-imports.js';
import { createPathMappings } from './tsconfig-paths.js';

/**
 * Resolves import specifiers to files of the workspace, without a build system: relative paths
 * against the importing file (with the usual extensions and index files), and bare or dotted module
 * names by suffix (`os.path` → `os/path.py`, `pkg/util` → `src/pkg/util.go`).
 */

const SCRIPT_EXTENSIONS = [
  '.ts',
  '.tsx',
  '.js',
  '.jsx',
  '.mjs',
  '.cjs',
  '.mts',
  '.cts',
  '.vue',
  '.d.ts',
];

/** Files whose bare imports may go through a tsconfig's `paths` or `baseUrl`. */
const SCRIPT_FILE = /\.(?:[cm]?[jt]sx?|vue|svelte)$/;

/** Files an import means only when it names their extension itself. */
const NOT_CODE = /\.(?:md|mdx|rst|txt|adoc|ya?ml|toml|ini|cfg|lock|html?|csv)$/i;

export interface ImportResolver {
  /** The one file a specifier most likely names. */
  resolve(fromPath: string, specifier: string): string | undefined;
  /**
   * Every file an import names, by its language's rules where they apply (a Go package's files,
   * Rust's module tree, composer's PSR-4 prefixes, Python's `from . import a, b`), else `resolve`.
   */
  resolveAll(fromPath: string, specifier: string, names: readonly string[]): string[];
}

function withoutExtension(path: string): string {
  const base = posix.basename(path);
  const dot = base.indexOf('.');
  return dot > 0 ? path.slice(0, path.length - base.length + dot) : path;
}

/**
 * `linesOf` gives the text of manifests (`go.mod`, `composer.json`) the workspace read; without
 * it, imports resolve by path alone.
 */
export function createImportResolver(
  paths: readonly string[],
  linesOf: (path: string) => readonly string[] | undefined = () => undefined,
): ImportResolver {
  const known = new Set(paths);
  const byDirectory = new Map<string, string[]>();
  const byBaseName = new Map<string, string[]>();
  // Every path indexed by its extension-less form and by its extension-less directory index.
  const byStem = new Map<string, string[]>();
  const addTo = (map: Map<string, string[]>, key: string, path: string) => {
    const list = map.get(key);
    if (list) list.push(path);
    else map.set(key, [path]);
  };
  for (const path of paths) {
    const slash = path.lastIndexOf('/');
    addTo(byDirectory, slash < 0 ? '' : path.slice(0, slash), path);
    addTo(byBaseName, path.slice(slash + 1), path);
    const stemmed = withoutExtension(path);
    addTo(byStem, stemmed, path);
    if (['index', '__init__', 'mod'].includes(posix.basename(stemmed))) {
      addTo(byStem, posix.dirname(stemmed), path);
    }
  }
  const languages = createLanguageImports({
    has: (path) => known.has(path),
    filesIn: (directory) => byDirectory.get(directory) ?? [],
    named: (base) => byBaseName.get(base) ?? [],
    linesOf,
  });

  const pathMappings = createPathMappings({ has: (path) => known.has(path), linesOf });

  /** A bare specifier of a script through the nearest tsconfig's `paths` or `baseUrl`. */
  function resolveMapped(fromPath: string, specifier: string): string | undefined {
    if (!SCRIPT_FILE.test(fromPath)) return undefined;
    for (const mapped of pathMappings.map(fromPath, specifier)) {
      const found = resolveRelative('', `./${mapped}`);
      if (found) return found;
    }
    return undefined;
  }

  function resolveRelative(fromPath: string, specifier: string): string | undefined {
    const joined = posix.normalize(posix.join(posix.dirname(fromPath), specifier));
    if (joined.startsWith('..')) return undefined;
    if (known.has(joined)) return joined;
    // TypeScript's ESM convention imports `./x.js` for `./x.ts`.
    const candidates = [joined, withoutExtension(joined)];
    for (const candidate of candidates) {
      for (const extension of SCRIPT_EXTENSIONS) {
        if (known.has(candidate + extension)) return candidate + extension;
      }
    }
    return byStem.get(joined)?.[0] ?? byStem.get(withoutExtension(joined))?.[0];
  }

  // A bare specifier resolves the same from every file: each is looked up once.
  const bySpecifier = new Map<string, string | undefined>();
  // A stem that ends with `/x/y` ends with `y`: only the stems of that last name are compared, so
  // a repository whose files import many names is not scanned whole for each. In `byStem` order.
  let byLastName: Map<string, [stemmed: string, list: string[]][]> | undefined;
  function stemsNamed(name: string): [string, string[]][] {
    if (!byLastName) {
      byLastName = new Map();
      for (const entry of byStem) {
        const last = posix.basename(entry[0]);
        const same = byLastName.get(last);
        if (same) same.push(entry);
        else byLastName.set(last, [entry]);
      }
    }
    return byLastName.get(name) ?? [];
  }
  function resolveBySuffix(specifier: string): string | undefined {
    if (bySpecifier.has(specifier)) return bySpecifier.get(specifier);
    const resolved = findBySuffix(specifier);
    bySpecifier.set(specifier, resolved);
    return resolved;
  }

  function findBySuffix(specifier: string): string | undefined {
    const cleaned = specifier.replace(/\\/g, '/').replace(/::/g, '/').replace(/^@/, '');
    const slashed = /[/]/.test(cleaned) ? withoutExtension(cleaned) : cleaned.replace(/\./g, '/');
    if (!slashed || slashed.split('/').some((part) => part === '')) return undefined;
    const exact = byStem.get(slashed);
    if (exact) return exact[0];
    // Only a unique suffix match resolves: `utils` alone matches too many files to mean one.
    let found: string | undefined;
    const suffix = `/${slashed}`;
    for (const [stemmed, list] of stemsNamed(posix.basename(slashed))) {
      if (stemmed.endsWith(suffix)) {
        if (found !== undefined && found !== list[0]) return undefined;
        found = list[0];
      }
    }
    return found;
  }

  function resolve(fromPath: string, specifier: string): string | undefined {
    if (
      specifier.startsWith('./') ||
      specifier.startsWith('../') ||
      specifier === '.' ||
      specifier === '..'
    ) {
      return resolveRelative(fromPath, specifier);
    }
    if (/^\.+\w/.test(specifier)) {
      // Python relative import: `.models` or `..core.utils`.
      const dots = /^\.+/.exec(specifier)?.[0].length ?? 1;
      const up = '../'.repeat(dots - 1) || './';
      return resolveRelative(fromPath, up + specifier.slice(dots).replace(/\./g, '/'));
    }
    return specifier.includes(':') && !specifier.includes('::')
      ? undefined
      : (resolveMapped(fromPath, specifier) ?? resolveBySuffix(specifier));
  }

  /** A namespace's leading segments name a vendor or a root that the tree does not have. */
  function resolveByShorterSuffix(specifier: string): string | undefined {
    const segments = specifier.split('\\').filter(Boolean);
    for (let start = 1; segments.length - start >= 2; start++) {
      const found = resolveBySuffix(segments.slice(start).join('/'));
      if (found) return found;
    }
    return undefined;
  }

  return {
    resolve,
    resolveAll(fromPath, written, names) {
      // `use A\B\{C, D}` leaves the namespace's closing backslash (a loop: `\\+$` backtracks).
      let end = written.length;
      while (end > 0 && written[end - 1] === '\\') end--;
      const specifier = written.slice(0, end);
      const byLanguage = languages.resolve(fromPath, specifier, names);
      if (byLanguage.length > 0) return byLanguage;
      if (fromPath.endsWith('.py') && /^\.+\w*$/.test(specifier) && names.length > 0) {
        // `from . import models, views`: each name may be a module of the package.
        const modules = names.flatMap((name) => {
          const module = resolve(
            fromPath,
            `${specifier}${/\w$/.test(specifier) ? '.' : ''}${name}`,
          );
          return module ? [module] : [];
        });
        if (modules.length > 0) return [...new Set(modules)];
      }
      const found =
        resolve(fromPath, specifier) ??
        (fromPath.endsWith('.php') ? resolveByShorterSuffix(specifier) : undefined);
      // Code imports code: Python's `import dask` is not `docs/dask.md`.
      return found && (!NOT_CODE.test(found) || NOT_CODE.test(specifier)) ? [found] : [];
    },
  };
}
