import { rename, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openWorkspace } from '../../src/repository/workspace.js';
import type { SkippedFiles, Workspace, WorkspaceOptions } from '../../src/repository/workspace.js';
import { AbortError, ConfigError, SearchError } from '../../src/errors.js';
import { listFiles, readFileWithin, readFileWithinSync } from '../../src/file-system/tree.js';
import { execFileSync } from 'node:child_process';
import { createTempTree, removeTempTrees } from '../support/temp-tree.js';

const OPTIONS: WorkspaceOptions = { maxFileBytes: 10_000, maxFiles: 1_000 };
const NOTHING_SKIPPED: SkippedFiles = {
  ignored: 0,
  secret: 0,
  binary: 0,
  tooLarge: 0,
  minified: 0,
  overLimit: 0,
};

function pathsOf(workspace: Workspace): string[] {
  return workspace.files.map((file) => file.path).sort();
}

/** Many short lines: plain source that is neither minified nor binary. */
function source(lines: number, text = 'export const value = 1;'): string {
  return Array.from({ length: lines }, () => text).join('\n');
}

afterEach(async () => {
  await removeTempTrees();
});

describe('openWorkspace', () => {
  it('refuses a missing root with its own error, a failed index load heard, not left to crash the process', async () => {
    const root = join(await createTempTree({}), 'missing');
    const index = Promise.reject(new Error('the index could not be loaded'));
    await expect(openWorkspace(root, { ...OPTIONS, index })).rejects.toThrow(SearchError);
    // An unheard rejection would be reported by now, and fail the run.
    await new Promise((resolve) => setTimeout(resolve, 20));
  });

  it('reads every plain source file, with POSIX paths relative to the root', async () => {
    const root = await createTempTree({
      'src/index.ts': "export { a } from './a.js';\n",
      'src/a.ts': 'export const a = 1;\n',
      'README.md': '# Readme\n',
    });
    const workspace = await openWorkspace(root, OPTIONS);
    expect(pathsOf(workspace)).toEqual(['README.md', 'src/a.ts', 'src/index.ts']);
    expect(workspace.skipped).toEqual(NOTHING_SKIPPED);
    expect(workspace.root).toBe(root);
    expect(workspace.get('src/a.ts')?.lines[0]).toBe('export const a = 1;');
    expect(workspace.get('src/missing.ts')).toBeUndefined();
    expect(workspace.imports.resolve('src/index.ts', './a.js')).toBe('src/a.ts');
  });

  describe('ignore files', () => {
    it.each([
      [
        'a root .gitignore',
        { '.gitignore': 'secret/\n*.log\n' },
        ['secret/key.ts', 'debug.log', 'src/trace.log'],
      ],
      [
        'a nested .gitignore',
        { 'pkg/.gitignore': 'generated.ts\n' },
        ['pkg/generated.ts', 'pkg/deep/generated.ts'],
      ],
      [
        '.git/info/exclude',
        { '.git/info/exclude': 'notes.md\nscratch/\n' },
        ['notes.md', 'scratch/try.ts'],
      ],
    ])('honours %s', async (_name, ignoreFiles: Record<string, string>, ignored: string[]) => {
      const kept = ['src/index.ts', 'generated.ts', 'other/generated.ts', 'pkg/index.ts'];
      const root = await createTempTree({
        ...ignoreFiles,
        ...Object.fromEntries([...kept, ...ignored].map((path) => [path, 'export {};\n'])),
      });
      const workspace = await openWorkspace(root, OPTIONS);
      const paths = pathsOf(workspace);
      for (const path of kept) expect(paths).toContain(path);
      for (const path of ignored) expect(paths).not.toContain(path);
      expect(workspace.skipped).toEqual({ ...NOTHING_SKIPPED, ignored: ignored.length });
    });

    it('lets a nested negation re-include what the root ignores', async () => {
      const root = await createTempTree({
        '.gitignore': '*.log\n',
        'logs/.gitignore': '!keep.log\n',
        'logs/keep.log': 'kept\n',
        'logs/drop.log': 'dropped\n',
        'keep.log': 'dropped\n',
      });
      const workspace = await openWorkspace(root, OPTIONS);
      expect(pathsOf(workspace)).toEqual(['.gitignore', 'logs/.gitignore', 'logs/keep.log']);
      expect(workspace.skipped.ignored).toBe(2);
    });

    it('never reads the .git directory itself', async () => {
      const root = await createTempTree({
        '.git/HEAD': 'ref: refs/heads/main\n',
        '.git/config': '[core]\n',
        'src/index.ts': 'export {};\n',
      });
      const workspace = await openWorkspace(root, OPTIONS);
      expect(pathsOf(workspace)).toEqual(['src/index.ts']);
    });
  });

  describe('default exclusions', () => {
    it.each([
      'node_modules/left-pad/index.js',
      'packages/app/node_modules/react/index.js',
      'dist/index.js',
      'packages/app/dist/index.js',
      'package-lock.json',
      'yarn.lock',
      'pnpm-lock.yaml',
      'go.sum',
      'public/vendor.min.js',
      'styles/site.min.css',
      'dist/index.js.map',
    ])('leaves out %s without reading it', async (path) => {
      const root = await createTempTree({
        [path]: 'module.exports = {};\n',
        'src/index.ts': 'export {};\n',
      });
      const workspace = await openWorkspace(root, OPTIONS);
      expect(pathsOf(workspace)).toEqual(['src/index.ts']);
      // Default exclusions are never listed, so they are not among the skipped counts either.
      expect(workspace.skipped).toEqual(NOTHING_SKIPPED);
    });

    it('honours extra exclude globs', async () => {
      const root = await createTempTree({
        'src/index.ts': 'export {};\n',
        'src/index.generated.ts': 'export {};\n',
        'fixtures/big.json': '{}\n',
      });
      const workspace = await openWorkspace(root, {
        ...OPTIONS,
        excludes: ['**/*.generated.ts', 'fixtures/**'],
      });
      expect(pathsOf(workspace)).toEqual(['src/index.ts']);
    });
  });

  describe('files that are not worth reading', () => {
    it.each<[string, string, string | Uint8Array, keyof SkippedFiles]>([
      ['a binary extension', 'assets/logo.png', 'not really a png\n', 'binary'],
      ['a NUL byte', 'data/blob.txt', 'header\u0000payload\n', 'binary'],
      ['a NUL byte in a buffer', 'src/odd.ts', Uint8Array.from([101, 120, 0, 112, 10]), 'binary'],
      ['more than maxFileBytes', 'src/huge.ts', source(600), 'tooLarge'],
      [
        'a minified one-line bundle',
        'public/bundle.js',
        `var a=1;${'a+=1;'.repeat(1_000)}\n`,
        'minified',
      ],
    ])('skips a file with %s and counts it', async (_reason, path, content, reason) => {
      const root = await createTempTree({ [path]: content, 'src/index.ts': 'export {};\n' });
      const workspace = await openWorkspace(root, OPTIONS);
      expect(pathsOf(workspace)).toEqual(['src/index.ts']);
      expect(workspace.skipped).toEqual({ ...NOTHING_SKIPPED, [reason]: 1 });
    });

    it('keeps a long file of many short lines, and a file exactly maxFileBytes long', async () => {
      const root = await createTempTree({
        'src/long.ts': source(300),
        'src/exact.ts': 'x'.repeat(99) + '\n',
      });
      const workspace = await openWorkspace(root, { ...OPTIONS, maxFileBytes: 100 });
      expect(pathsOf(workspace)).toEqual(['src/exact.ts']);
      expect(workspace.skipped).toEqual({ ...NOTHING_SKIPPED, tooLarge: 1 });

      const roomy = await openWorkspace(root, OPTIONS);
      expect(pathsOf(roomy)).toEqual(['src/exact.ts', 'src/long.ts']);
      expect(roomy.get('src/long.ts')?.lines).toHaveLength(300);
    });

    it('counts each reason separately', async () => {
      const root = await createTempTree({
        '.gitignore': 'ignored/\n',
        'ignored/a.ts': 'export {};\n',
        'ignored/b.ts': 'export {};\n',
        'logo.png': 'png',
        'blob.bin.txt': 'a\u0000b',
        'huge.ts': source(600),
        'bundle.js': 'x'.repeat(5_000),
        'src/index.ts': 'export {};\n',
      });
      const workspace = await openWorkspace(root, OPTIONS);
      expect(pathsOf(workspace)).toEqual(['.gitignore', 'src/index.ts']);
      expect(workspace.skipped).toEqual({
        // the directory, once: the walk never enters it
        ignored: 1,
        secret: 0,
        binary: 2,
        tooLarge: 1,
        minified: 1,
        overLimit: 0,
      });
    });
  });

  describe('maxFiles', () => {
    it.each([
      [1, ['a.ts'], 4],
      [3, ['a.ts', 'b.ts', 'c.ts'], 2],
      [5, ['a.ts', 'b.ts', 'c.ts', 'd.ts', 'e.ts'], 0],
      [50, ['a.ts', 'b.ts', 'c.ts', 'd.ts', 'e.ts'], 0],
    ])(
      'reads at most %i files and counts the rest as overLimit',
      async (maxFiles, read, overLimit) => {
        const root = await createTempTree(
          Object.fromEntries(
            ['e.ts', 'c.ts', 'a.ts', 'd.ts', 'b.ts'].map((path) => [path, 'export {};\n']),
          ),
        );
        const workspace = await openWorkspace(root, { ...OPTIONS, maxFiles });
        expect(pathsOf(workspace)).toEqual(read);
        expect(workspace.skipped).toEqual({ ...NOTHING_SKIPPED, overLimit });
      },
    );

    it('does not spend the limit on ignored or oversized files', async () => {
      const root = await createTempTree({
        '.gitignore': 'a-ignored.ts\n',
        'a-ignored.ts': 'export {};\n',
        'b-huge.ts': source(600),
        'c.ts': 'export {};\n',
        'd.ts': 'export {};\n',
      });
      const workspace = await openWorkspace(root, { ...OPTIONS, maxFiles: 2 });
      // Source before configuration: `.gitignore` is the one left out.
      expect(pathsOf(workspace)).toEqual(['c.ts', 'd.ts']);
      expect(workspace.skipped).toEqual({
        ...NOTHING_SKIPPED,
        ignored: 1,
        tooLarge: 1,
        overLimit: 1,
      });
    });

    // Before: the first paths alphabetically were read, so a file sorted last was never found.
    it('over the limit, leaves out docs, tests and generated files before source, not by name', async () => {
      const root = await createTempTree({
        'a-docs/guide.md': '# Guide\n',
        'a-docs/api.md': '# API\n',
        'b-tests/service.test.ts': 'export {};\n',
        'fixtures/sample.ts': 'export {};\n',
        'src/generated/client.ts': 'export {};\n',
        'zz/deep/inside/util.ts': 'export {};\n',
        'zz/token-service.ts': 'export const refresh = 1;\n',
      });
      const workspace = await openWorkspace(root, { ...OPTIONS, maxFiles: 3 });
      expect(pathsOf(workspace)).toEqual([
        'b-tests/service.test.ts',
        'zz/deep/inside/util.ts',
        'zz/token-service.ts',
      ]);
      expect(workspace.skipped.overLimit).toBe(4);
    });

    // Before: shallow paths were kept first, so a deep package the task is about was left out.
    it('over the limit, keeps a path that shares a word with the task before shallower source', async () => {
      const root = await createTempTree({
        'a.ts': 'export const a = 1;\n',
        'b.ts': 'export const b = 1;\n',
        'c.ts': 'export const c = 1;\n',
        'docs/invoices.md': '# Invoices\n',
        'packages/billing/src/invoice-rounding.ts': 'export const round = 1;\n',
      });
      const task = 'Invoice totals are rounded wrong when a discount applies';
      const workspace = await openWorkspace(root, { ...OPTIONS, maxFiles: 3, task });
      expect(pathsOf(workspace)).toEqual([
        'a.ts',
        'docs/invoices.md',
        'packages/billing/src/invoice-rounding.ts',
      ]);
      // The same tree without the task keeps the shallow source: the choice is the task's.
      const without = await openWorkspace(root, { ...OPTIONS, maxFiles: 3 });
      expect(pathsOf(without)).toEqual(['a.ts', 'b.ts', 'c.ts']);
    });
  });

  describe('reads within bounds', () => {
    it.runIf(process.platform === 'linux')(
      'does not trust a size of 0: a file of /proc is cut at the byte limit',
      async () => {
        expect(await readFileWithin('/proc/self', 'status', 64)).toEqual({ skipped: 'too-large' });
        const read = await readFileWithin('/proc/self', 'status', 100_000);
        expect('bytes' in read && read.bytes.length).toBeGreaterThan(64);
        // The same synchronously, as a worker reads: read whole, past the size it claims.
        expect(readFileWithinSync('/proc/self', 'status', 64)).toEqual({ skipped: 'too-large' });
        const again = readFileWithinSync('/proc/self', 'status', 100_000);
        expect('bytes' in again && again.bytes.toString('utf8')).toMatch(/^Name:[\s\S]*\nPid:/);
      },
    );

    it.runIf(process.platform !== 'win32')(
      'skips a named pipe without waiting for a writer',
      async () => {
        const root = await createTempTree({ 'src/a.ts': 'export const a = 1;\n' });
        execFileSync('mkfifo', [join(root, 'src/pipe.ts')]);
        expect(await readFileWithin(root, 'src/pipe.ts', 1000)).toEqual({ skipped: 'unreadable' });
        const workspace = await openWorkspace(root, OPTIONS);
        expect(pathsOf(workspace)).toEqual(['src/a.ts']);
      },
    );

    it.runIf(process.platform !== 'win32')(
      'does not read a file reached through a directory swapped for a link after the listing',
      async () => {
        const base = await createTempTree({
          'root/sub/a.ts': 'export const inside = 1;\n',
          'outside/a.ts': 'export const secret = 1;\n',
        });
        const root = join(base, 'root');
        const [listed] = await listFiles(root);
        await rename(join(root, 'sub'), join(root, 'sub-before'));
        await symlink(join(base, 'outside'), join(root, 'sub'));
        expect(listed?.path).toBe('sub/a.ts');
        expect(await readFileWithin(root, 'sub/a.ts', 1000, listed?.identity)).toEqual({
          skipped: 'unreadable',
        });
        // What the check prevents: the same path now opens the file outside the root.
        const unchecked = await readFileWithin(root, 'sub/a.ts', 1000);
        expect('bytes' in unchecked && unchecked.bytes.toString()).toContain('secret');
      },
    );

    it('counts a file that grew past the limit after it was listed as too large', async () => {
      const root = await createTempTree({ 'a.ts': 'x'.repeat(2_000) });
      expect(await readFileWithin(root, 'a.ts', 1_000)).toEqual({ skipped: 'too-large' });
    });
  });

  describe('errors', () => {
    it.each(['/', '/proc', '/proc/self', '/sys', '/dev'])(
      'refuses %s as a root, before reading anything',
      async (root) => {
        const error = await openWorkspace(root, OPTIONS).catch((caught: unknown) => caught);
        expect(error).toBeInstanceOf(ConfigError);
        expect(error).toMatchObject({ option: 'root' });
      },
    );

    it('reports a SearchError naming a missing root', async () => {
      const parent = await createTempTree({});
      const missing = join(parent, 'does-not-exist');
      const error = await openWorkspace(missing, OPTIONS).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(SearchError);
      expect(error).toMatchObject({
        path: missing,
        message: expect.stringContaining('does not exist'),
      });
    });

    it('reports a SearchError for a root that is a file', async () => {
      const parent = await createTempTree({});
      const file = join(parent, 'file.ts');
      await writeFile(file, 'export {};\n');
      const error = await openWorkspace(file, OPTIONS).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(SearchError);
      expect(error).toMatchObject({
        path: file,
        message: expect.stringContaining('not a directory'),
      });
    });

    it('stops with an AbortError when the signal is already aborted', async () => {
      const root = await createTempTree({ 'src/index.ts': 'export {};\n' });
      const controller = new AbortController();
      controller.abort();
      await expect(
        openWorkspace(root, { ...OPTIONS, signal: controller.signal }),
      ).rejects.toBeInstanceOf(AbortError);
    });

    it('reads a large tree through the reader worker: the same files, and it stops when aborted', async () => {
      const files = Object.fromEntries(
        Array.from({ length: 600 }, (_, index) => [
          `src/f${index}.ts`,
          `export const v${index} = ${index};\n`,
        ]),
      );
      const root = await createTempTree({
        ...files,
        'src/blob.bin.ts': new Uint8Array([0, 1, 2, 0]),
      });
      const workspace = await openWorkspace(root, OPTIONS);
      expect(workspace.files.map((file) => file.path).sort()).toEqual(Object.keys(files).sort());
      expect(workspace.get('src/f7.ts')?.text).toBe('export const v7 = 7;\n');
      expect(workspace.skipped.binary).toBe(1);

      const controller = new AbortController();
      setImmediate(() => controller.abort());
      await expect(
        openWorkspace(root, { ...OPTIONS, signal: controller.signal }),
      ).rejects.toBeInstanceOf(AbortError);
    });

    it('opens an empty directory as an empty workspace', async () => {
      const root = await createTempTree({});
      const workspace = await openWorkspace(root, OPTIONS);
      expect(workspace.files).toEqual([]);
      expect(workspace.skipped).toEqual(NOTHING_SKIPPED);
      expect(workspace.averageLineCount).toBe(1);
    });
  });
});
