import { execFileSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { iterativeRetrieve } from '../../src/retrieve.js';
import { createTempTree, removeTempTrees } from '../support/temp-tree.js';

afterEach(removeTempTrees);

// Two files that the task's words match equally; only the past tells them apart.
const FILES = {
  'src/list/ordering.js': 'export function applyOrdering(items) {\n  return items.slice();\n}\n',
  'src/table/ordering.js': 'export function tableOrdering(rows) {\n  return rows.slice();\n}\n',
};
const TASK = 'Keyed rows come back in the wrong ordering after a re-render';

async function repositoryWithHistory(): Promise<string> {
  const root = await createTempTree(FILES);
  const git = (...args: string[]) =>
    execFileSync('git', [
      '-C',
      root,
      '-c',
      'user.name=t',
      '-c',
      'user.email=t@example.com',
      ...args,
    ]);
  git('init', '-q');
  git('add', '.');
  git('commit', '-qm', 'Initial import');
  execFileSync('sh', ['-c', `echo '// keyed' >> "${root}/src/table/ordering.js"`]);
  git('commit', '-qam', 'Fix keyed rows losing their ordering on re-render');
  return root;
}

describe('retrieval with the repository history', () => {
  it('ranks first the file that past fixes like the task changed, and says why', async () => {
    const root = await repositoryWithHistory();
    const pack = await iterativeRetrieve(TASK, { root });
    expect(pack.evaluated[0]?.path).toBe('src/table/ordering.js');
    expect(pack.evaluated[0]?.reason).toContain(
      'changed by 1 similar past commit ("Fix keyed rows losing their ordering on re-render")',
    );
    const other = pack.evaluated.find((file) => file.path === 'src/list/ordering.js');
    expect(other?.relevance).toBeLessThan(pack.evaluated[0]?.relevance ?? 0);
  });

  it('does without it when asked', async () => {
    const root = await repositoryWithHistory();
    const pack = await iterativeRetrieve(TASK, { root, history: false });
    for (const file of pack.evaluated) expect(file.reason).not.toContain('past commit');
  });
});
