import { afterEach, describe, expect, it } from 'vitest';
import { dispatch } from '../../src/dispatch/dispatch.js';
import { openWorkspace } from '../../src/repository/workspace.js';
import { querySchema } from '../../src/contracts/query.js';
import { createTempTree, removeTempTrees } from '../support/temp-tree.js';

afterEach(removeTempTrees);

const FILES = [
  'retry.ts',
  'auth/retry.ts',
  'src/auth/retry.ts',
  'src/auth/deep/retry.ts',
  'src/authority/retry.ts',
  'src/http/retry.ts',
  'src/http2/retry.ts',
  'lib/src/http/retry.ts',
  'auth.ts/retry.ts',
];

/** Which files a query's focus areas boost, as dispatch ranks them. */
async function focused(focusAreas: string[]): Promise<string[]> {
  const root = await createTempTree(
    Object.fromEntries(FILES.map((path) => [path, 'export function retry() {}\n'])),
  );
  const workspace = await openWorkspace(root, { maxFileBytes: 10_000, maxFiles: 100 });
  const query = querySchema.parse({ keywords: ['retry'], focusAreas });
  const { candidates } = await dispatch(query, workspace, {
    skip: new Set(),
    limit: 100,
    excerptTokens: 600,
    excerpts: false,
  });
  return candidates
    .filter((candidate) => candidate.inFocusArea)
    .map((candidate) => candidate.path)
    .sort();
}

describe('focus areas', () => {
  it.each([
    // A bare name is any directory of that name, at any depth; never a part of a longer name.
    [['auth'], ['auth/retry.ts', 'src/auth/deep/retry.ts', 'src/auth/retry.ts']],
    // A path is a directory from the root, and everything under it.
    [['src/http'], ['src/http/retry.ts']],
    [['./src/http/'], ['src/http/retry.ts']],
    [['src'], [...FILES.filter((path) => path.startsWith('src/')), 'lib/src/http/retry.ts'].sort()],
    // A file's own name is not a directory; the root's files are in no area.
    [['retry.ts', 'auth.ts'], ['auth.ts/retry.ts']],
    [[], []],
  ])('%j boosts %j', async (areas, expected) => {
    expect(await focused(areas)).toEqual(expected);
  });
});
