import { posix } from 'node:path';
import stripJsonComments from 'strip-json-comments';

/**
 * TypeScript's own module mapping: `compilerOptions.paths` (`"@/*": ["src/*"]`) and `baseUrl` of
 * the nearest `tsconfig.json` or `jsconfig.json`, following relative `extends`. The files are
 * read as the compiler reads them, comments and trailing commas allowed.
 */

/** What the mapping needs of the workspace. */
export interface ConfigFiles {
  has(path: string): boolean;
  linesOf(path: string): readonly string[] | undefined;
}

interface Mapping {
  /** Where `paths` targets are relative to: `baseUrl`, else the directory of the config with `paths`. */
  base: string;
  baseUrl: string | undefined;
  patterns: [pattern: string, targets: string[]][];
}

const CONFIG_NAMES = ['tsconfig.json', 'jsconfig.json'];
const MAX_EXTENDS = 5;
const MAX_DEPTH = 32;
const MAX_PATTERNS = 200;
const MAX_TARGETS = 10;

type Options = { baseUrl?: unknown; paths?: unknown };

const directoryOf = (path: string) => (posix.dirname(path) === '.' ? '' : posix.dirname(path));
const within = (directory: string, relative: string) =>
  posix.normalize(posix.join(directory || '.', relative));

function readConfig(
  files: ConfigFiles,
  path: string,
): { compilerOptions?: Options; extends?: unknown } | undefined {
  const lines = files.linesOf(path);
  if (!lines) return undefined;
  try {
    const parsed: unknown = JSON.parse(
      stripJsonComments(lines.join('\n'), { trailingCommas: true }),
    );
    return parsed && typeof parsed === 'object' ? parsed : undefined;
  } catch {
    // A config the compiler would reject maps nothing.
    return undefined;
  }
}

/** The mapping in force under a config: its own `paths` and `baseUrl`, else those it extends. */
function mappingOf(files: ConfigFiles, configPath: string): Mapping | undefined {
  let paths: { value: object; directory: string } | undefined;
  let baseUrl: string | undefined;
  let current: string | undefined = configPath;
  for (let depth = 0; current !== undefined && depth < MAX_EXTENDS; depth++) {
    const config = readConfig(files, current);
    if (!config) break;
    const directory = directoryOf(current);
    const options = config.compilerOptions;
    if (baseUrl === undefined && typeof options?.baseUrl === 'string')
      baseUrl = within(directory, options.baseUrl);
    if (paths === undefined && options?.paths && typeof options.paths === 'object')
      paths = { value: options.paths, directory };
    // Only a relative `extends` is a file of this tree; a package's config is not here.
    const parent = config.extends;
    current =
      typeof parent === 'string' && parent.startsWith('.')
        ? within(directory, parent.endsWith('.json') ? parent : `${parent}.json`)
        : undefined;
  }
  if (!paths && baseUrl === undefined) return undefined;
  const patterns = Object.entries(paths?.value ?? {})
    .slice(0, MAX_PATTERNS)
    .map(([pattern, targets]): [string, string[]] => [
      pattern,
      [targets]
        .flat()
        .slice(0, MAX_TARGETS)
        .filter((target): target is string => typeof target === 'string'),
    ]);
  return { base: baseUrl ?? paths?.directory ?? '', baseUrl, patterns };
}

/**
 * The paths (relative to the root, without extension resolution) that a bare specifier maps to,
 * in the order the compiler tries them: an exact pattern, else the `*` pattern with the longest
 * prefix, else `baseUrl`.
 */
function mapSpecifier(mapping: Mapping, specifier: string): string[] {
  let best: { prefix: string; suffix: string; targets: string[] } | undefined;
  for (const [pattern, targets] of mapping.patterns) {
    const star = pattern.indexOf('*');
    if (star < 0) {
      if (pattern === specifier) return targets.map((target) => within(mapping.base, target));
      continue;
    }
    const prefix = pattern.slice(0, star);
    const suffix = pattern.slice(star + 1);
    const fits =
      specifier.length >= prefix.length + suffix.length &&
      specifier.startsWith(prefix) &&
      specifier.endsWith(suffix);
    if (fits && (!best || prefix.length > best.prefix.length)) best = { prefix, suffix, targets };
  }
  if (best) {
    const { prefix, suffix, targets } = best;
    const matched = specifier.slice(prefix.length, specifier.length - suffix.length);
    return targets.map((target) => within(mapping.base, target.replace('*', matched)));
  }
  return mapping.baseUrl === undefined ? [] : [within(mapping.baseUrl, specifier)];
}

export interface PathMappings {
  /** Where a bare specifier of this file maps under its nearest config; empty without one. */
  map(fromPath: string, specifier: string): string[];
}

export function createPathMappings(files: ConfigFiles): PathMappings {
  // Files of one directory share their nearest config, and configs their mapping.
  const configByDirectory = new Map<string, string | undefined>();
  const mappings = new Map<string, Mapping | undefined>();
  function nearestConfig(directory: string): string | undefined {
    if (configByDirectory.has(directory)) return configByDirectory.get(directory);
    let found: string | undefined;
    let current = directory;
    for (let depth = 0; depth < MAX_DEPTH && found === undefined; depth++) {
      found = CONFIG_NAMES.map((name) => (current ? `${current}/${name}` : name)).find((path) =>
        files.has(path),
      );
      if (current === '') break;
      current = directoryOf(current);
    }
    configByDirectory.set(directory, found);
    return found;
  }
  return {
    map(fromPath, specifier) {
      const config = nearestConfig(directoryOf(fromPath));
      if (config === undefined) return [];
      if (!mappings.has(config)) mappings.set(config, mappingOf(files, config));
      const mapping = mappings.get(config);
      return mapping
        ? mapSpecifier(mapping, specifier).filter((path) => !path.startsWith('..'))
        : [];
    },
  };
}
