import { afterEach, describe, expect, it } from 'vitest';
import { type Workspace } from '../../src/repository/workspace.js';
import { weighKeywords } from '../../src/dispatch/match.js';
import { openForOneRun, searchesOf } from '../support/workspace-searches.js';
import { AbortError } from '../../src/errors.js';
import { startPartner } from '../../src/dispatch/partner.js';
import type { StartPartner } from '../../src/repository/read-files.js';
import { createTempTree, removeTempTrees } from '../support/temp-tree.js';

/**
 * A partner thread reads and searches half of a large tree's files (src/dispatch/partner.ts):
 * what a run finds must be the same as when one thread does it all, and stay the same when the
 * partner fails.
 */

afterEach(removeTempTrees);

const QUERIES = [
  ['refresh token', 'expiry', 'SessionStore'],
  ['refresh token', 'revoke', 'Store.save', '令牌'],
  ['cache file', 'getCacheFile', 'empty'],
];

/** A tree of `count` files of several kinds, with the queries' words spread through it. */
function tree(count: number): Record<string, string | Uint8Array> {
  const files: Record<string, string | Uint8Array> = {};
  for (let index = 0; index < count; index++) {
    const topic = ['token', 'cache', 'store', 'session', 'plain'][index % 5] ?? 'plain';
    files[`src/${topic}/module${index}.ts`] = [
      `// ${topic} module ${index}: 令牌 ${index % 7 === 0 ? 'refresh token' : ''}`,
      `export class ${topic === 'store' ? 'Store' : 'SessionStore'}${index} {`,
      `  save() { return ${index % 3 === 0 ? 'this.expiry' : 'null'}; }`,
      `  getCacheFile() { return '${index % 4 === 0 ? 'empty' : 'cache file'}'; }`,
      '}',
      ...Array.from({ length: index % 40 }, (_, line) => `const revoke${line} = ${line};`),
    ].join('\n');
  }
  files['docs/tokens.md'] = '# Refresh tokens\nA refresh token has an expiry.\n';
  files['bin/blob.bin'] = new Uint8Array([0, 1, 2, 3, 0, 0, 7]);
  files['src/data.bin.ts'] = new Uint8Array([0, 0, 0, 1]);
  files['src/minified.js'] = `var a=${'x'.repeat(6000)};`;
  files['src/large.ts'] = `export const large = '${'y'.repeat(60_000)}';`;
  return files;
}

const open = (root: string, partnerFrom?: number, signal?: AbortSignal) =>
  openForOneRun(root, {
    ...(partnerFrom !== undefined && { partner: { start: startPartner, from: partnerFrom } }),
    ...(signal && { signal }),
  });

const searches = (workspace: Workspace) => searchesOf(workspace, QUERIES);

describe('a partner thread', () => {
  it('reads and searches half the files, and the run finds what one thread finds', async () => {
    const root = await createTempTree(tree(600));
    const alone = await open(root);
    const partnered = await open(root, 0);
    try {
      expect(alone.partner).toBeUndefined();
      const owned = partnered.files.filter((_, index) => partnered.partner?.owns(index));
      expect(owned.length).toBeGreaterThan(250);
      expect(owned.length).toBeLessThan(350);
      expect(partnered.skipped).toEqual(alone.skipped);
      expect(partnered.skipped).toMatchObject({ binary: 2, minified: 1, tooLarge: 1 });
      const describe = (workspace: Workspace) =>
        workspace.files.map(({ path, kind, lineCount }) => ({ path, kind, lineCount }));
      expect(describe(partnered)).toEqual(describe(alone));
      expect(await searches(partnered)).toEqual(await searches(alone));
      // A file the partner holds is read again where this thread asks for its text.
      const file = owned[0];
      expect(file?.text).toBe(alone.get(file?.path ?? '')?.text);
      expect(file?.outline).toEqual(alone.get(file?.path ?? '')?.outline);
    } finally {
      partnered.partner?.close();
    }
  });

  it('leaves its files to be searched here when it has failed', async () => {
    const root = await createTempTree(tree(300));
    const alone = await open(root);
    const partnered = await open(root, 0);
    expect(partnered.partner).toBeDefined();
    partnered.partner?.close();
    expect(await searches(partnered)).toEqual(await searches(alone));
  });

  it('reads its share here when it cannot read it, and then has no partner', async () => {
    const root = await createTempTree(tree(300));
    const alone = await open(root);
    const failing: StartPartner = () => {
      const read = Promise.reject(new Error('no thread here'));
      read.catch(() => undefined);
      return { read, scan: () => Promise.reject(new Error('no thread here')), close: () => {} };
    };
    const fallen = await openForOneRun(root, { partner: { start: failing, from: 0 } });
    expect(fallen.partner).toBeUndefined();
    expect(fallen.files.map((file) => file.path)).toEqual(alone.files.map((file) => file.path));
    expect(await searches(fallen)).toEqual(await searches(alone));
  });

  it('ends a search with the run: stopped by its signal, the search is not done again here', async () => {
    const root = await createTempTree(tree(300));
    const controller = new AbortController();
    const partnered = await open(root, 0, controller.signal);
    controller.abort();
    await expect(weighKeywords(['refresh token'], partnered, controller.signal)).rejects.toThrow(
      AbortError,
    );
  });
});
