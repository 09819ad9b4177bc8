import { describe, expect, it } from 'vitest';
import type { Candidate } from '../../src/contracts/candidate.js';
import { NO_USAGE } from '../../src/contracts/usage.js';
import { buildContextPack } from '../../src/output/build-context-pack.js';
import type { JudgedFile } from '../../src/contracts/evaluation.js';
import { likelyEditedOf, rankJudged } from '../../src/output/rank-judged.js';
import type { CycleTrace } from '../../src/loop/cycle-trace.js';
import type { StopReason } from '../../src/loop/stop-conditions.js';

function judged(path: string, relevance: number, cycle: number, rankScore: number): JudgedFile {
  const candidate: Candidate = {
    path,
    kind: 'source',
    lineCount: 10,
    relativeLength: 1,
    matches: [],
    rankScore,
    explicit: false,
    inFocusArea: false,
    imports: [],
    symbols: [],
    excerpt: '',
    lineRanges: [],
    redactions: 0,
  };
  return { path, relevance, reason: 'r', missingContext: [], cycle, candidate };
}

function packOf(
  files: JudgedFile[],
  {
    stopReason = 'max-cycles',
    cycles = 0,
    considered = files.length,
  }: { stopReason?: StopReason; cycles?: number; considered?: number } = {},
) {
  // A cycle's trace, as far as the warnings read it: its query's keywords.
  const trace = Array.from({ length: cycles }, () => ({ query: { keywords: ['token'] } }) as never);
  return buildContextPack({
    task: 't',
    root: '/r',
    judge: 'heuristic',
    outcome: {
      judged: files,
      trace,
      stopReason,
      timings: { dispatchMs: 0, evaluateMs: 0, refineMs: 0 },
    },
    filesConsidered: considered,
    skipped: { ignored: 0, secret: 0, binary: 0, tooLarge: 0, minified: 0, overLimit: 0 },
    selection: { minRelevance: 0.5, coreRelevance: 0.8, maxFiles: 5, maxRelated: 10 },
    readMs: 0,
    totalMs: 0,
    usage: { ...NO_USAGE, calls: 0, costUsd: 0 },
    judgeWarnings: [],
  });
}

function order(files: JudgedFile[]): string[] {
  return packOf(files).evaluated.map((file) => file.path);
}

describe('buildContextPack: why nothing came back', () => {
  it('says the run was stopped, not that nothing matched, when time ran out before any judgement', () => {
    const [warning] = packOf([], { stopReason: 'aborted', cycles: 1, considered: 48 }).warnings;
    expect(warning).toMatch(/stopped .* before any file was judged/);
    const [unmatched] = packOf([], { cycles: 1, considered: 48 }).warnings;
    expect(unmatched).toMatch(/no file matched the task's terms among 48 files/);
  });
});

describe('buildContextPack: order of evaluated files', () => {
  it.each<[string, JudgedFile[], string[]]>([
    ['by relevance', [judged('a', 0.5, 1, 9), judged('b', 0.9, 1, 1)], ['b', 'a']],
    ['ties: the earlier cycle first', [judged('a', 0.9, 2, 9), judged('b', 0.9, 1, 1)], ['b', 'a']],
    [
      'ties: the higher search rank first',
      [judged('a', 0.9, 1, 1), judged('b', 0.9, 1, 5)],
      ['b', 'a'],
    ],
    ['ties all the way: path order', [judged('b', 0.9, 1, 1), judged('a', 0.9, 1, 1)], ['a', 'b']],
  ])('%s', (_name, files, expected) => {
    expect(order(files)).toEqual(expected);
  });
});

describe("rankJudged: the refiner's picks first, in its order, then by relevance", () => {
  const files = [
    judged('a', 0.9, 1, 1),
    judged('b', 0.5, 1, 1),
    judged('c', 0.5, 1, 2),
    judged('d', 0.1, 1, 1),
    judged('e', 0.3, 1, 1),
    judged('f', 0.3, 1, 2),
    judged('g', 0.3, 1, 3),
    judged('h', 0.3, 1, 4),
  ];
  it.each<[string, string[], string[]]>([
    ['no pick', [], ['a', 'c', 'b', 'h', 'g', 'f', 'e', 'd']],
    ['a pick below the best', ['b'], ['b', 'a', 'c', 'h', 'g', 'f', 'e', 'd']],
    ['picks in their order', ['e', 'b', 'a'], ['e', 'b', 'a', 'c', 'h', 'g', 'f', 'd']],
    ['a path never rated passed over', ['x', 'b'], ['b', 'a', 'c', 'h', 'g', 'f', 'e', 'd']],
    ['an irrelevant file not lifted', ['d', 'b'], ['b', 'a', 'c', 'h', 'g', 'f', 'e', 'd']],
    ['a pick named twice counts once', ['b', 'b', 'c'], ['b', 'c', 'a', 'h', 'g', 'f', 'e', 'd']],
    ['at most 5 picks', ['e', 'f', 'g', 'h', 'b', 'c'], ['e', 'f', 'g', 'h', 'b', 'a', 'c', 'd']],
  ])('%s', (_name, picks, expected) => {
    expect(rankJudged(files, picks).map((file) => file.path)).toEqual(expected);
  });

  it('takes the picks of the last cycle the refiner judged', () => {
    const cycle = (likelyEdited: string[] | null) =>
      ({
        verdict: likelyEdited && { sufficient: false, missing: [], reason: 'r', likelyEdited },
      }) as CycleTrace;
    expect(likelyEditedOf([cycle(['a']), cycle(['b']), cycle(null)])).toEqual(['b']);
    expect(likelyEditedOf([cycle(null)])).toEqual([]);
  });
});

describe('buildContextPack: core and related', () => {
  const files = [
    { ...judged('src/retry.ts', 0.9, 1, 5), missingContext: ['the backoff table'] },
    {
      ...judged('src/types.ts', 0.6, 1, 4),
      reason: 'Declares the options\nthe retry reads.',
      missingContext: ['who constructs it'],
    },
    judged('test/retry.test.ts', 0.5, 2, 3),
    judged('docs/notes.md', 0.3, 1, 2),
  ];
  const pack = packOf(files);

  it('hands over the file that implements the task as core, with its excerpt', () => {
    expect(pack.files.map((file) => file.path)).toEqual(['src/retry.ts']);
    expect(pack.files[0]).toHaveProperty('excerpt');
  });

  it('names the other files at minRelevance as related: path, relevance, one-line reason, kind', () => {
    expect(pack.related).toEqual([
      {
        path: 'src/types.ts',
        relevance: 0.6,
        reason: 'Declares the options the retry reads.',
        kind: 'source',
      },
      { path: 'test/retry.test.ts', relevance: 0.5, reason: 'r', kind: 'source' },
    ]);
  });

  it('keeps the open gaps of core files only', () => {
    expect(pack.gaps.map((gap) => gap.description)).toEqual(['the backoff table']);
  });

  it('still lists every judged file in evaluated', () => {
    expect(pack.evaluated).toHaveLength(4);
  });
});
