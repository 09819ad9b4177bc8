import { describe, expect, it } from 'vitest';
import { changePartners } from '../../src/history/change-partners.js';
import { MAX_FILES_PER_COMMIT } from '../../src/history/history-scores.js';

const commit = (...files: string[]) => ({ message: 'change', files });

describe('changePartners', () => {
  const history = [
    commit('src/parser.ts', 'src/registry.ts'),
    commit('src/parser.ts', 'src/registry.ts', 'test/parser.test.ts'),
    commit('src/parser.ts', 'test/parser.test.ts'),
    commit('src/parser.ts', 'docs/once.md'),
    commit('src/lexer.ts', 'src/registry.ts'),
  ];

  it('names the files changed with each file in two commits or more, most shared first', () => {
    expect(changePartners(history, ['src/parser.ts'], { limit: 3 })).toEqual(
      new Map([
        [
          'src/parser.ts',
          [
            { path: 'src/registry.ts', commits: 2 },
            { path: 'test/parser.test.ts', commits: 2 },
          ],
        ],
      ]),
    );
  });

  it('leaves out the excluded files and keeps at most `limit` partners', () => {
    const partners = changePartners(history, ['src/parser.ts'], {
      limit: 1,
      exclude: new Set(['src/registry.ts']),
    });
    expect(partners.get('src/parser.ts')).toEqual([{ path: 'test/parser.test.ts', commits: 2 }]);
  });

  it('names nothing for a file with no habitual partner, or none in the history', () => {
    expect(changePartners(history, ['src/lexer.ts', 'src/new.ts'], { limit: 3 }).size).toBe(0);
  });

  it('ignores commits too large to say which files belong together', () => {
    const sweep = Array.from({ length: MAX_FILES_PER_COMMIT }, (_, index) => `src/f${index}.ts`);
    const sweeps = [commit('src/a.ts', ...sweep), commit('src/a.ts', ...sweep)];
    expect(changePartners(sweeps, ['src/a.ts'], { limit: 3 }).size).toBe(0);
  });
});
