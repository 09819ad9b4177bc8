import { z } from 'zod';
import { parseOptions } from './parse-options.js';
import type { Workspace } from './repository/workspace.js';

/**
 * Workspaces kept in memory between runs of one process (the MCP server, an orchestrator that
 * retrieves before every subagent): a run on a root it holds lists the tree, and takes the held
 * workspace whole when nothing changed, or reads only the files that did. Holding one costs its
 * memory (about 10 KB a file read) while the process lives: it is let go after `idleMs`.
 */
export interface WorkspaceCache {
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
  })
  .strict();

export type WorkspaceCacheOptions = z.input<typeof workspaceCacheOptionsSchema>;

export function createWorkspaceCache(options: WorkspaceCacheOptions = {}): WorkspaceCache {
  const { maxRoots, idleMs } = parseOptions(workspaceCacheOptionsSchema, options);
  const held = new Map<string, Workspace>();
  let idle: NodeJS.Timeout | undefined;
  const clear = () => {
    held.clear();
    clearTimeout(idle);
  };
  return {
    get: (root) => held.get(root),
    forget: (root) => void held.delete(root),
    keep(workspace) {
      held.delete(workspace.root);
      held.set(workspace.root, workspace);
      for (const root of held.keys()) if (held.size > maxRoots) held.delete(root);
      clearTimeout(idle);
      // Never what keeps the process alive.
      idle = setTimeout(clear, idleMs).unref();
    },
    clear,
  };
}
