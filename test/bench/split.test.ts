import { describe, expect, it } from 'vitest';
import { languageOf, mainLanguageOf } from '../../bench/languages.js';
import { sampleByRepository } from '../../bench/sample.js';
import { sideOf, splitRepositories, TUNED_FILE, type SplitTask } from '../../bench/split.js';

// Made-up repositories: the split is a rule, so any names show it.
const task = (repo: string, gold: string[], file = 'tasks.other.jsonl'): SplitTask => ({
  repo,
  gold_files: gold,
  file,
});

describe('the language of a file and of a task', () => {
  it.each([
    ['src/a.ts', 'TypeScript'],
    ['lib/b.JS', 'JavaScript'],
    ['pkg/c.go', 'Go'],
    ['include/d.hpp', 'C++'],
    ['src/e.h', 'C'],
    ['f.rb', 'Ruby'],
    ['README.md', undefined],
    ['.gitignore', undefined],
    ['Makefile', undefined],
  ])('%s is %s', (path, language) => {
    expect(languageOf(path)).toBe(language);
  });

  it('takes the most common language of the changed files, the first on a tie', () => {
    expect(mainLanguageOf(['a.go', 'b.go', 'c.c'])).toBe('Go');
    expect(mainLanguageOf(['a.rs', 'b.py'])).toBe('Rust');
    expect(mainLanguageOf(['docs/a.md'])).toBe('other');
  });
});

describe('the split by repository', () => {
  const tasks = [
    ...['one', 'two', 'three', 'four', 'five', 'six'].map((name) => task(`go/${name}`, ['x.go'])),
    task('rust/only', ['src/lib.rs']),
    task('js/tuned', ['index.js'], TUNED_FILE),
    task('js/other', ['lib/a.js']),
    task('js/third', ['lib/b.js']),
  ];
  const split = splitRepositories(tasks);
  const sides = (prefix: string) =>
    [...split].filter(([repo]) => repo.startsWith(prefix)).map(([, side]) => side);

  it('keeps a third of each language (at least one) for tuning and holds out the rest', () => {
    expect(sides('go/').filter((side) => side === 'tuning')).toHaveLength(2);
    expect(sides('go/').filter((side) => side === 'held-out')).toHaveLength(4);
  });

  it('holds out a language with one repository whole', () => {
    expect(sideOf(split, 'rust/only')).toBe('held-out');
  });

  it('counts the repositories tuned on before the split as tuning, and adds none beyond a third', () => {
    expect(sideOf(split, 'js/tuned')).toBe('tuning');
    expect(sideOf(split, 'JS/Other')).toBe('held-out');
    expect(sideOf(split, 'js/third')).toBe('held-out');
  });

  it('is the same whatever order the tasks come in', () => {
    expect([...splitRepositories([...tasks].reverse())].sort()).toEqual([...split].sort());
  });
});

describe('a sample stratified by repository', () => {
  const tasks = [
    ...Array.from({ length: 10 }, (_, index) => ({ repo: 'big/one', instance_id: `big-${index}` })),
    { repo: 'small/a', instance_id: 'a-1' },
    { repo: 'small/b', instance_id: 'b-1' },
    { repo: 'small/b', instance_id: 'b-2' },
  ];

  it('takes every repository in turn, so a large one does not fill it', () => {
    const sample = sampleByRepository(tasks, 5);
    expect(sample).toHaveLength(5);
    expect(new Set(sample.map((entry) => entry.repo))).toEqual(
      new Set(['big/one', 'small/a', 'small/b']),
    );
    expect(sample.filter((entry) => entry.repo === 'big/one')).toHaveLength(2);
  });

  it('is the same sample every time, and never more than there is', () => {
    expect(sampleByRepository(tasks, 5)).toEqual(sampleByRepository([...tasks].reverse(), 5));
    expect(sampleByRepository(tasks, 100)).toHaveLength(tasks.length);
  });
});
