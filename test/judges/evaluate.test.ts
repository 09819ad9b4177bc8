import { afterEach, describe, expect, it } from 'vitest';
import type { Candidate } from '../../src/contracts/candidate.js';
import { AUTH_SERVICE } from '../support/judge-repository.js';
import { candidateAt, openJudgeSession } from '../support/judge-session.js';
import type { JudgeSession } from '../support/judge-session.js';
import { removeTempTrees } from '../support/temp-tree.js';
import type { PastCommit } from '../../src/contracts/overview.js';

const REFRESH = 'Fix refreshToken so it renews tokens that are about to expire';
const INVOICE = 'Crash in formatInvoice when the total is negative';
const RATE_LIMIT = 'Add rate limiting to the refresh endpoint';
const NAMED = 'Tokens are not renewed in src/auth/session.ts';

afterEach(removeTempTrees);

/** The judge's first query, with every file of the repository asked for by path as well. */
async function everyFile(
  task: string,
  history: readonly PastCommit[] = [],
): Promise<{ session: JudgeSession; all: Candidate[] }> {
  const session = await openJudgeSession(AUTH_SERVICE, task, history);
  const query = await session.initialQuery();
  const all = await session.candidates({
    ...query,
    patterns: [...query.patterns, ...Object.keys(AUTH_SERVICE)],
  });
  expect(all).toHaveLength(Object.keys(AUTH_SERVICE).length);
  return { session, all };
}

async function judgeAll(
  task: string,
  history: readonly PastCommit[] = [],
): Promise<Map<string, { relevance: number; reason: string }>> {
  const { session, all } = await everyFile(task, history);
  const judged = await session.evaluateAll(all);
  return new Map(judged.map((file) => [file.path, file]));
}

