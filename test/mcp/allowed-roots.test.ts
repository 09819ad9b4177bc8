import { realpath, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, SearchError } from '../../src/errors.js';
import { confineRoot, resolveAllowedRoots } from '../../src/mcp/allowed-roots.js';
import { createTempTree, removeTempTrees } from '../support/temp-tree.js';

/**
 * A workspace with two allowed roots and, beside them, a directory no client may reach:
 *   allowed/src/…, allowed/notes.md, allowed/escape → outside, allowed/inward → allowed/src,
 *   second/, outside/
 */
interface Workspace {
  base: string;
  allowed: string;
  second: string;
}
let workspace: Workspace;

beforeEach(async () => {
  const base = await realpath(
    await createTempTree({
      'allowed/src/auth/tokens.ts': 'export const ttl = 60;\n',
      'allowed/notes.md': '# notes\n',
      'second/lib/index.ts': 'export {};\n',
      'outside/deeper/secret.ts': 'export const key = 1;\n',
    }),
  );
  workspace = { base, allowed: join(base, 'allowed'), second: join(base, 'second') };
  await symlink(join(base, 'outside'), join(workspace.allowed, 'escape'));
  await symlink(join(workspace.allowed, 'src'), join(workspace.allowed, 'inward'));
});

afterEach(removeTempTrees);

type PathOf = (workspace: Workspace) => string;
const confine = (requested: string | undefined) =>
  confineRoot(requested, [workspace.allowed, workspace.second]);

describe('confineRoot', () => {
  it.each<[string, PathOf | undefined, PathOf]>([
    ['nothing requested: the first allowed root', undefined, ({ allowed }) => allowed],
    ['`.`', () => '.', ({ allowed }) => allowed],
    ['a relative directory inside', () => 'src/auth', ({ allowed }) => join(allowed, 'src/auth')],
    [
      'an absolute directory inside',
      ({ allowed }) => join(allowed, 'src'),
      ({ allowed }) => join(allowed, 'src'),
    ],
    [
      'a symbolic link that stays inside, as its target',
      () => 'inward',
      ({ allowed }) => join(allowed, 'src'),
    ],
    [
      'a directory inside the second root',
      ({ second }) => join(second, 'lib'),
      ({ second }) => join(second, 'lib'),
    ],
  ])('accepts %s', async (_case, requested, expected) => {
    await expect(confine(requested?.(workspace))).resolves.toBe(expected(workspace));
  });

  it.each<[string, PathOf]>([
    ['the parent directory', () => '..'],
    ['the file system root', () => '/'],
    ['a sibling by absolute path', ({ base }) => join(base, 'outside')],
    ['a symbolic link that points outside', () => 'escape'],
    ['a directory behind such a link', () => 'escape/deeper'],
    ['a path outside that does not exist', () => '../nowhere'],
  ])('refuses %s, naming the allowed roots', async (_case, requestedOf) => {
    const requested = requestedOf(workspace);
    const error: unknown = await confine(requested).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConfigError);
    expect(error).toMatchObject({
      option: 'root',
      message: `root \`${requested}\` is outside the allowed roots (${workspace.allowed}, ${workspace.second}); search inside them, or start the server with \`--root\` set to a directory that contains it`,
    });
  });

  it.each([
    ['a missing directory inside', 'src/nowhere', 'root `src/nowhere` does not exist'],
    ['a file inside', 'notes.md', 'root `notes.md` is not a directory'],
  ])('reports %s as a search error', async (_case, requested, message) => {
    const error: unknown = await confine(requested).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SearchError);
    expect(error).toMatchObject({ message });
  });
});

describe('resolveAllowedRoots', () => {
  it('resolves each root through symbolic links', async () => {
    const { allowed, second } = workspace;
    await expect(resolveAllowedRoots([join(allowed, 'inward'), second])).resolves.toEqual([
      join(allowed, 'src'),
      second,
    ]);
  });

  it('refuses a root that does not exist', async () => {
    const missing = join(workspace.base, 'missing');
    await expect(resolveAllowedRoots([missing])).rejects.toMatchObject({
      name: 'SearchError',
      message: `root \`${missing}\` does not exist`,
      path: missing,
    });
  });
});
