import { afterEach, describe, expect, it } from 'vitest';
import { iterativeRetrieve } from '../../src/retrieve.js';
import { createTempTree, removeTempTrees } from '../support/temp-tree.js';

/**
 * A repository with more files than `maxRepositoryFiles`: the files left out are the least likely
 * ones, never the last alphabetically, and the pack says how many there were.
 */

afterEach(removeTempTrees);

const TASK = 'Invoice totals are rounded wrong when a discount applies';
const RELEVANT = 'zz/invoice-rounding.ts';

/** Twelve unrelated files that sort before the one the task is about. */
function treeWithRelevantFileLast(): Record<string, string> {
  const files: Record<string, string> = {
    [RELEVANT]:
      'export function roundInvoiceTotal(total: number, discount: number): number {\n' +
      '  return Math.round((total - discount) * 100) / 100;\n}\n',
  };
  for (const name of ['alpha', 'beta', 'gamma', 'delta'])
    files[`a-docs/${name}.md`] = `# ${name}\n\nHow ${name} works.\n`;
  for (const name of ['alpha', 'beta', 'gamma', 'delta'])
    files[`b-tests/${name}.test.ts`] = `export const ${name}Checked = true;\n`;
  for (const name of ['alpha', 'beta', 'gamma', 'delta'])
    files[`c-src/${name}.ts`] = `export const ${name} = 1;\n`;
  return files;
}

describe('a repository over maxRepositoryFiles', () => {
  // Before: only the first files alphabetically were read, silently, and the run exited 1.
  it('still finds the relevant file that sorts last, and warns how many were left out', async () => {
    const root = await createTempTree(treeWithRelevantFileLast());
    const pack = await iterativeRetrieve(TASK, { root, maxRepositoryFiles: 5, history: false });
    expect(pack.files.map((file) => file.path)).toContain(RELEVANT);
    expect(pack.stats.skipped.overLimit).toBe(8);
    expect(pack.warnings).toContainEqual(
      expect.stringMatching(
        /^8 files were not read: the repository has more than maxRepositoryFiles; .*--max-repository-files/,
      ),
    );
  });

  it('says nothing when every file fits', async () => {
    const root = await createTempTree(treeWithRelevantFileLast());
    const pack = await iterativeRetrieve(TASK, { root, history: false });
    expect(pack.stats.skipped.overLimit).toBe(0);
    expect(pack.warnings.join('\n')).not.toContain('maxRepositoryFiles');
  });
});
