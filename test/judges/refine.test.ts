import { testLedger } from '../support/test-ledger.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { Query } from '../../src/contracts/query.js';
import { refinementSchema, type Refinement } from '../../src/contracts/refinement.js';
import { AUTH_SERVICE } from '../support/judge-repository.js';
import { candidateAt, openJudgeSession } from '../support/judge-session.js';
import type { JudgeSession } from '../support/judge-session.js';
import { removeTempTrees } from '../support/temp-tree.js';
import type { JudgedFile } from '../../src/contracts/evaluation.js';

const REFRESH = 'Fix refreshToken so it renews tokens that are about to expire';
const INVOICE = 'Crash in formatInvoice when the total is negative';
const RATE_LIMIT = 'Add rate limiting to the refresh endpoint';

afterEach(removeTempTrees);

interface FirstCycle {
  session: JudgeSession;
  query: Query;
  judged: JudgedFile[];
  refine(judged?: readonly JudgedFile[], previous?: Query): Promise<Refinement>;
}

/** Cycle 1 of a run: the judge's first query, its candidates judged together. */
async function firstCycle(task: string): Promise<FirstCycle> {
  const session = await openJudgeSession(AUTH_SERVICE, task);
  const query = await session.initialQuery();
  const judged = await session.evaluateAll(await session.candidates(query));
  const refine = async (files: readonly JudgedFile[] = judged, previous: Query = query) =>
    refinementSchema.parse(
      await session.judge.refine(task, files, previous, {
        cycle: 1,
        overview: session.overview,
        ledger: testLedger(),
      }),
    );
  return { session, query, judged, refine };
}

const relevanceOf = (judged: readonly JudgedFile[], path: string) =>
  judged.find((file) => file.path === path)?.relevance;

