import { afterEach, describe, expect, it } from 'vitest';
import { querySchema } from '../../src/contracts/query.js';
import { AUTH_SERVICE } from '../support/judge-repository.js';
import { openJudgeSession } from '../support/judge-session.js';
import { removeTempTrees } from '../support/temp-tree.js';

afterEach(removeTempTrees);

/** The service with two files that share a name, so a bare name is ambiguous. */
const WITH_TWIN_NAMES = {
  ...AUTH_SERVICE,
  'src/auth/types.ts': 'export interface Token {\n  value: string;\n}\n',
  'src/billing/types.ts': 'export interface Invoice {\n  total: number;\n}\n',
};

async function initialQuery(task: string, files: Record<string, string> = AUTH_SERVICE) {
  return (await openJudgeSession(files, task)).initialQuery();
}

describe('heuristic judge: initialQuery', () => {
  it.each<[string, string[]]>([
    [
      'Fix refreshToken so it renews tokens that are about to expire',
      ['refreshToken', 'tokens', 'expire', 'ttl', 'timeout'],
    ],
    [
      'Add rate limiting to the refresh endpoint',
      ['refresh', 'endpoint', 'rate limit', 'throttle', 'quota', 'route', 'handler'],
    ],
    [
      'Fix the authentication token expiry bug',
      ['authentication', 'token', 'expiry', 'auth', 'session', 'jwt', 'ttl'],
    ],
    [
      'Upload fails with "Request body larger than maxBodyLength limit"',
      ['Request body larger than maxBodyLength limit', 'maxBodyLength', 'upload', 'multipart'],
    ],
  ])('searches %j for its terms and their synonyms', async (task, expected) => {
    const query = await initialQuery(task);
    expect(querySchema.parse(query)).toEqual(query);
    expect(query.keywords).toEqual(expect.arrayContaining(expected));
  });

  it('puts task terms before synonyms', async () => {
    const { keywords } = await initialQuery('Fix the authentication token expiry bug');
    expect(keywords.indexOf('expiry')).toBeLessThan(keywords.indexOf('auth'));
    expect(keywords.indexOf('authentication')).toBeLessThan(keywords.indexOf('ttl'));
  });

  describe('files named in the task', () => {
    it.each<[string, string[]]>([
      ['Tokens are not renewed in src/auth/session.ts', ['src/auth/session.ts']],
      ['See ./src/auth/session.ts', ['src/auth/session.ts']],
      ['Tidy up mailer.ts', ['src/billing/mailer.ts']],
      ['Tidy up billing/mailer.ts', ['src/billing/mailer.ts']],
      ['Broken: https://github.com/o/r/blob/main/src/users/store.ts#L2', ['src/users/store.ts']],
      ['Crash\n    at loadUser (src/users/store.ts:2:3)\n', ['src/users/store.ts']],
      [
        'Both src/auth/clock.ts and src/api/routes.ts are wrong',
        ['src/auth/clock.ts', 'src/api/routes.ts'],
      ],
      ['Port src/auth/missing.ts from the old service', []],
      ['Fix the token refresh', []],
    ])('%j asks for %j by path', async (task, named) => {
      const query = await initialQuery(task);
      expect(query.patterns[0]).toBe('**/*');
      expect(query.patterns.slice(1)).toEqual(named);
    });

    it.each<[string, string[]]>([
      ['A field is missing in types.ts', []],
      ['A field is missing in auth/types.ts', ['src/auth/types.ts']],
      ['A field is missing in src/billing/types.ts', ['src/billing/types.ts']],
    ])('%j asks for %j when several files share the name', async (task, named) => {
      expect((await initialQuery(task, WITH_TWIN_NAMES)).patterns.slice(1)).toEqual(named);
    });

    it.each<[string, string[]]>([
      ['Tokens are not renewed in src/auth/session.ts', ['src/auth']],
      ['Both src/auth/clock.ts and src/api/routes.ts are wrong', ['src/auth', 'src/api']],
      ['Fix the token refresh', []],
    ])('%j focuses on %j', async (task, focusAreas) => {
      expect((await initialQuery(task)).focusAreas).toEqual(focusAreas);
    });

    it('dispatches the named file first, as asked for by path', async () => {
      const session = await openJudgeSession(AUTH_SERVICE, 'The clock drifts in src/auth/clock.ts');
      const [first] = await session.candidates();
      expect(first?.path).toBe('src/auth/clock.ts');
      expect(first?.explicit).toBe(true);
    });
  });

  it('is the same query every time', async () => {
    const task = 'Add rate limiting to the refresh endpoint in src/api/routes.ts';
    expect(await initialQuery(task)).toEqual(await initialQuery(task));
  });
});
