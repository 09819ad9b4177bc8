import { describe, expect, it } from 'vitest';
import { criticalGaps, openGaps } from '../../src/loop/gaps.js';
import { firstStopReason, type LoopSnapshot } from '../../src/loop/stop-rules.js';
import type { JudgedFile } from '../../src/contracts/evaluation.js';

const file = (
  path: string,
  relevance: number,
  cycle = 1,
  missingContext: string[] = [],
): JudgedFile =>
  ({
    path,
    relevance,
    cycle,
    reason: 'r',
    missingContext,
    candidate: {} as JudgedFile['candidate'],
  }) as JudgedFile;

const options = { maxCycles: 3, threshold: 0.7, minFiles: 3 };
const snapshot = (overrides: Partial<LoopSnapshot>): LoopSnapshot => ({
  completedCycles: 1,
  budgetSpent: false,
  judged: [],
  lastFresh: 5,
  aborted: false,
  ...overrides,
});

describe('firstStopReason', () => {
  it.each([
    [
      'keeps going with too few high files',
      snapshot({ judged: [file('a', 0.9), file('b', 0.8)] }),
      undefined,
    ],
    [
      'stops when enough high files are held',
      snapshot({ judged: [file('a', 0.9), file('b', 0.8), file('c', 0.7)] }),
      'sufficient',
    ],
    [
      'counts high files across all cycles',
      snapshot({
        completedCycles: 2,
        judged: [file('a', 0.9, 1), file('b', 0.75, 1), file('c', 0.8, 2)],
      }),
      'sufficient',
    ],
    [
      'does not count files below the threshold',
      snapshot({ judged: [file('a', 0.9), file('b', 0.8), file('c', 0.69)] }),
      undefined,
    ],
    [
      'waits while a critical gap is open',
      snapshot({
        judged: [file('a', 0.9, 1, ['src/b.ts (helper)']), file('c', 0.8), file('d', 0.8)],
      }),
      undefined,
    ],
    [
      'stops once the gap was searched for',
      snapshot({
        completedCycles: 2,
        judged: [file('a', 0.9, 1, ['src/b.ts (helper)']), file('c', 0.8), file('d', 0.8)],
      }),
      'sufficient',
    ],
    [
      'stops once the gap is resolved by a judged file',
      snapshot({
        judged: [
          file('a', 0.9, 1, ['src/b.ts (helper)']),
          file('src/b.ts', 0.3),
          file('c', 0.8),
          file('d', 0.8),
        ],
      }),
      'sufficient',
    ],
    [
      'ignores gaps of files below the threshold',
      snapshot({
        judged: [file('a', 0.9), file('c', 0.8), file('d', 0.8), file('e', 0.5, 1, ['src/x.ts'])],
      }),
      'sufficient',
    ],
    ['stops at the cycle cap', snapshot({ completedCycles: 3 }), 'max-cycles'],
    [
      'stops when a refinement found nothing new',
      snapshot({ completedCycles: 2, lastFresh: 0 }),
      'no-new-candidates',
    ],
    [
      'refines once more when the first query found nothing',
      snapshot({ completedCycles: 1, lastFresh: 0 }),
      undefined,
    ],
    [
      'stops when aborted, before anything else',
      snapshot({ aborted: true, completedCycles: 3 }),
      'aborted',
    ],
    [
      'prefers sufficient over the cap on the last cycle',
      snapshot({ completedCycles: 3, judged: [file('a', 0.9), file('b', 0.8), file('c', 0.7)] }),
      'sufficient',
    ],
  ])('%s', (_name, state, expected) => {
    expect(firstStopReason(state, options)).toBe(expected);
  });
});

describe('gaps', () => {
  it('merges a gap reported by several files and tells when it was searched', () => {
    const judged = [file('a.ts', 0.9, 1, ['lib/x.ts']), file('b.ts', 0.8, 2, ['lib/x.ts'])];
    expect(openGaps(judged, 0.7, 2)).toEqual([
      { description: 'lib/x.ts', raisedBy: ['a.ts', 'b.ts'], cycle: 1, searched: true },
    ]);
  });

  it('treats a gap naming a judged file without its extension as resolved', () => {
    const judged = [file('a.ts', 0.9, 1, ['import of src/util']), file('src/util.ts', 0.4)];
    expect(openGaps(judged, 0, 1)).toEqual([]);
  });

  it('calls only unsearched gaps of highly relevant files critical', () => {
    const judged = [
      file('a.ts', 0.9, 2, ['new.ts']),
      file('b.ts', 0.9, 1, ['old.ts']),
      file('c.ts', 0.6, 2, ['weak.ts']),
    ];
    expect(criticalGaps(judged, 0.7, 2).map((gap) => gap.description)).toEqual(['new.ts']);
  });
});
