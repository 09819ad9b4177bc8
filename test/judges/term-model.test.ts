import { describe, expect, it } from 'vitest';
import { buildTermModel } from '../../src/judges/heuristic/term-model.js';
import { LEARNED_IMPORTANCE } from '../../src/judges/heuristic/weights.js';

describe('buildTermModel', () => {
  describe('lexicon synonyms', () => {
    it.each<[string, string, string[]]>([
      [
        'Fix the authentication token expiry bug',
        'authentication',
        ['auth', 'login', 'session', 'jwt'],
      ],
      ['Fix the authentication token expiry bug', 'expiry', ['ttl', 'timeout', 'deadline']],
      ['Delete old sessions after a week', 'delete', ['remove', 'destroy', 'unlink']],
      ['Add rate limiting to the login endpoint', 'endpoint', ['route', 'handler', 'controller']],
      ['Throttle requests per client', 'throttle', ['rate limit', 'quota']],
    ])('%j: %s brings %j, weighing less', (task, term, synonyms) => {
      const model = buildTermModel(task);
      expect(model.keywords).toEqual(expect.arrayContaining([term, ...synonyms]));
      for (const synonym of synonyms)
        expect(model.importanceOf(synonym)).toBeLessThan(model.importanceOf(term));
    });

    it("weighs a synonym no more than the task's own word, however weak", () => {
      const model = buildTermModel('Crash on save\nOld entries are never removed');
      expect(model.keywords).toEqual(expect.arrayContaining(['removed', 'delete', 'destroy']));
      for (const synonym of ['delete', 'destroy'])
        expect(model.importanceOf(synonym)).toBeLessThanOrEqual(model.importanceOf('removed'));
    });

    it.each<[string, string, string[]]>([
      ['Fix the authentication token expiry bug', 'authentication', ['auth', 'jwt', 'login']],
      ['Fix the authentication token expiry bug', 'expiry', ['ttl', 'timeout']],
      ['Delete old sessions after a week', 'delete', ['remove', 'drop']],
      ['Add rate limiting to the login endpoint', 'rate limit', ['throttle', 'quota']],
    ])('%j: the synonyms of %s share its concept', (task, term, synonyms) => {
      const model = buildTermModel(task);
      for (const synonym of synonyms) expect(model.conceptOf(synonym)).toBe(model.conceptOf(term));
    });

    it('keeps different ideas in different concepts', () => {
      const model = buildTermModel('Fix the authentication token expiry bug');
      expect(model.conceptOf('auth')).not.toBe(model.conceptOf('ttl'));
      expect(model.conceptOf('token')).not.toBe(model.conceptOf('authentication'));
    });

    it('lists the task terms before their synonyms', () => {
      const model = buildTermModel('Fix the authentication token expiry bug');
      const last = Math.max(...['authentication', 'token', 'expiry'].map(indexIn(model.keywords)));
      const first = Math.min(...['auth', 'ttl', 'jwt'].map(indexIn(model.keywords)));
      expect(last).toBeLessThan(first);
    });

    it.each<[string, string[]]>([
      ['Add a cache for user lookups', ['create', 'insert', 'make']],
      ['Make the search faster', ['create', 'insert', 'add']],
      ['Login failed after the upgrade', ['error', 'exception', 'fault']],
    ])('%j: stop words summon no synonyms %j', (task, absent) => {
      const keywords = buildTermModel(task).keywords.map((keyword) => keyword.toLowerCase());
      for (const word of absent) expect(keywords).not.toContain(word);
    });

    it('brings no synonym of a word the task does not use', () => {
      const keywords = buildTermModel('Parser crashes on empty input').keywords;
      expect(keywords).not.toContain('auth');
      expect(keywords).not.toContain('throttle');
    });
  });

  describe('multi-word lexicon terms', () => {
    it.each<[string, string, string[]]>([
      ['Add rate limiting to the login endpoint', 'rate limit', ['rate', 'limiting']],
      ['Rate limit the login endpoint', 'rate limit', ['rate', 'limit']],
      ['Add access control to the reports page', 'access control', ['access', 'control']],
    ])('%j: becomes the phrase %j, with its parts demoted', (task, phrase, parts) => {
      const model = buildTermModel(task);
      expect(model.keywords).toContain(phrase);
      for (const part of parts) {
        expect(model.importanceOf(part)).toBeLessThan(model.importanceOf(phrase));
        expect(model.conceptOf(part)).toBe(model.conceptOf(phrase));
      }
      expect(model.keywords.indexOf(phrase)).toBeLessThan(
        Math.min(...parts.map(indexIn(model.keywords))),
      );
    });

    it('gives the phrase the weight the task gave its words', () => {
      const model = buildTermModel('Add rate limiting to the login endpoint');
      expect(model.importanceOf('rate limit')).toBe(model.importanceOf('login'));
    });
  });

  describe('keywords outside the model', () => {
    it.each(['createThrottle', 'SessionStore'])(
      'weighs %s as learned, as its own concept',
      (word) => {
        const model = buildTermModel('Add rate limiting to the login endpoint');
        expect(model.importanceOf(word)).toBe(LEARNED_IMPORTANCE);
        expect(model.conceptOf(word)).toBe(word.toLowerCase());
      },
    );

    it('looks keywords up regardless of case', () => {
      const model = buildTermModel('Fix `refreshToken` expiry');
      expect(model.importanceOf('REFRESHTOKEN')).toBe(model.importanceOf('refreshToken'));
      expect(model.conceptOf('RefreshToken')).toBe(model.conceptOf('refreshToken'));
    });
  });

  it('is the same model for the same task', () => {
    const task = 'Add rate limiting to the login endpoint';
    const [first, second] = [buildTermModel(task), buildTermModel(task)];
    expect(second.keywords).toEqual(first.keywords);
    for (const keyword of first.keywords) {
      expect(second.importanceOf(keyword)).toBe(first.importanceOf(keyword));
      expect(second.conceptOf(keyword)).toBe(first.conceptOf(keyword));
    }
  });
});

function indexIn(keywords: readonly string[]): (keyword: string) => number {
  return (keyword) => {
    const index = keywords.indexOf(keyword);
    if (index < 0) throw new Error(`${keyword} is not a keyword: ${keywords.join(', ')}`);
    return index;
  };
}