describe('heuristic judge: evaluate', () => {
  it.each([REFRESH, INVOICE, RATE_LIMIT, NAMED])(
    'gives every file a relevance in [0, 1] and a reason for %j',
    async (task) => {
      for (const [, verdict] of await judgeAll(task)) {
        expect(verdict.relevance).toBeGreaterThanOrEqual(0);
        expect(verdict.relevance).toBeLessThanOrEqual(1);
        expect(verdict.reason.length).toBeGreaterThan(0);
      }
    },
  );

  it.each<[string, string, string[]]>([
    [
      REFRESH,
      'src/auth/token.ts',
      ['src/auth/session.ts', 'src/api/routes.ts', 'test/token.test.ts', 'docs/tokens.md'],
    ],
    [INVOICE, 'src/billing/invoice.ts', ['src/billing/mailer.ts']],
    [RATE_LIMIT, 'src/api/routes.ts', ['src/auth/token.ts', 'src/auth/session.ts']],
  ])('%j: %s scores ≥ 0.8, above %j', async (task, target, others) => {
    const verdicts = await judgeAll(task);
    const best = verdicts.get(target)?.relevance ?? 0;
    expect(best).toBeGreaterThanOrEqual(0.8);
    for (const other of others) expect(verdicts.get(other)?.relevance).toBeLessThan(best);
  });

  it.each<[string, string]>([
    [REFRESH, 'src/billing/invoice.ts'],
    [REFRESH, 'src/users/store.ts'],
    [INVOICE, 'src/auth/token.ts'],
    [INVOICE, 'src/auth/session.ts'],
    [RATE_LIMIT, 'src/billing/mailer.ts'],
  ])('%j: the unrelated %s scores below 0.2', async (task, path) => {
    expect((await judgeAll(task)).get(path)?.relevance).toBeLessThan(0.2);
  });

  it.each<[string, string, string]>([
    [REFRESH, 'src/auth/token.ts', 'defines refreshToken()'],
    [INVOICE, 'src/billing/invoice.ts', 'defines formatInvoice()'],
    [REFRESH, 'src/api/routes.ts', '2 lines mention refreshToken'],
    [REFRESH, 'test/token.test.ts', 'file name contains tokens'],
    [REFRESH, 'test/token.test.ts', 'test file'],
    [REFRESH, 'docs/tokens.md', 'docs file'],
    [INVOICE, 'src/billing/mailer.ts', 'uses src/billing/invoice.ts'],
    [NAMED, 'src/auth/session.ts', 'named in the task'],
    [REFRESH, 'src/billing/invoice.ts', 'no task term matched'],
  ])('%j: the reason for %s says %j', async (task, path, fragment) => {
    expect((await judgeAll(task)).get(path)?.reason).toContain(fragment);
  });

  it.each<[string, string]>([
    [NAMED, 'src/auth/session.ts'],
    [
      'Renewal broke, see https://github.com/o/r/blob/main/src/auth/session.ts#L5',
      'src/auth/session.ts',
    ],
    ['The clock in src/auth/clock.ts drifts', 'src/auth/clock.ts'],
    ['Crash\n    at loadUser (src/users/store.ts:2:3)\n', 'src/users/store.ts'],
    ['Tidy up mailer.ts', 'src/billing/mailer.ts'],
  ])('%j: the named %s scores ≥ 0.9', async (task, path) => {
    const verdict = (await judgeAll(task)).get(path);
    expect(verdict?.relevance).toBeGreaterThanOrEqual(0.9);
    expect(verdict?.reason).toMatch(/^named in the task/);
  });

  it('scores the file where a stack trace failed as named, and its callers as related', async () => {
    const verdicts = await judgeAll(
      'Crash on refresh\n    at refreshToken (src/auth/token.ts:3:1)\n    at handler (src/api/routes.ts:5:1)',
    );
    expect(verdicts.get('src/auth/token.ts')?.relevance).toBeGreaterThanOrEqual(0.9);
    expect(verdicts.get('src/auth/token.ts')?.reason).toMatch(/^named in the task/);
    expect(verdicts.get('src/api/routes.ts')?.reason).toMatch(
      /^a caller in the task's stack trace/,
    );
    expect(verdicts.get('src/api/routes.ts')?.relevance).toBeGreaterThanOrEqual(0.65);
  });

  it.each<[string, string]>([
    ['Session in src/types.ts lacks expiresAt', 'src/types.ts'],
    ['Session in types/session.d.ts lacks expiresAt', 'types/session.d.ts'],
  ])('%j: the named type declaration %s is what the task is about', async (task, path) => {
    const session = await openJudgeSession(
      {
        'src/types.ts': 'export interface Session {\n  token: string\n}\n',
        'types/session.d.ts': 'export declare interface SessionOptions {\n  ttl: number\n}\n',
        'src/session.ts': 'export function renew(session) {\n  return session\n}\n',
      },
      task,
    );
    const candidates = await session.candidates();
    const verdicts = await session.evaluateAll(candidates);
    const verdict = verdicts.find((file) => file.path === path);
    expect(candidates.find((candidate) => candidate.path === path)?.kind).toBe('declaration');
    expect(verdict?.relevance).toBeGreaterThanOrEqual(0.9);
  });

  // Supporting material named in a task stays in its rubric band unless the task is about it:
  // docs are tangential, tests related (below the highly relevant 0.7).
  it.each<[string, string, number, number]>([
    ['Renewal is not what docs/tokens.md describes', 'docs/tokens.md', 0, 0.4],
    ['Update the docs in docs/tokens.md for token renewal', 'docs/tokens.md', 0.9, 1],
    [
      'Fix refreshToken in token.test.ts so it renews tokens that are about to expire',
      'test/token.test.ts',
      0,
      0.65,
    ],
    ['Add tests for refreshToken renewing tokens in token.test.ts', 'test/token.test.ts', 0.9, 1],
  ])('%j: the named %s scores in [%d, %d]', async (task, path, low, high) => {
    const verdict = (await judgeAll(task)).get(path);
    expect(verdict?.relevance).toBeGreaterThanOrEqual(low);
    expect(verdict?.relevance).toBeLessThanOrEqual(high);
    expect(verdict?.reason).toMatch(/^named in the task/);
  });

  describe('the past', () => {
    // One past fix whose message reads like REFRESH changed a relevant file and an unrelated one.
    const PAST: PastCommit[] = [
      {
        message: 'Fix refreshToken renewing tokens that are about to expire',
        files: ['src/auth/session.ts', 'src/billing/mailer.ts'],
      },
    ];

    it('closes 70% of the gap to 1 for a file with evidence of its own, and says why', async () => {
      const before = (await judgeAll(REFRESH)).get('src/auth/session.ts');
      const after = (await judgeAll(REFRESH, PAST)).get('src/auth/session.ts');
      const gap = 1 - (before?.relevance ?? 0);
      expect(after?.relevance).toBeCloseTo(Math.min(0.98, 1 - gap * 0.3), 2);
      expect(after?.reason).toContain('changed by 1 similar past commit');
    });

    it('never lifts a file without evidence of its own', async () => {
      const verdict = (await judgeAll(REFRESH, PAST)).get('src/billing/mailer.ts');
      expect(verdict?.relevance).toBeLessThan(0.2);
      expect(verdict?.reason).not.toContain('past commit');
    });
  });

  it('keeps the directory words of a named path out of the search', async () => {
    const verdicts = await judgeAll('The clock in src/auth/clock.ts drifts');
    expect(verdicts.get('src/auth/clock.ts')?.relevance).toBeGreaterThanOrEqual(0.9);
    expect(verdicts.get('src/auth/session.ts')?.relevance ?? 0).toBeLessThan(0.5);
  });

  describe('missing context', () => {
    it.each<[string, string, string[], string[]]>([
      ['an import outside the cycle', 'src/auth/token.ts', [], ['src/auth/clock.ts (now)']],
      ['an import among the candidates', 'src/auth/token.ts', ['src/auth/clock.ts'], []],
      [
        'only the imports not held',
        'src/auth/session.ts',
        ['src/auth/token.ts'],
        ['src/users/store.ts (loadUser)'],
      ],
      [
        'every name imported',
        'src/billing/mailer.ts',
        [],
        ['src/billing/invoice.ts (formatInvoice, totalOf)'],
      ],
      ['nothing for a file without imports', 'src/billing/invoice.ts', [], []],
    ])('lists %s', async (_name, path, alongside, expected) => {
      const { session, all } = await everyFile(REFRESH);
      const candidate = candidateAt(all, path);
      const among = [candidate, ...alongside.map((other) => candidateAt(all, other))];
      expect((await session.evaluate(candidate, among)).missingContext).toEqual(expected);
    });

    it('never lists a package import', async () => {
      const { session, all } = await everyFile(REFRESH);
      const { missingContext } = await session.evaluate(candidateAt(all, 'src/auth/token.ts'));
      expect(missingContext.join('\n')).not.toContain('jsonwebtoken');
    });

    it('omits files judged in earlier cycles', async () => {
      const { session, all } = await everyFile(REFRESH);
      const clock = candidateAt(all, 'src/auth/clock.ts');
      const [judgedClock] = await session.evaluateAll([clock]);
      const token = candidateAt(all, 'src/auth/token.ts');
      const verdict = await session.evaluate(token, [token], judgedClock ? [judgedClock] : []);
      expect(verdict.missingContext).toEqual([]);
    });
  });

  it.each([REFRESH, INVOICE, NAMED])('is deterministic for %j', async (task) => {
    const runs = [];
    for (const reversed of [false, true, false]) {
      const { session, all } = await everyFile(task);
      const order = reversed ? [...all].reverse() : all;
      const judged = await session.evaluateAll(order);
      runs.push(
        judged
          .map(({ path, relevance, reason, missingContext }) => ({
            path,
            relevance,
            reason,
            missingContext,
          }))
          .sort((left, right) => (left.path < right.path ? -1 : 1)),
      );
    }
    expect(runs[1]).toEqual(runs[0]);
    expect(runs[2]).toEqual(runs[0]);
  });
});

