import { execFileSync } from 'node:child_process';
import { chmod } from 'node:fs/promises';
import { join } from 'node:path';
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

describe('history that is missing or cut', () => {
  const historyWarnings = (warnings: readonly string[]) =>
    warnings.filter((warning) => warning.includes('git history'));

  it('says so in the warnings when git cannot read it', async () => {
    const root = await repositoryWithHistory();
    const pack = await iterativeRetrieve(TASK, {
      root,
      history: { gitDirectory: join(root, '.git'), revision: 'no-such-revision' },
    });
    expect(historyWarnings(pack.warnings)).toEqual([
      expect.stringMatching(/^the git history could not be read \(.+\): ranked without it$/),
    ]);
  });

  it('says nothing for a directory outside git: no history is no evidence, not a fault', async () => {
    const root = await createTempTree(FILES);
    const pack = await iterativeRetrieve(TASK, { root });
    expect(historyWarnings(pack.warnings)).toEqual([]);
  });

  // The run's own time limit still bounds git, and a history it cut short is named.
  it.runIf(process.platform !== 'win32')(
    'says so when the time limit of the run stopped git',
    { timeout: 20_000 },
    async () => {
      const root = await createTempTree(FILES);
      const bin = await createTempTree({ git: '#!/bin/sh\nexec sleep 30\n' });
      await chmod(join(bin, 'git'), 0o755);
      const path = process.env.PATH;
      process.env.PATH = `${bin}:${path}`;
      try {
        const started = performance.now();
        const pack = await iterativeRetrieve(TASK, { root, timeoutSeconds: 1 });
        expect(performance.now() - started).toBeLessThan(15_000);
        expect(historyWarnings(pack.warnings)).toEqual([
          'the git history was not read: the run stopped first',
        ]);
      } finally {
        process.env.PATH = path;
      }
    },
  );
});
