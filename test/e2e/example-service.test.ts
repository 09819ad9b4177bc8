import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { iterativeRetrieve } from '../../src/index.js';
import { contextPackSchema } from '../../src/output/context-pack.js';
import { createRepository } from '../support/repository-factory.js';

const EXAMPLE = join(import.meta.dirname, '../fixtures/example-service');

describe('the bundled example, offline judge', () => {
  it('finds the four files of the token expiry bug', async () => {
    const pack = await iterativeRetrieve('Fix the authentication token expiry bug', {
      root: EXAMPLE,
    });
    const paths = pack.files.map((file) => file.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        'src/auth/auth-service.ts',
        'src/auth/tokens.ts',
        'src/auth/session-manager.ts',
        'src/auth/jwt-utils.ts',
      ]),
    );
    expect(paths.slice(0, 5)).toEqual(
      expect.arrayContaining([
        'src/auth/auth-service.ts',
        'src/auth/tokens.ts',
        'src/auth/session-manager.ts',
        'src/auth/jwt-utils.ts',
      ]),
    );
    // Cycle 1 finds the auth module; its imports of utilities are searched once, and as that
    // cycle adds no highly relevant file, the run stops.
    expect(pack.trace.map((cycle) => cycle.cycle)).toEqual([1, 2]);
    expect(pack.stopReason).toBe('no-new-relevant');
    expect(pack.trace[1]?.query.patterns).toContain('src/utils/dates.ts');
    // Every file the terms matched names its lines, so a caller can take more from `evaluated`.
    const matched = new Set(pack.trace[0]?.evaluated);
    for (const file of pack.evaluated.filter((each) => matched.has(each.path)))
      expect(file.lineRanges.length).toBeGreaterThan(0);
    expect(pack.warnings).toEqual([]);
    expect(() => contextPackSchema.parse(pack)).not.toThrow();
  });

  it('finds the throttle middleware, its index and the router set-up for "rate limiting"', async () => {
    const pack = await iterativeRetrieve('Add rate limiting to API endpoints', { root: EXAMPLE });
    // No file reaches 0.8 offline: the best one, the router set-up, is the core, and the
    // middleware is named as related, for the subagent to open.
    expect(pack.files.map((file) => file.path)).toEqual(['src/routes/index.ts']);
    expect(pack.related.map((file) => file.path)).toEqual(
      expect.arrayContaining(['src/middleware/throttle.ts', 'src/middleware/index.ts']),
    );
    expect(pack.related.find((file) => file.path === 'src/middleware/throttle.ts')?.reason).toMatch(
      /throttle/i,
    );
    // Only the router set-up reaches 0.7, so the loop refines; the refined search adds no file
    // that does, and the run stops there rather than spend a third cycle.
    expect(pack.trace.map((cycle) => cycle.cycle)).toEqual([1, 2]);
    expect(pack.stopReason).toBe('no-new-relevant');
    // The code never says "rate limit": the lexicon's "throttle" is what found it.
    expect(pack.trace[0]?.query.keywords).toEqual(
      expect.arrayContaining(['rate limit', 'throttle']),
    );
  });

  it('the example really never says "rate limit"', async () => {
    for (const path of [
      'src/middleware/throttle.ts',
      'src/middleware/index.ts',
      'src/routes/index.ts',
    ]) {
      expect(await readFile(join(EXAMPLE, path), 'utf8')).not.toMatch(/rate[\s_-]?limit/i);
    }
  });

  it('returns relevance-ordered files with reasons, excerpts and line ranges that point into the file', async () => {
    const pack = await iterativeRetrieve('Fix the authentication token expiry bug', {
      root: EXAMPLE,
    });
    const relevances = pack.evaluated.map((file) => file.relevance);
    expect(relevances).toEqual([...relevances].sort((left, right) => right - left));
    for (const file of pack.files) {
      expect(file.reason.length).toBeGreaterThan(0);
      expect(file.excerpt.length).toBeGreaterThan(0);
      const lines = (await readFile(join(EXAMPLE, file.path), 'utf8')).split('\n').length;
      for (const [start, end] of file.lineRanges)
        expect(1 <= start && start <= end && end <= lines).toBe(true);
    }
  });

  it('is deterministic', async () => {
    const strip = (pack: Awaited<ReturnType<typeof iterativeRetrieve>>) =>
      JSON.stringify({
        ...pack,
        timings: null,
        trace: pack.trace.map((cycle) => ({ ...cycle, durationMs: 0 })),
      });
    const first = await iterativeRetrieve('Fix the authentication token expiry bug', {
      root: EXAMPLE,
    });
    const second = await iterativeRetrieve('Fix the authentication token expiry bug', {
      root: EXAMPLE,
    });
    expect(strip(first)).toBe(strip(second));
  });
});

describe('when nothing can be found', () => {
  it('says that no file matched and suggests why', async () => {
    const repository = await createRepository({ 'src/a.ts': 'export const a = 1;\n' });
    try {
      const pack = await iterativeRetrieve('Fix the kubernetes helm chart', {
        root: repository.root,
      });
      expect(pack.files).toEqual([]);
      expect(pack.warnings.join(' ')).toMatch(/no file matched the task's terms/);
    } finally {
      await repository.remove();
    }
  });

  it('says when every file is ignored', async () => {
    const repository = await createRepository({
      '.gitignore': '*.ts\n',
      'src/a.ts': 'export const kubernetes = 1;\n',
    });
    try {
      const pack = await iterativeRetrieve('kubernetes', { root: repository.root });
      expect(pack.warnings.join(' ')).toMatch(/ignored/);
    } finally {
      await repository.remove();
    }
  });
});