describe('heuristic judge: a test as a bridge to its subject', () => {
  // The code says `align` and `offset`; only its test speaks the task's language.
  const CALENDAR = {
    'src/calendar/weeks.ts':
      'export function align(date: Date, offset: number): Date {\n  return new Date(date.getTime() - offset);\n}\n',
    'src/calendar/days.ts':
      'export function dayName(day: number): string {\n  return String(day);\n}\n',
    'test/first-weekday.test.ts':
      "import { align } from '../src/calendar/weeks';\ndescribe('the first weekday of the locale', () => {\n  it('starts each week on the locale first weekday', () => {\n    align(new Date(), 1);\n  });\n});\n",
    'test/everything.test.ts':
      "import { align } from '../src/calendar/weeks';\nimport { dayName } from '../src/calendar/days';\nimport { a } from '../src/a';\nimport { b } from '../src/b';\n// the first weekday of the locale\nalign(new Date(), 1); dayName(1); a(); b();\n",
    'src/a.ts': 'export const a = () => 1;\n',
    'src/b.ts': 'export const b = () => 2;\n',
  };
  const TASK = 'The first weekday of the locale is ignored';

  async function verdicts(files: Record<string, string>) {
    const session = await openJudgeSession(files, TASK);
    const query = await session.initialQuery();
    const all = await session.candidates({
      ...query,
      patterns: [...query.patterns, ...Object.keys(files)],
    });
    return new Map((await session.evaluateAll(all)).map((file) => [file.path, file]));
  }

  it('lifts the file a strongly matching test imports, and says why', async () => {
    const weeks = (await verdicts(CALENDAR)).get('src/calendar/weeks.ts');
    expect(weeks?.relevance).toBeGreaterThanOrEqual(0.65);
    expect(weeks?.reason).toMatch(/tested by test\/first-weekday\.test\.ts/);
  });

  it('takes no bridge from a test that imports much of the project', async () => {
    const broad: Record<string, string> = { ...CALENDAR };
    delete broad['test/first-weekday.test.ts'];
    const result = await verdicts(broad);
    expect(result.get('src/calendar/days.ts')?.relevance).toBeLessThan(0.5);
    expect(result.get('src/calendar/weeks.ts')?.reason ?? '').not.toMatch(/tested by/);
  });
});
