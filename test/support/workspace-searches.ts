import {
  openWorkspace,
  type Workspace,
  type WorkspaceOptions,
} from '../../src/repository/workspace.js';
import { matchWorkspace, weighKeywords } from '../../src/dispatch/match.js';

/** A workspace as a run that keeps nothing opens it (no index, not reusable), with `options`. */
export const openForOneRun = (root: string, options: Partial<WorkspaceOptions> = {}) =>
  openWorkspace(root, { maxFileBytes: 50_000, maxFiles: 10_000, reusable: false, ...options });

/** Each query's weights and matches, in turn, as later cycles ask for them. */
export async function searchesOf(workspace: Workspace, queries: readonly (readonly string[])[]) {
  const found = [];
  for (const query of queries) {
    const keywords = await weighKeywords(query, workspace);
    found.push({ keywords, matches: [...matchWorkspace(workspace, keywords)].sort() });
  }
  return found;
}
