import { cp, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import fastGlob from 'fast-glob';
import { createTempTree } from './temp-tree.js';

const EXAMPLE = join(import.meta.dirname, '../fixtures/example-service');
export const AN_HOUR_AGO = new Date(Date.now() - 3_600_000);

/**
 * A copy of the bundled example whose files were last modified an hour ago (a stored index
 * trusts only files older than its build), and an empty cache directory. Both are temp trees:
 * `removeTempTrees` removes them.
 */
export async function exampleCopy(): Promise<{ root: string; cacheDirectory: string }> {
  const root = await createTempTree({});
  await cp(EXAMPLE, root, { recursive: true });
  for (const path of await fastGlob('**/*', { cwd: root, dot: true }))
    await utimes(join(root, path), AN_HOUR_AGO, AN_HOUR_AGO);
  return { root, cacheDirectory: join(await createTempTree({}), 'indexes') };
}
