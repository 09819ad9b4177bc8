import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/**
 * Throwaway directory trees for tests that read the file system. Call `removeTempTrees` in
 * `afterEach` to delete every tree made since the last call.
 */

const created: string[] = [];

/** Writes `files` (relative POSIX path → content) under a new temporary directory; returns it. */
export async function createTempTree(files: Record<string, string | Uint8Array>): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'iterative-retrieval-test-'));
  created.push(root);
  for (const [path, content] of Object.entries(files)) {
    const target = join(root, ...path.split('/'));
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, content);
  }
  return root;
}

export async function removeTempTrees(): Promise<void> {
  const roots = created.splice(0);
  await Promise.all(roots.map((root) => rm(root, { recursive: true, force: true })));
}
