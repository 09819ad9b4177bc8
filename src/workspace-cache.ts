import { z } from 'zod';
import { parseOptions } from './parse-options.js';
import type { Workspace } from './repository/workspace.js';

/**
 * Workspaces kept in memory between runs of one process (the MCP server, an orchestrator that
 * retrieves before every subagent): a run on a root it holds lists the tree, and takes the held
 * workspace whole when nothing changed, or reads only the files that did. Holding one costs its
 * memory (about 10 KB a file read) while the process lives: it is let go after `idleMs`.
 *
 * Where the system can, each held tree is watched (`watch`, src/repository/tree-watch.ts): while
 * the watch has seen no change since the tree was last listed, a run takes the workspace without
 * listing the tree at all.
 */
export interface WorkspaceCache {
  /** Whether the trees of the workspaces it holds are watched. */
  readonly watches: boolean;
  /** The workspace last kept for `root`, if still held. */
  get(root: string): Workspace | undefined;
  /** Keeps `workspace` for its root, in place of any held before; over `maxRoots`, the oldest goes. */
  keep(workspace: Workspace): void;
  /** Lets the workspace held for `root` go, if any. */
  forget(root: string): void;
  /** Lets every held workspace go. */
  clear(): void;
}

export const workspaceCacheOptionsSchema = z
  .object({
    /** Most roots held at once. Default 1. */
    maxRoots: z.int().min(1).default(1),
    /** Milliseconds without a run after which the held workspaces are let go. Default 10 minutes. */
    idleMs: z
      .int()
      .min(0)
      .max(2 ** 31 - 1)
      .default(10 * 60 * 1000),
    /**
     * Watch each held tree for changes, so that a run on an unchanged one need not list it (on
     * Linux, on local filesystems; about 2 KB of memory a directory). Default true.
     */
    watch: z.boolean().default(true),
  })
  .strict();

export type WorkspaceCacheOptions = z.input<typeof workspaceCacheOptionsSchema>;

export function createWorkspaceCache(options: WorkspaceCacheOptions = {}): WorkspaceCache {
  const { maxRoots, idleMs, watch } = parseOptions(workspaceCacheOptionsSchema, options);
  const held = new Map<string, Workspace>();
  let idle: NodeJS.Timeout | undefined;
  /** Lets the workspace held for `root` go, with its watch unless `successor` keeps it. */
  const letGo = (root: string, successor?: Workspace) => {
    const workspace = held.get(root);
    if (workspace?.watch !== successor?.watch) workspace?.watch?.close();
    held.delete(root);
  };
  const clear = () => {
    for (const root of [...held.keys()]) letGo(root);
    clearTimeout(idle);
  };
  return {
    watches: watch,
    get: (root) => held.get(root),
    forget: (root) => letGo(root),
    keep(workspace) {
      letGo(workspace.root, workspace);
      held.set(workspace.root, workspace);
      for (const root of held.keys()) if (held.size > maxRoots) letGo(root);
      clearTimeout(idle);
      // Never what keeps the process alive.
      idle = setTimeout(clear, idleMs).unref();
    },
    clear,
  };
}
