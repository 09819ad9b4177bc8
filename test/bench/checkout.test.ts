import { execFileSync } from 'node:child_process';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { materialise } from '../../bench/repositories.js';
import { openWorkspace } from '../../src/repository/workspace.js';
import { createTempTree, removeTempTrees } from '../support/temp-tree.js';

/**
 * The benchmark searches each task's commit as a user's clone holds it: files a release archive
 * leaves out (`export-ignore`, often every test) and tracked files an ignore rule would hide from
 * a walk are there, and listed.
 */

const FILES = {
  '.gitattributes': '/tools export-ignore\n/tests export-ignore\n',
  '.gitignore': 'generated/\n',
  'src/parser.ts': 'export function parse(text: string) {\n  return text.split(",");\n}\n',
  'tools/gen-parser.ts': "// Writes src/parser.ts.\nexport const target = 'src/parser.ts';\n",
  'tests/parser.test.ts': "import { parse } from '../src/parser.js';\nparse('a,b');\n",
  'generated/table.ts': 'export const table = [1, 2, 3];\n',
};

let mirror: string;
let commit: string;

beforeAll(async () => {
  const work = await createTempTree(FILES);
  const git = (...args: string[]) =>
    execFileSync('git', ['-C', work, ...args], { encoding: 'utf8' }).trim();
  git('init', '-q');
  git('add', '.');
  // Tracked although ignored, as generated files often are.
  git('add', '-f', 'generated/table.ts');
  git('-c', 'user.name=bench', '-c', 'user.email=bench@example.com', 'commit', '-qm', 'parser');
  commit = git('rev-parse', 'HEAD');
  mirror = join(await createTempTree({}), 'mirror.git');
  execFileSync('git', ['clone', '-q', '--mirror', work, mirror]);
});
afterAll(removeTempTrees);

describe('the benchmark checkout of a task commit', () => {
  it('holds what export-ignore leaves out of an archive, and git lists tracked ignored files', async () => {
    const root = await materialise(mirror, 'acme/parser', commit, await createTempTree({}));

    expect(await readFile(join(root, 'tools/gen-parser.ts'), 'utf8')).toBe(
      FILES['tools/gen-parser.ts'],
    );
    const workspace = await openWorkspace(root, { maxFileBytes: 1_000_000, maxFiles: 1_000 });
    expect(workspace.files.map((file) => file.path).sort()).toEqual([
      '.gitattributes',
      '.gitignore',
      'generated/table.ts',
      'src/parser.ts',
      'tests/parser.test.ts',
      'tools/gen-parser.ts',
    ]);
  });

  it('is reused by a later run, and checked out again when it was left unfinished', async () => {
    const cache = await createTempTree({});
    const root = await materialise(mirror, 'acme/parser', commit, cache);
    await rm(join(root, 'src/parser.ts'));
    expect(await materialise(mirror, 'acme/parser', commit, cache)).toBe(root);
    await expect(readFile(join(root, 'src/parser.ts'))).rejects.toThrow();

    await rm(join(root, '.git', 'bench-checkout'));
    await materialise(mirror, 'acme/parser', commit, cache);
    expect(await readFile(join(root, 'src/parser.ts'), 'utf8')).toBe(FILES['src/parser.ts']);
  });
});
