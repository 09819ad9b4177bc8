import { execFileSync } from 'node:child_process';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseGitLog, readGitHistory } from '../../src/history/git-log.js';
import { scoreFilesByHistory } from '../../src/history/history-scores.js';
import { createTempTree, removeTempTrees } from '../support/temp-tree.js';
import { type PastCommit } from '../../src/contracts/overview.js';

afterEach(removeTempTrees);

/** A git repository with one commit per entry: its message and the files it writes. */
async function gitRepository(commits: [message: string, files: Record<string, string>][]) {
  const root = await createTempTree({});
  const git = (...args: string[]) =>
    execFileSync(
      'git',
      ['-C', root, '-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args],
      {
        encoding: 'utf8',
      },
    ).trim();
  git('init', '-q');
  const revisions: string[] = [];
  for (const [message, files] of commits) {
    for (const [path, text] of Object.entries(files)) {
      await mkdir(join(root, path, '..'), { recursive: true });
      await writeFile(join(root, path), text);
    }
    git('add', '.');
    git('commit', '-qm', message);
    revisions.push(git('rev-parse', 'HEAD'));
  }
  return { root, revisions };
}

describe('parseGitLog', () => {
  it.each<[string, string, PastCommit[]]>([
    ['nothing', '', []],
    [
      'two commits, newest first, body kept',
      '\x1eFix order\n\nKeyed children moved.\x1d\n\nsrc/a.js\nsrc/b.js\n\x1eAdd docs\n\x1d\n\nREADME.md\n',
      [
        { message: 'Fix order\n\nKeyed children moved.', files: ['src/a.js', 'src/b.js'] },
        { message: 'Add docs', files: ['README.md'] },
      ],
    ],
    ['a commit that changed no file', '\x1eEmpty\n\x1d\n', [{ message: 'Empty', files: [] }]],
  ])('reads %s', (_case, output, expected) => {
    expect(parseGitLog(output)).toEqual(expected);
    expect(parseGitLog(Buffer.from(output))).toEqual(expected);
  });
});

describe('readGitHistory', () => {
  it('reads the commits of the root, newest first, with the files each changed', async () => {
    const { root } = await gitRepository([
      ['Initial', { 'src/a.js': 'a', 'README.md': 'r' }],
      ['Fix the token expiry check', { 'src/a.js': 'b' }],
    ]);
    expect((await readGitHistory({ root, maxCommits: 10 })).commits).toEqual([
      { message: 'Fix the token expiry check', files: ['src/a.js'] },
      { message: 'Initial', files: ['README.md', 'src/a.js'] },
    ]);
  });

  it('gives paths relative to a root inside a larger repository, and only its files', async () => {
    const { root } = await gitRepository([['Initial', { 'app/src/a.js': 'a', 'other/b.js': 'b' }]]);
    expect((await readGitHistory({ root: join(root, 'app'), maxCommits: 10 })).commits).toEqual([
      { message: 'Initial', files: ['src/a.js'] },
    ]);
  });

  it('reads a git directory up to a revision, and nothing after it', async () => {
    const { root, revisions } = await gitRepository([
      ['First', { 'a.js': '1' }],
      ['Second', { 'b.js': '2' }],
    ]);
    const history = await readGitHistory({
      root: '/nonexistent',
      gitDirectory: join(root, '.git'),
      revision: revisions[0],
      maxCommits: 10,
    });
    expect(history).toEqual({ commits: [{ message: 'First', files: ['a.js'] }] });
  });

  it.each([
    ['a directory outside git', async () => createTempTree({ 'a.js': 'a' })],
    ['a directory that does not exist', async () => '/nonexistent/project'],
  ])('is empty for %s', async (_case, makeRoot) => {
    // No history to read is no evidence, and nothing to warn about.
    expect(await readGitHistory({ root: await makeRoot(), maxCommits: 10 })).toEqual({
      commits: [],
    });
  });

  it('never reads a revision as an option', async () => {
    const { root } = await gitRepository([['One', { 'a.js': '1' }]]);
    const written = join(root, 'written-by-git.txt');
    const history = await readGitHistory({ root, revision: `--output=${written}`, maxCommits: 5 });
    expect(history.commits).toEqual([]);
    expect(history.warning).toMatch(/the git history could not be read/);
    await expect(readFile(written)).rejects.toThrow();
  });

  it('keeps at most maxCommits, the newest', async () => {
    const { root } = await gitRepository([
      ['One', { 'a.js': '1' }],
      ['Two', { 'a.js': '2' }],
      ['Three', { 'a.js': '3' }],
    ]);
    const history = await readGitHistory({ root, maxCommits: 2 });
    expect(history.commits.map((commit) => commit.message)).toEqual(['Three', 'Two']);
  });

  it('stops at a byte limit, keeps the whole commits read and says so', async () => {
    const { root } = await gitRepository([
      ['One', { 'a.js': '1' }],
      ['Two', { 'b.js': '2' }],
      ['Three', { 'c.js': '3' }],
    ]);
    const history = await readGitHistory({ root, maxCommits: 10, maxBytes: 40 });
    expect(history.commits.length).toBeGreaterThan(0);
    expect(history.commits.length).toBeLessThan(3);
    expect(history.commits[0]).toEqual({ message: 'Three', files: ['c.js'] });
    expect(history.warning).toMatch(/the git history was cut at \d commits/);
  });

  // Before: `git log` had 10 s of wall time; on a busy machine a large history was dropped
  // without a word, and rankings changed with the load.
  it('waits for a slow git instead of dropping the history', { timeout: 30_000 }, async () => {
    const bin = await createTempTree({
      git: `#!/bin/sh\nsleep 10.5\nprintf '\\036Fix the token expiry\\n\\035\\nsrc/a.js\\n'\n`,
    });
    await chmod(join(bin, 'git'), 0o755);
    const path = process.env.PATH;
    process.env.PATH = `${bin}:${path}`;
    try {
      const history = await readGitHistory({ root: bin, maxCommits: 10 });
      expect(history).toEqual({
        commits: [{ message: 'Fix the token expiry', files: ['src/a.js'] }],
      });
    } finally {
      process.env.PATH = path;
    }
  });
});

describe('scoreFilesByHistory', () => {
  const commits: PastCommit[] = [
    { message: 'Fix keyed children losing their order on re-render', files: ['src/children.js'] },
    { message: 'Fix props diffing for style objects', files: ['src/props.js'] },
    { message: 'Fix typo', files: ['README.md'] },
    {
      message: 'Reformat every file: order imports',
      files: Array.from({ length: 30 }, (_, index) => `src/f${index}.js`),
    },
  ];

  it('points at the files that commits like the task changed, the best at share 1', () => {
    const scores = scoreFilesByHistory(
      commits,
      'Children render in the wrong order after re-render',
    );
    expect(scores.get('src/children.js')).toEqual({
      share: 1,
      commits: 1,
      example: 'Fix keyed children losing their order on re-render',
    });
    expect(scores.has('src/props.js')).toBe(false);
  });

  it('ignores commits that changed too many files to say anything specific', () => {
    const scores = scoreFilesByHistory(commits, 'Imports order');
    expect(scores.has('src/f0.js')).toBe(false);
  });

  it('weighs a rare word above a word every commit uses', () => {
    const scores = scoreFilesByHistory(commits, 'Fix style objects');
    expect(scores.get('src/props.js')?.share).toBe(1);
    expect(scores.get('README.md')?.share ?? 0).toBeLessThan(0.5);
  });

  it('is empty without history or without shared words', () => {
    expect(scoreFilesByHistory([], 'anything').size).toBe(0);
    expect(scoreFilesByHistory(commits, 'kubernetes helm chart').size).toBe(0);
  });

  it('scores a long history that changed more files than a function call takes arguments', () => {
    // `maxHistoryCommits` has no upper bound: 20,000 similar commits of 10 files each.
    const long = Array.from({ length: 20_000 }, (_, commit) => ({
      message: 'Fix the parser',
      files: Array.from({ length: 10 }, (_, file) => `src/c${commit}/f${file}.js`),
    }));
    const scores = scoreFilesByHistory(long, 'The parser fails');
    expect(scores.size).toBe(200_000);
    expect(scores.get('src/c0/f0.js')?.share).toBe(1);
  });
});
