import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MAX_KEPT_SCANS,
  forgetOldestScans,
  matchWorkspace,
  weighKeywords,
} from '../../src/dispatch/match.js';
import { openWorkspace, type Workspace } from '../../src/repository/workspace.js';
import { createTempTree, removeTempTrees } from '../support/temp-tree.js';

/** BM25's idf over the three files below: a keyword in `frequency` of them weighs this much. */
const idf = (frequency: number) => Math.log(1 + (3 - frequency + 0.5) / (frequency + 0.5));

describe('matching keywords against a workspace', () => {
  let workspace: Workspace;

  beforeAll(async () => {
    const root = await createTempTree({
      'src/auth/session.ts': 'export function refreshToken() {}\n',
      'src/auth/login.ts': 'export function login(token: string) {\n  // refresh later\n}\n',
      'src/billing/invoice.ts': 'export const total = 0;\n',
    });
    workspace = await openWorkspace(root, { maxFileBytes: 1_000_000, maxFiles: 100 });
  });
  afterAll(removeTempTrees);

  it.each([
    ['token', 2],
    // Both words in a file count, on one line or not.
    ['refresh token', 2],
    // File and directory names count too.
    ['auth', 2],
    ['invoice', 1],
    ['nowhere', 0],
  ])('weighs "%s" by the %i files that hold it', async (keyword, frequency) => {
    const [weighted] = await weighKeywords([keyword], workspace);
    expect(weighted?.weight).toBeCloseTo(idf(frequency), 10);
  });

  it('finds a keyword by its words on one line, and only there', async () => {
    const keywords = await weighKeywords(['refresh token'], workspace);
    const matches = matchWorkspace(workspace, keywords);
    expect([...matches.keys()]).toEqual(['src/auth/session.ts']);
    expect(matches.get('src/auth/session.ts')?.[0]).toMatchObject({
      weight: idf(2),
      // The words, not the phrase as written.
      exactLines: [],
      partialLines: [1],
      definitions: [{ name: 'refreshToken', line: 1, exact: false }],
    });
  });

  it.each([
    // A name that repeats its one word defines it exactly; one with another word, in part.
    ['export function tokenToken() {}\n', true],
    ['export function tokenStore() {}\n', false],
  ])('counts distinct words of a definition: %j exact %s', async (content, exact) => {
    const root = await createTempTree({ 'src/defines.ts': content });
    const defines = await openWorkspace(root, { maxFileBytes: 1_000_000, maxFiles: 100 });
    const matches = matchWorkspace(defines, await weighKeywords(['token'], defines));
    expect(matches.get('src/defines.ts')?.[0]?.definitions).toEqual([
      expect.objectContaining({ exact }),
    ]);
  });

  it('weighs a keyword the same whether it comes first or in a later query', async () => {
    const later = await weighKeywords(['login', 'Token'], workspace);
    expect(later.map((keyword) => keyword.weight)).toEqual([idf(1), idf(2)]);
    expect(matchWorkspace(workspace, later).get('src/auth/login.ts')).toHaveLength(2);
  });

  it('finds a phrase as written on the last line of a file, which has no line break after it', async () => {
    const root = await createTempTree({ 'notes.md': 'intro\nsee the refresh token' });
    const notes = await openWorkspace(root, { maxFileBytes: 1_000_000, maxFiles: 100 });
    const matches = matchWorkspace(notes, await weighKeywords(['refresh token'], notes));
    expect(matches.get('notes.md')?.[0]).toMatchObject({ exactLines: [2], partialLines: [] });
  });

  it('matches later keywords exactly as afresh, remembering the words earlier ones searched for', async () => {
    const files = {
      'src/cache/file_cache.py': 'class FileCache:\n    def get_cache_file(self):\n        pass\n',
      'src/config.py': 'def read_config_file(path):\n    # an empty file\n    return None\n',
      'src/profile.py': 'def profile():\n    return "profiled"\n',
      'docs/caching.md': 'The cache file is kept between runs.\n',
    };
    const cycles = [['file', 'empty'], ['getCacheFile', 'file cache', 'empty config'], ['profile']];
    const remembering = await openWorkspace(await createTempTree(files), {
      maxFileBytes: 1_000_000,
      maxFiles: 100,
    });
    for (const keywords of cycles) {
      const fresh = await openWorkspace(await createTempTree(files), {
        maxFileBytes: 1_000_000,
        maxFiles: 100,
      });
      const afresh = matchWorkspace(fresh, await weighKeywords(keywords, fresh));
      const later = matchWorkspace(remembering, await weighKeywords(keywords, remembering));
      expect(later).toEqual(afresh);
      expect(later.size).toBeGreaterThan(0);
    }
  });

  it('matches as afresh after more keywords than it keeps scans for, forgetting the oldest', async () => {
    const files = {
      'src/a.ts': 'export function alpha() {}\n// token refresh\n',
      'src/b.ts': 'export const beta = "token";\n',
    };
    const kept = await openWorkspace(await createTempTree(files), {
      maxFileBytes: 1_000_000,
      maxFiles: 100,
    });
    const batch = (name: string) =>
      Array.from({ length: MAX_KEPT_SCANS / 2 }, (_, index) => `${name}${index}`);
    // Three queries' worth of new keywords, each query keeping its own.
    for (const query of [
      ['alpha', 'token', ...batch('first')],
      [...batch('second'), 'beta'],
      [...batch('third'), 'refresh'],
      ['alpha', 'token', 'beta', 'refresh', ...batch('first')],
    ]) {
      const fresh = await openWorkspace(await createTempTree(files), {
        maxFileBytes: 1_000_000,
        maxFiles: 100,
      });
      expect(matchWorkspace(kept, await weighKeywords(query, kept))).toEqual(
        matchWorkspace(fresh, await weighKeywords(query, fresh)),
      );
    }
  });
});

describe('forgetOldestScans', () => {
  const scanOf = (matches: number) => ({
    byPath: new Map(Array.from({ length: matches }, (_, index) => [`f${index}`, index])),
  });
  it.each<[string, [string, number][], { scans: number; matches: number }, string[], string[]]>([
    [
      'within both bounds: all kept',
      [
        ['a', 1],
        ['b', 2],
      ],
      { scans: 2, matches: 3 },
      [],
      ['a', 'b'],
    ],
    [
      'too many scans: the oldest go',
      [
        ['a', 1],
        ['b', 1],
        ['c', 1],
      ],
      { scans: 2, matches: 9 },
      [],
      ['b', 'c'],
    ],
    [
      'too many matches: the oldest go until within',
      [
        ['a', 5],
        ['b', 1],
        ['c', 3],
      ],
      { scans: 9, matches: 4 },
      [],
      ['b', 'c'],
    ],
    [
      'the spared stay, even over the bounds',
      [
        ['a', 5],
        ['b', 5],
      ],
      { scans: 9, matches: 1 },
      ['a'],
      ['a'],
    ],
  ])('%s', (_, scans, bounds, spared, kept) => {
    const cache = new Map(scans.map(([key, matches]) => [key, scanOf(matches)]));
    forgetOldestScans(cache, bounds, new Set(spared));
    expect([...cache.keys()]).toEqual(kept);
  });
});
