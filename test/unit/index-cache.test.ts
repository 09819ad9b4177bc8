import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { indexFileOf } from '../../src/file-system/index-store.js';
import { loadIndex } from '../../src/repository/index-cache.js';

// Decoding fails as a crafted index can make it fail, past the checks that refuse one: with an
// error of the runtime's own (a section decoded to a string longer than V8 allows).
vi.mock('../../src/repository/word-index.js', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../src/repository/word-index.js')>()),
  decodeIndex: () => {
    throw new RangeError('Invalid string length');
  },
}));

const directories: string[] = [];
afterAll(async () => {
  await Promise.all(directories.map((directory) => rm(directory, { recursive: true })));
});

describe('loadIndex', () => {
  it('takes any failure to decode an index for a damaged one, built again, not a failed run', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'index-cache-'));
    directories.push(directory);
    await writeFile(indexFileOf(directory, '/some/root'), 'bytes', { mode: 0o600 });
    expect(await loadIndex({ directory, maxBytes: 1e9 }, '/some/root')).toEqual({
      index: undefined,
      problem: 'Invalid string length',
    });
  });
});
