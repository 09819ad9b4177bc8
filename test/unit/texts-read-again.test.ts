import { afterEach, describe, expect, it } from 'vitest';
import { type Workspace } from '../../src/repository/workspace.js';
import { openForOneRun, searchesOf } from '../support/workspace-searches.js';
import { startPartner } from '../../src/dispatch/partner.js';
import { createTempTree, removeTempTrees } from '../support/temp-tree.js';

/**
 * Without an index, a workspace holds the texts of its smallest files up to a bound and reads the
 * others again for each search, as bytes (src/dispatch/byte-search.ts): what a run finds must be
 * what it finds holding every text, whatever the files' line breaks and bytes.
 */

afterEach(removeTempTrees);

const QUERIES = [
  ['refresh token', 'expiry', 'SessionStore'],
  ['refresh token', 'revoke', 'Store.save', '令牌', 'größe'],
  ['cache file', 'getCacheFile', 'empty', 'istanbul', 'kelvin'],
];

/** Files of many sizes, with CRLF and lone CR, a BOM, bytes that are not UTF-8, `İ` and `K`. */
function tree(count: number): Record<string, string | Uint8Array> {
  const files: Record<string, string | Uint8Array> = {};
  for (let index = 0; index < count; index++) {
    const topic = ['token', 'cache', 'store', 'session', 'plain'][index % 5] ?? 'plain';
    const lines = [
      `${index % 11 === 0 ? '\ufeff' : ''}// ${topic} module ${index}: 令牌 größe ${index % 7 === 0 ? 'refresh token' : ''}`,
      `export class ${topic === 'store' ? 'Store' : 'SessionStore'}${index} {`,
      `  save() { return ${index % 3 === 0 ? 'this.expiry' : 'null'}; }`,
      `  getCacheFile() { return '${index % 4 === 0 ? 'empty' : 'cache file'}'; }`,
      index % 13 === 0 ? '  // \u0130stanbul, 5 \u212aelvin' : '  // plain',
      '}',
      ...Array.from({ length: (index * 7) % 90 }, (_, line) => `const revoke${line} = ${line};`),
    ];
    const text = lines.join(index % 3 === 0 ? '\r\n' : index % 10 === 1 ? '\r' : '\n');
    files[`src/${topic}/module${index}.ts`] =
      index % 17 === 0
        ? Buffer.concat([
            Buffer.from(text),
            Buffer.from([0x0a, 0xc3, 0x28, 0xff, 0x0a]),
            Buffer.from('empty\r\n'),
          ])
        : text;
  }
  files['docs/tokens.md'] = '# Refresh tokens\r\nA refresh token has an expiry.\r\n';
  return files;
}

const open = (root: string, maxHeldTextBytes?: number, partnerFrom?: number) =>
  openForOneRun(root, {
    ...(maxHeldTextBytes !== undefined && { maxHeldTextBytes }),
    ...(partnerFrom !== undefined && { partner: { start: startPartner, from: partnerFrom } }),
  });

const searches = (workspace: Workspace) => searchesOf(workspace, QUERIES);

const described = (workspace: Workspace) =>
  workspace.files.map(({ path, kind, lineCount }) => ({ path, kind, lineCount }));

describe('texts read again', () => {
  it('finds what holding every text finds, holding only the smallest files', async () => {
    const root = await createTempTree(tree(400));
    const holding = await open(root);
    const bounded = await open(root, 20_000);
    const none = await open(root, 0);
    expect(holding.files.every((file) => file.bytes === undefined)).toBe(true);
    const readAgain = bounded.files.filter((file) => file.bytes !== undefined);
    expect(readAgain.length).toBeGreaterThan(100);
    expect(readAgain.length).toBeLessThan(bounded.files.length);
    // The smallest are held: every file read again is at least as long as every one held.
    const longestHeld = Math.max(
      ...bounded.files.filter((file) => file.bytes === undefined).map((file) => file.text.length),
    );
    expect(readAgain.every((file) => file.text.length >= longestHeld)).toBe(true);
    expect(none.files.every((file) => file.bytes !== undefined)).toBe(true);
    expect(described(bounded)).toEqual(described(holding));
    expect(described(none)).toEqual(described(holding));
    const expected = await searches(holding);
    expect(await searches(bounded)).toEqual(expected);
    expect(await searches(none)).toEqual(expected);
    // A file read again has the text a held one has, outline included.
    for (const file of readAgain.slice(0, 20)) {
      expect(file.text).toBe(holding.get(file.path)?.text);
      expect(file.outline).toEqual(holding.get(file.path)?.outline);
    }
  });

  it('finds the same with a partner thread that reads its larger files again too', async () => {
    const root = await createTempTree(tree(400));
    const holding = await open(root);
    const partnered = await open(root, 0, 0);
    try {
      expect(partnered.partner).toBeDefined();
      expect(described(partnered)).toEqual(described(holding));
      expect(await searches(partnered)).toEqual(await searches(holding));
    } finally {
      partnered.partner?.close();
    }
  });
});
