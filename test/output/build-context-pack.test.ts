import { describe, expect, it } from 'vitest';
import type { Candidate } from '../../src/contracts/candidate.js';
import { NO_USAGE } from '../../src/contracts/usage.js';
import { buildContextPack } from '../../src/output/build-context-pack.js';
import type { JudgedFile } from '../../src/contracts/evaluation.js';

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

function order(files: JudgedFile[]): string[] {
  const pack = buildContextPack({
    task: 't',
    root: '/r',
    judge: 'heuristic',
    outcome: {
      judged: files,
      trace: [],
      stopReason: 'max-cycles',
      timings: { dispatchMs: 0, evaluateMs: 0, refineMs: 0 },
    },
    filesConsidered: files.length,
    skipped: { ignored: 0, secret: 0, binary: 0, tooLarge: 0, minified: 0, overLimit: 0 },
    minRelevance: 0.5,
    maxFiles: 8,
    readMs: 0,
    totalMs: 0,
    usage: { ...NO_USAGE, calls: 0, costUsd: 0 },
    judgeWarnings: [],
  });
  return pack.evaluated.map((file) => file.path);
}

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
