import { describe, expect, it } from 'vitest';
import { criticalGaps, openGaps } from '../../src/loop/gaps.js';
import {
  highlyRelevantFiles,
  judgeSaysSufficient,
  noNewRelevantFiles,
  stopReason,
  type ControllerState,
  type LoopSnapshot,
  type StopCondition,
} from '../../src/loop/stop-conditions.js';
import type { JudgedFile } from '../../src/contracts/evaluation.js';
import type { Verdict } from '../../src/contracts/refinement.js';

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

type State = Partial<LoopSnapshot & ControllerState>;
const snapshot = (overrides: State): State => overrides;

function decide(state: State, conditions: readonly StopCondition[]) {
  return stopReason(
    {
      completedCycles: state.completedCycles ?? 1,
      judged: state.judged ?? [],
      threshold: 0.7,
      verdict: state.verdict,
    },
    {
      maxCycles: 3,
      aborted: state.aborted ?? false,
      budgetSpent: state.budgetSpent ?? false,
      lastFresh: state.lastFresh ?? 5,
    },
    conditions,
  );
}

const sufficient: Verdict = { sufficient: true, missing: [], reason: 'found it', likelyEdited: [] };
const insufficient: Verdict = {
  sufficient: false,
  missing: ['the parser'],
  reason: 'not yet',
  likelyEdited: [],
};

describe('the seed rule: min-files', () => {
  it.each([
    [
      'keeps going with too few high files',
      snapshot({ judged: [file('a', 0.9), file('b', 0.8)] }),
      undefined,
    ],
    [
      'stops when enough high files are held',
      snapshot({ judged: [file('a', 0.9), file('b', 0.8), file('c', 0.7)] }),
      'min-files',
    ],
    [
      'counts high files across all cycles',
      snapshot({
        completedCycles: 2,
        judged: [file('a', 0.9, 1), file('b', 0.75, 1), file('c', 0.8, 2)],
      }),
      'min-files',
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
      'min-files',
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
      'min-files',
    ],
    [
      'ignores gaps of files below the threshold',
      snapshot({
        judged: [file('a', 0.9), file('c', 0.8), file('d', 0.8), file('e', 0.5, 1, ['src/x.ts'])],
      }),
      'min-files',
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
      'min-files',
    ],
  ])('%s', (_name, state, expected) => {
    expect(decide(state, [highlyRelevantFiles(3)])).toBe(expected);
  });
});

describe("the refiner's verdict: sufficient", () => {
  it.each([
    ['stops when the refiner says sufficient', { verdict: sufficient }, 'sufficient'],
    ['goes on when it says not yet', { verdict: insufficient }, undefined],
    ['goes on before the refiner has spoken', { verdict: undefined }, undefined],
    [
      'goes on while a highly relevant file has an unsearched gap',
      { verdict: sufficient, judged: [file('a', 0.9, 1, ['src/b.ts'])] },
      undefined,
    ],
    [
      'stops once that gap was searched for',
      { verdict: sufficient, completedCycles: 2, judged: [file('a', 0.9, 1, ['src/b.ts'])] },
      'sufficient',
    ],
    [
      'says sufficient rather than max-cycles on the last cycle',
      { verdict: sufficient, completedCycles: 3 },
      'sufficient',
    ],
  ] satisfies [string, State, string | undefined][])('%s', (_name, state, expected) => {
    expect(decide(state, [judgeSaysSufficient()])).toBe(expected);
  });
});

describe('a cycle with nothing new: no-new-relevant', () => {
  it.each([
    ['never after the first cycle', { completedCycles: 1, judged: [file('a', 0.3, 1)] }, undefined],
    [
      'stops when the second cycle added no highly relevant file',
      { completedCycles: 2, judged: [file('a', 0.9, 1), file('b', 0.6, 2)] },
      'no-new-relevant',
    ],
    [
      'goes on when it added one',
      { completedCycles: 2, judged: [file('a', 0.9, 1), file('b', 0.7, 2)] },
      undefined,
    ],
  ] satisfies [string, State, string | undefined][])('%s', (_name, state, expected) => {
    expect(decide(state, [noNewRelevantFiles()])).toBe(expected);
  });
});

describe('the controller', () => {
  it('asks the conditions in order and reports the first one met', () => {
    const state = { completedCycles: 2, verdict: sufficient, judged: [file('a', 0.9, 1)] };
    expect(decide(state, [noNewRelevantFiles(), judgeSaysSufficient()])).toBe('no-new-relevant');
    expect(decide(state, [judgeSaysSufficient(), noNewRelevantFiles()])).toBe('sufficient');
  });

  it("reports a caller's own condition as stop-when", () => {
    const found = (snapshot: LoopSnapshot) => snapshot.judged.some((file) => file.relevance > 0.95);
    expect(decide({ judged: [file('a', 0.97)] }, [found])).toBe('stop-when');
    expect(decide({ judged: [file('a', 0.9)] }, [found])).toBeUndefined();
  });

  it('runs every cycle with no conditions, and a budget stops it', () => {
    expect(decide({ completedCycles: 2, verdict: sufficient }, [])).toBeUndefined();
    expect(decide({ completedCycles: 3 }, [])).toBe('max-cycles');
    expect(decide({ budgetSpent: true }, [])).toBe('budget');
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