describe('heuristic judge: refine', () => {
  it.each([REFRESH, INVOICE, RATE_LIMIT])(
    'keeps every keyword of the last query for %j',
    async (task) => {
      const { query, refine } = await firstCycle(task);
      const previous = { ...query, keywords: [...query.keywords, 'legacyTokenCache'] };
      const next = await refine(undefined, previous);
      expect(next.keywords.slice(0, previous.keywords.length)).toEqual(previous.keywords);
    },
  );

  it('keeps the last query’s patterns and excludes', async () => {
    const { query, refine } = await firstCycle(REFRESH);
    const previous = { ...query, patterns: ['src/**'], excludes: ['**/*.md'] };
    const next = await refine(undefined, previous);
    expect(next.patterns[0]).toBe('src/**');
    expect(next.excludes).toEqual(['**/*.md']);
  });

  describe('identifiers learned from relevant files', () => {
    it.each<[string, string[], string[]]>([
      // `refreshToken` is below 0.5 for the rate-limit task: a weak file teaches nothing.
      [REFRESH, ['isTokenExpired', 'renewSession'], ['loadUser', 'now', 'totalOf']],
      [INVOICE, ['totalOf', 'mailInvoice'], ['isTokenExpired', 'renewSession']],
      [RATE_LIMIT, [], ['refreshToken', 'isTokenExpired', 'renewSession']],
    ])('%j: adds %j, not %j', async (task, learned, unlearned) => {
      const { query, refine } = await firstCycle(task);
      const next = await refine();
      const added = next.keywords.slice(query.keywords.length);
      expect(added).toEqual(expect.arrayContaining(learned));
      for (const name of unlearned) expect(added).not.toContain(name);
    });

    it('learns only from files judged relevant', async () => {
      const { judged, refine } = await firstCycle(RATE_LIMIT);
      expect(relevanceOf(judged, 'src/auth/token.ts')).toBeLessThan(0.5);
      const promoted = judged.map((file) =>
        file.path === 'src/auth/token.ts' ? { ...file, relevance: 0.8 } : file,
      );
      expect((await refine(promoted)).keywords).toContain('refreshToken');
    });
  });

  describe('gaps', () => {
    it.each<[string, string[], string[]]>([
      [REFRESH, ['src/auth/clock.ts', 'src/users/store.ts'], []],
      [RATE_LIMIT, [], ['src/auth/clock.ts']],
    ])('%j: asks for %j by path, not for %j', async (task, asked, notAsked) => {
      const { query, refine } = await firstCycle(task);
      const next = await refine();
      expect(next.patterns.slice(query.patterns.length)).toEqual(asked);
      for (const path of notAsked) expect(next.patterns).not.toContain(path);
    });

    it('never asks for a file already judged', async () => {
      const { session, query, refine } = await firstCycle(REFRESH);
      const all = await session.candidates({ ...query, patterns: Object.keys(AUTH_SERVICE) });
      const token = candidateAt(all, 'src/auth/token.ts');
      const clock = candidateAt(all, 'src/auth/clock.ts');
      const [judgedToken] = await session.evaluateAll([token], [token]);
      const [judgedClock] = await session.evaluateAll([clock], [clock]);
      if (!judgedToken || !judgedClock) throw new Error('both files should be judged');
      expect(judgedToken).toMatchObject({ missingContext: ['src/auth/clock.ts (now)'] });
      expect(judgedToken.relevance).toBeGreaterThanOrEqual(0.5);
      expect((await refine([judgedToken])).patterns).toContain('src/auth/clock.ts');
      expect((await refine([judgedToken, judgedClock])).patterns).not.toContain(
        'src/auth/clock.ts',
      );
    });

    it('asks for each gap once when several files raise it', async () => {
      const { judged, refine } = await firstCycle(REFRESH);
      const doubled = judged.map((file) => ({
        ...file,
        missingContext: [...file.missingContext, 'src/users/store.ts (loadUser)'],
        relevance: Math.max(file.relevance, 0.5),
      }));
      const patterns = (await refine(doubled)).patterns;
      expect(patterns.filter((path) => path === 'src/users/store.ts')).toHaveLength(1);
    });
  });

  describe('focus areas', () => {
    it.each<[string, string[]]>([
      [REFRESH, ['src/auth']],
      [INVOICE, ['src/billing']],
      [RATE_LIMIT, ['src/api']],
    ])(
      '%j: focuses on %j, where the files ≥ 0.7 are, and nowhere else',
      async (task, focusAreas) => {
        const { refine } = await firstCycle(task);
        expect((await refine()).focusAreas).toEqual(focusAreas);
      },
    );

    it('keeps the last query’s focus areas', async () => {
      const { query, refine } = await firstCycle(INVOICE);
      const next = await refine(undefined, { ...query, focusAreas: ['lib'] });
      expect(next.focusAreas).toEqual(['lib', 'src/billing']);
    });
  });

  describe('verdict', () => {
    /** Cycle 1's files, rated anew: the listed ones as given, the rest 0.3, with no gaps. */
    const rated = (judged: readonly JudgedFile[], ratings: Record<string, number>) =>
      judged.map((file) => ({
        ...file,
        relevance: ratings[file.path] ?? 0.3,
        missingContext: [] as string[],
      }));

    it('calls the context sufficient once three files are rated 0.7 or more', async () => {
      const { judged, refine } = await firstCycle(REFRESH);
      const two = { 'src/auth/token.ts': 0.9, 'src/auth/session.ts': 0.7 };
      expect((await refine(rated(judged, two))).verdict.sufficient).toBe(false);
      const three = rated(judged, { ...two, 'src/api/routes.ts': 0.75 });
      expect((await refine(three)).verdict).toMatchObject({ sufficient: true, missing: [] });
    });

    it('names the unjudged files that relevant files import as what is missing', async () => {
      const { judged, refine } = await firstCycle(REFRESH);
      const files = rated(judged, { 'src/auth/token.ts': 0.9 })
        .filter((file) => file.path !== 'src/auth/clock.ts')
        .map((file) =>
          file.path === 'src/auth/token.ts'
            ? { ...file, missingContext: ['src/auth/clock.ts (now)'] }
            : file,
        );
      expect(files.map((file) => file.path)).toContain('src/auth/token.ts');
      expect((await refine(files)).verdict.missing).toEqual(['src/auth/clock.ts']);
    });
  });

  it('refines the same way every time', async () => {
    const [first, second] = await Promise.all([firstCycle(REFRESH), firstCycle(REFRESH)]);
    expect(await second.refine()).toEqual(await first.refine());
  });
});
