import { rm } from 'node:fs/promises';
import { createTempTree } from './temp-tree.js';

/** A throwaway repository on disk that removes itself: `files` maps relative paths to contents. */
export async function createRepository(
  files: Record<string, string>,
): Promise<{ root: string; remove: () => Promise<void> }> {
  const root = await createTempTree(files);
  return { root, remove: () => rm(root, { recursive: true, force: true }) };
}
