import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { offlineEnvironment, runNode } from '../support/run-process.js';
import { createTempTree, removeTempTrees } from '../support/temp-tree.js';

/** `npm run bench:speed` end to end, one round, on trees built from a tiny bare repository. */

const REPOSITORY = join(import.meta.dirname, '../..');

afterAll(removeTempTrees);

describe('the speed benchmark', () => {
  it(
    'builds trees of the sizes asked for, then times the CLI, ripgrep and git on each',
    { timeout: 120_000 },
    async () => {
      const source = await createTempTree({
        'src/config.ts': 'export function loadConfiguration(text: string) {\n  return text;\n}\n',
        'src/null-pointer.ts': 'export const crash = null;\n',
        'docs/configuration.md': '# Configuration file\n',
        '.gitattributes': 'docs export-ignore\n',
      });
      const git = (...args: string[]) =>
        execFileSync('git', ['-C', source, '-c', 'user.name=t', '-c', 'user.email=t@e', ...args]);
      git('init', '-q');
      git('add', '-A');
      git('commit', '-qm', 'tiny');
      const mirrors = await createTempTree({});
      execFileSync('git', ['clone', '-q', '--bare', source, join(mirrors, 'owner+tiny', 'repo')]);
      const cache = await createTempTree({});
      const out = join(cache, 'speed.json');

      const measured = await runNode(
        [
          '--import',
          'tsx',
          'bench/speed.ts',
          '--repos',
          mirrors,
          '--sizes',
          '3,6',
          '--runs',
          '1',
          '--cache',
          cache,
          '--cli',
          'src/cli/main.ts',
          '--out',
          out,
        ],
        { cwd: REPOSITORY, env: offlineEnvironment() },
      );
      expect(measured.code, measured.stderr).toBe(0);
      const rows = measured.stdout.split('\n').filter((line) => /^\| [\d,]+ \/ /.test(line));
      // 6 files need the repository twice; export-ignore does not hide a file from the tree, and .gitattributes is left out.
      expect(rows.map((row) => row.split(' / ')[0])).toEqual(['| 3', '| 6']);
      const report = JSON.parse(await readFile(out, 'utf8')) as {
        rows: { filesRead: number; toolMs: number; phases: { read: number } }[];
      };
      for (const row of report.rows) {
        expect(row.filesRead).toBeGreaterThan(0);
        expect(row.toolMs).toBeGreaterThan(0);
      }
    },
  );
});
