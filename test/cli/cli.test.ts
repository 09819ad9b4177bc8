import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CliIo } from '../../src/cli/cli-io.js';
import { contextPackSchema } from '../../src/output/context-pack.js';
import { createRepository } from '../support/repository-factory.js';
import { runInProcess } from './run-in-process.js';

const EXAMPLE = join(import.meta.dirname, '../fixtures/example-service');

const cli = runInProcess;

describe('the CLI', () => {
  it('prints the context pack as JSON when stdout is not a terminal, with JSON logs on stderr', async () => {
    const run = await cli(['Fix the authentication token expiry bug', '--root', EXAMPLE]);
    expect(run.code).toBe(0);
    const pack = contextPackSchema.parse(JSON.parse(run.stdout));
    expect(pack.files.map((file) => file.path)).toContain('src/auth/tokens.ts');
    const logs = run.stderr
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { msg: string; judge?: string; because?: string });
    expect(logs.find((line) => line.msg === 'judge chosen')).toMatchObject({
      judge: 'heuristic',
      because: 'no ANTHROPIC_API_KEY configured',
    });
  });

  it('shows markdown and human progress on a terminal', async () => {
    const run = await cli(['Fix the authentication token expiry bug', '--root', EXAMPLE], {
      terminal: true,
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^# /);
    expect(run.stderr).toContain(
      'iterative-retrieval: judge: heuristic (no ANTHROPIC_API_KEY configured)',
    );
    expect(run.stderr).toMatch(/cycle 1: \d+ candidates/);
    expect(run.stderr).toMatch(/done \(no-new-relevant\): \d+ files/);
  });

  it.each([
    ['standard input', [], { stdin: 'Fix the authentication token expiry bug\n' }],
    ['an argument', ['Fix the authentication token expiry bug'], {}],
  ])('reads the task from %s', async (_source, argv, io) => {
    const run = await cli([...argv, '--root', EXAMPLE, '--format', 'paths'], io);
    expect(run.code).toBe(0);
    expect(run.stdout.split('\n')).toContain('src/auth/tokens.ts');
  });

  it('reads the task from --task-file', async () => {
    const repository = await createRepository({
      'task.md': 'Fix the authentication token expiry bug\n',
    });
    try {
      const run = await cli([
        '--task-file',
        join(repository.root, 'task.md'),
        '--root',
        EXAMPLE,
        '--format',
        'paths',
      ]);
      expect(run.stdout.split('\n')).toContain('src/auth/tokens.ts');
    } finally {
      await repository.remove();
    }
  });

  it('passes the tuning options through', async () => {
    const run = await cli([
      'Fix the authentication token expiry bug',
      '--root',
      EXAMPLE,
      '--max-cycles',
      '1',
      '--max-files',
      '2',
      '--min-relevance',
      '0.8',
    ]);
    const pack = contextPackSchema.parse(JSON.parse(run.stdout));
    expect(pack.trace).toHaveLength(1);
    expect(pack.files.length).toBeLessThanOrEqual(2);
    expect(pack.files.every((file) => file.relevance >= 0.8)).toBe(true);
  });

  it('hands over the core in `files` and names the rest in `related`; `--related` adds them to the paths', async () => {
    const task = 'Fix the authentication token expiry bug';
    const json = await cli([task, '--root', EXAMPLE]);
    const pack = contextPackSchema.parse(JSON.parse(json.stdout));
    expect(pack.schemaVersion).toBe(4);
    expect(pack.files.length).toBeGreaterThan(0);
    expect(pack.files.length).toBeLessThanOrEqual(5);
    expect(pack.files.slice(1).every((file) => file.relevance >= 0.8)).toBe(true);
    expect(pack.related.every((file) => file.relevance >= 0.5 && !('excerpt' in file))).toBe(true);
    const core = pack.files.map((file) => `${file.path}\n`).join('');
    const related = pack.related.map((file) => `${file.path}\n`).join('');
    expect((await cli([task, '--root', EXAMPLE, '--format', 'paths'])).stdout).toBe(core);
    const withRelated = await cli([task, '--root', EXAMPLE, '--format', 'paths', '--related']);
    expect(withRelated.stdout).toBe(core + related);
    expect(withRelated.code).toBe(0);
  });

  it.each([
    ['--help', 0, /Usage: iterative-retrieval/],
    ['--version', 0, /^9\.9\.9\n$/],
    ['--schema', 0, /"schemaVersion"/],
  ])('%s exits 0 and prints to stdout', async (flag, code, stdout) => {
    const run = await cli([flag]);
    expect(run.code).toBe(code);
    expect(run.stdout).toMatch(stdout);
  });

  it.each<[string, string[], Partial<CliIo> & { stdin?: string }, number, RegExp]>([
    ['a missing task', ['--root', EXAMPLE], {}, 2, /missing task/],
    ['an empty task', ['   ', '--root', EXAMPLE], {}, 2, /task is empty/],
    ['empty standard input', ['--root', EXAMPLE], { stdin: '' }, 2, /missing task/],
    ['an unknown option', ['task', '--bogus'], {}, 2, /unknown option `--bogus`/],
    [
      'a cycle count of zero',
      ['task', '--max-cycles', '0'],
      {},
      2,
      /`--max-cycles` must be a whole number between 1 and 10 \(got "0"\)/,
    ],
    [
      'a threshold that is not a number',
      ['task', '--threshold', 'high'],
      {},
      2,
      /`--threshold` must be a number between 0 and 1/,
    ],
    [
      'an unknown format',
      ['task', '--format', 'yaml'],
      {},
      2,
      /`--format` must be one of json, markdown, paths/,
    ],
    [
      'an unknown judge',
      ['task', '--judge', 'gpt'],
      {},
      2,
      /`--judge` must be one of auto, heuristic, claude/,
    ],
    [
      'the Claude judge without an API key',
      ['task', '--judge', 'claude'],
      {},
      2,
      /`--judge claude` needs an Anthropic API key: set ANTHROPIC_API_KEY/,
    ],
    ['two tasks', ['one', 'two'], {}, 2, /expected one task argument/],
    [
      'a core relevance above 1',
      ['task', '--core-relevance', '1.5'],
      {},
      2,
      /`--core-relevance` must be a number between 0 and 1 \(got "1.5"\)/,
    ],
    [
      'more related files than a hand-over lists',
      ['task', '--max-related', '51'],
      {},
      2,
      /`--max-related` must be a whole number between 0 and 50 \(got "51"\)/,
    ],
    [
      '`--related` without `--format paths`',
      ['task', '--related', '--format', 'json'],
      {},
      2,
      /`--related` adds the related files to `--format paths`; json and markdown always list them \(got "json"\)/,
    ],
    [
      'a zero --timeout',
      ['task', '--timeout', '0'],
      {},
      2,
      /`--timeout` must be a number more than 0 and at most 86400 \(got "0"\)/,
    ],
    [
      'a task after `mcp`',
      ['mcp', 'find the bug'],
      {},
      2,
      /`mcp` takes no task argument \(got "find the bug"\)/,
    ],
    [
      'a root that does not exist',
      ['task', '--root', '/nonexistent/repository'],
      {},
      3,
      /root `\/nonexistent\/repository` does not exist/,
    ],
    [
      'a root that is a file',
      ['task', '--root', join(EXAMPLE, 'package.json')],
      {},
      3,
      /is not a directory/,
    ],
    [
      'a task file that does not exist',
      ['--task-file', '/nonexistent/task.md'],
      {},
      3,
      /cannot read `\/nonexistent\/task.md`/,
    ],
  ])('rejects %s with its exit code and one clear line', async (_case, argv, io, code, message) => {
    const run = await cli(argv, io);
    expect(run.code).toBe(code);
    const said = run.stderr
      .split('\n')
      .filter((line) => line.startsWith('iterative-retrieval: error:'));
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(message);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(run.stdout).toBe('');
  });

  it.each(['--help', '--version', '--schema'])(
    'keeps stdout clean for the hook: `hook %s` writes to stderr',
    async (flag) => {
      const run = await cli(['hook', flag]);
      expect(run.code).toBe(0);
      expect(run.stdout).toBe('');
      expect(run.stderr.length).toBeGreaterThan(0);
    },
  );

  it('exits 1 and explains when nothing relevant is found', async () => {
    const repository = await createRepository({ 'src/a.ts': 'export const a = 1;\n' });
    try {
      const run = await cli(
        ['Fix the kubernetes helm chart', '--root', repository.root, '--format', 'paths'],
        { terminal: true },
      );
      expect(run.code).toBe(1);
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(/warning: no file matched the task's terms/);
    } finally {
      await repository.remove();
    }
  });

  it('exits 130 when interrupted before any file was judged', async () => {
    const controller = new AbortController();
    controller.abort();
    const run = await cli(['Fix the authentication token expiry bug', '--root', EXAMPLE], {
      signal: controller.signal,
    });
    expect(run.code).toBe(130);
    expect(run.stderr).toMatch(/error: interrupted while reading the repository/);
  });

  it('honours --exclude', async () => {
    const repository = await createRepository({
      'src/token.ts': 'export const token = 1;\n',
      'legacy/token.ts': 'export const token = 2;\n',
    });
    try {
      await writeFile(join(repository.root, 'README.md'), 'token\n');
      const run = await cli([
        'token',
        '--root',
        repository.root,
        '--exclude',
        'legacy/**',
        '--format',
        'json',
      ]);
      const pack = contextPackSchema.parse(JSON.parse(run.stdout));
      expect(pack.evaluated.map((file) => file.path)).not.toContain('legacy/token.ts');
      expect(pack.evaluated.map((file) => file.path)).toContain('src/token.ts');
    } finally {
      await repository.remove();
    }
  });
});
