import { posix } from 'node:path';
import type { Workspace } from './workspace.js';
import type { PastCommit, RepoOverview } from '../contracts/overview.js';

const MAX_DIRECTORIES = 300;
const SYMBOLS_PER_FILE = 6;

/**
 * What the overview takes from the files alone, made once per workspace's files: a workspace
 * taken again for an unchanged tree (./workspace-reuse.ts) shares them. Directories, kinds and
 * symbols are found on first use: only a model's overview shows them, and a judge that never
 * asks for them (the offline one) spares a pass over every file.
 */
class Glance {
  readonly paths: string[];
  readonly present: ReadonlySet<string>;
  readonly packages: RepoOverview['packages'];
  private cachedKinds: RepoOverview['kinds'] | undefined;
  private cachedDirectories: RepoOverview['directories'] | undefined;
  private cachedSymbols: Record<string, string[]> | undefined;

  constructor(private readonly workspace: Workspace) {
    this.paths = workspace.files.map((file) => file.path).sort();
    this.present = new Set(this.paths);
    this.packages = workspace.files.flatMap((file) => {
      if (posix.basename(file.path) !== 'package.json' || file.kind !== 'config') return [];
      const name = packageName(file.text);
      const directory = posix.dirname(file.path);
      return name ? [{ name, directory: directory === '.' ? '' : directory }] : [];
    });
  }

  get kinds() {
    return (this.cachedKinds ??= Object.fromEntries(
      this.workspace.files.map((file) => [file.path, file.kind]),
    ));
  }

  get directories() {
    return (this.cachedDirectories ??= directoriesOf(this.paths));
  }

  get symbols() {
    return (this.cachedSymbols ??= symbolsByPath(this.workspace));
  }
}

const glances = new WeakMap<Workspace['files'], Glance>();

/** The repository at a glance, for a judge's first query. */
export function describeWorkspace(
  workspace: Workspace,
  history: readonly PastCommit[] = [],
): RepoOverview {
  let glance = glances.get(workspace.files);
  if (!glance) glances.set(workspace.files, (glance = new Glance(workspace)));
  const seen = glance;
  // Only commits that changed files still here: a deleted file is no one's context.
  const recent = history
    .map((commit) => ({ ...commit, files: commit.files.filter((file) => seen.present.has(file)) }))
    .filter((commit) => commit.files.length > 0);
  return {
    fileCount: seen.paths.length,
    paths: seen.paths,
    get kinds() {
      return seen.kinds;
    },
    get directories() {
      return seen.directories;
    },
    get symbols() {
      return seen.symbols;
    },
    history: recent,
    packages: seen.packages,
  };
}

/** The directories holding the most files, with how many each holds at any depth. */
function directoriesOf(paths: readonly string[]): RepoOverview['directories'] {
  const counts = new Map<string, number>();
  for (const path of paths) {
    for (
      let directory = posix.dirname(path);
      directory !== '.';
      directory = posix.dirname(directory)
    ) {
      counts.set(directory, (counts.get(directory) ?? 0) + 1);
    }
  }
  return [...counts.entries()]
    .sort((left, right) => right[1] - left[1] || (left[0] < right[0] ? -1 : 1))
    .slice(0, MAX_DIRECTORIES)
    .map(([path, fileCount]) => ({ path, fileCount }));
}

/** A few top-level symbols of each file: the ones it exports, or else the ones it defines. */
function symbolsByPath(workspace: Workspace): Record<string, string[]> {
  const symbols: Record<string, string[]> = {};
  for (const file of workspace.files) {
    const exported = file.outline.symbols.filter((symbol) => symbol.exported);
    const names = [
      ...new Set(
        (exported.length > 0 ? exported : file.outline.symbols).map((symbol) => symbol.name),
      ),
    ];
    if (names.length > 0) symbols[file.path] = names.slice(0, SYMBOLS_PER_FILE);
  }
  return symbols;
}

function packageName(manifest: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(manifest);
    const name = (parsed as { name?: unknown } | null)?.name;
    return typeof name === 'string' && name.length > 0 ? name : undefined;
  } catch {
    return undefined;
  }
}
