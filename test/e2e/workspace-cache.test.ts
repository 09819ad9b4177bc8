import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createWorkspaceCache, type WorkspaceCache } from '../../src/workspace-cache.js';
import { iterativeRetrieve } from '../../src/retrieve.js';
import type { ContextPack } from '../../src/output/context-pack.js';
import { createTempTree, removeTempTrees } from '../support/temp-tree.js';
import { exampleCopy } from '../support/example-copy.js';

const TASKS = [
  'Fix the authentication token expiry bug',
  'Invoices are charged twice when a payment is retried',
];

afterEach(removeTempTrees);

/** What a user sees of a run: everything but its timings. */
const seen = (pack: ContextPack) => ({
  files: pack.files,
  related: pack.related,
  evaluated: pack.evaluated,
  gaps: pack.gaps,
  trace: pack.trace.map(({ durationMs: _, ...cycle }) => cycle),
  warnings: pack.warnings,
  stats: pack.stats,
});

/** A logger whose `read repository` lines are kept. */
function readLog() {
  const lines: { msg: string; reused?: boolean; storedIndex?: { read: number } }[] = [];
  const logger = pino(
    { level: 'info' },
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        const line = JSON.parse(chunk.toString()) as (typeof lines)[number];
        if (line.msg === 'read repository') lines.push(line);
        done();
      },
    }),
  );
  return { lines, logger };
}

describe('a workspace kept between runs (workspaceCache)', () => {
  it.each([
    ['without a stored index', false],
    ['with a stored index', true],
  ])(
    '%s, gives every task the context a fresh run gives, reading nothing again',
    async (_, indexed) => {
      const { root, cacheDirectory } = await exampleCopy();
      const options = { root, history: false, ...(indexed && { cacheDirectory }) } as const;
      const workspaceCache = createWorkspaceCache();
      const { lines, logger } = readLog();
      for (const task of [...TASKS, ...TASKS]) {
        const kept = await iterativeRetrieve(task, { ...options, workspaceCache, logger });
        const fresh = await iterativeRetrieve(task, options);
        expect(seen(kept)).toEqual(seen(fresh));
      }
      expect(lines.map((line) => line.reused ?? false)).toEqual([false, true, true, true]);
      // The index was saved once, by the first run: the others changed nothing.
      if (indexed) expect(lines[0]?.storedIndex?.read).toBeGreaterThan(0);
      if (indexed) expect(await readdir(cacheDirectory)).toHaveLength(1);
    },
  );

  it('reads the tree once for runs made at the same time, each given the context a fresh run gives', async () => {
    const { root } = await exampleCopy();
    const options = { root, history: false } as const;
    const workspaceCache = createWorkspaceCache();
    const { lines, logger } = readLog();
    const together = await Promise.all(
      [...TASKS, ...TASKS].map((task) =>
        iterativeRetrieve(task, { ...options, workspaceCache, logger }),
      ),
    );
    for (const [index, task] of [...TASKS, ...TASKS].entries())
      expect(seen(together[index] as ContextPack)).toEqual(
        seen(await iterativeRetrieve(task, options)),
      );
    expect(lines.map((line) => line.reused ?? false)).toEqual([false, true, true, true]);
  });

  it('ends a run stopped while it waits for another run reading the tree, before that reading ends', async () => {
    const files: Record<string, string> = {};
    for (let index = 0; index < 3000; index++)
      files[`src/module-${index}.ts`] =
        `export function authenticate${index}(token: string) {\n  return token;\n}\n`;
    const root = await createTempTree(files);
    const workspaceCache = createWorkspaceCache();
    const ended: string[] = [];
    const logger = pino(
      { level: 'info' },
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          if ((JSON.parse(chunk.toString()) as { msg: string }).msg === 'read repository')
            ended.push('read');
          done();
        },
      }),
    );
    const reading = iterativeRetrieve(TASKS[0] ?? '', {
      root,
      history: false,
      workspaceCache,
      logger,
    });
    const stop = new AbortController();
    const waiting = iterativeRetrieve(TASKS[1] ?? '', {
      root,
      history: false,
      workspaceCache,
      signal: stop.signal,
    }).catch((error: unknown) => ended.push(`stopped: ${(error as Error).name}`));
    stop.abort();
    await Promise.all([reading, waiting]);
    expect(ended).toEqual(['stopped: AbortError', 'read']);
  });

  it('sees a file changed between runs', async () => {
    const { root } = await exampleCopy();
    const workspaceCache = createWorkspaceCache();
    const task = 'Where is the ledgerReconciliationWindow set?';
    const before = await iterativeRetrieve(task, { root, history: false, workspaceCache });
    expect(before.files.map((file) => file.path)).not.toContain('src/ledger.ts');
    await writeFile(join(root, 'src/ledger.ts'), 'export const ledgerReconciliationWindow = 30;\n');
    const after = await iterativeRetrieve(task, { root, history: false, workspaceCache });
    expect(after.files.map((file) => file.path)).toContain('src/ledger.ts');
    expect(after.files.find((file) => file.path === 'src/ledger.ts')?.excerpt).toContain(
      'ledgerReconciliationWindow = 30',
    );
  });

  it('lets a workspace read for another task over the cap go before reading the tree again', async () => {
    const { root } = await exampleCopy();
    const kept = createWorkspaceCache();
    const calls: string[] = [];
    const workspaceCache: WorkspaceCache = {
      watches: kept.watches,
      get: (path) => (calls.push('get'), kept.get(path)),
      keep: (workspace) => (calls.push(`keep ${workspace.reused === true}`), kept.keep(workspace)),
      forget: (path) => (calls.push('forget'), kept.forget(path)),
      clear: () => kept.clear(),
    };
    // Over the cap, which files are read depends on the task.
    const options = { root, history: false, maxRepositoryFiles: 10, workspaceCache };
    const [first = '', second = ''] = TASKS;
    for (const task of [first, first, second]) await iterativeRetrieve(task, options);
    expect(calls).toEqual(['get', 'keep false', 'get', 'keep true', 'get', 'forget', 'keep false']);
    // Under the cap, any task may take it again.
    calls.length = 0;
    for (const task of TASKS)
      await iterativeRetrieve(task, { ...options, maxRepositoryFiles: 1000 });
    expect(calls).toEqual(['get', 'forget', 'keep false', 'get', 'keep true']);
  });

  it('refuses anything but a cache as the option, naming it, before any work', async () => {
    await expect(iterativeRetrieve('a task', { workspaceCache: {} as never })).rejects.toThrow(
      expect.objectContaining({
        name: 'ConfigError',
        option: 'workspaceCache',
        message: '`workspaceCache` must be made by createWorkspaceCache',
      }),
    );
  });
});
