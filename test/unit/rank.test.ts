import { compileKeyword } from '../../src/dispatch/keyword.js';
import { describe, expect, it } from 'vitest';
import { FIELD_WEIGHTS, fieldScore, rankScore, rankScoreAbove } from '../../src/dispatch/rank.js';
import type { RankInput } from '../../src/dispatch/rank.js';
import type { KeywordMatch } from '../../src/contracts/candidate.js';
import type { FileKind } from '../../src/contracts/file-kind.js';
import { seededRandom } from '../support/seeded-random.js';

/** One keyword's match in one file; by default it matched nowhere. */
/** A match built by hand; its form is what compiling its keyword gives. */
function match(overrides: Partial<KeywordMatch> = {}): KeywordMatch {
  const keyword = overrides.keyword ?? 'token';
  return {
    keyword,
    form: compileKeyword(keyword)?.form ?? 'word',
    weight: 1,
    inFileName: false,
    inDirectory: false,
    definitions: [],
    exactLines: [],
    partialLines: [],
    ...overrides,
  };
}

const lines = (count: number) => Array.from({ length: count }, (_, index) => index + 1);
const definedAt = (name: string, exact: boolean) => [{ name, line: 1, exact }];

/** The score of a source file of average length with these matches. */
function score(matches: KeywordMatch[], input: Partial<RankInput> = {}): number {
  return rankScore({ matches, kind: 'source', relativeLength: 1, ...input });
}

describe('rankScore', () => {
  describe('where a keyword occurs', () => {
    it.each<[string, KeywordMatch, KeywordMatch]>([
      [
        'an exact definition beats mentions in content',
        match({ definitions: definedAt('token', true), exactLines: [1] }),
        match({ exactLines: lines(3) }),
      ],
      [
        'an exact definition beats a name that merely contains it',
        match({ definitions: definedAt('token', true), exactLines: [1] }),
        match({ definitions: definedAt('tokenStore', false), exactLines: [1] }),
      ],
      [
        'a partial definition beats a mere mention',
        match({ definitions: definedAt('tokenStore', false), exactLines: [1] }),
        match({ exactLines: [1] }),
      ],
      [
        'a file-name match beats a directory match',
        match({ inFileName: true }),
        match({ inDirectory: true }),
      ],
      ['a directory match beats nothing', match({ inDirectory: true }), match()],
      [
        'the exact word beats lines with only its words',
        match({ keyword: 'refreshToken', exactLines: [1] }),
        match({ keyword: 'refreshToken', partialLines: [1] }),
      ],
    ])('%s', (_name, stronger, weaker) => {
      expect(score([stronger])).toBeGreaterThan(score([weaker]));
    });

    it('scores a match nowhere as zero', () => {
      expect(score([match()])).toBe(0);
      expect(score([])).toBe(0);
    });
  });

  it.each([0.5, 2, 4])('counts a keyword of weight %d in proportion to its rarity', (weight) => {
    const common = score([match({ weight: 1, exactLines: [1], inFileName: true })]);
    const rare = score([match({ weight, exactLines: [1], inFileName: true })]);
    expect(rare).toBeCloseTo(common * weight, 10);
  });

  it('multiplies a keyword by its importance', () => {
    const matches = [match({ keyword: 'token', inFileName: true })];
    const importance = (keyword: string) => (keyword === 'token' ? 1.5 : 1);
    expect(score(matches, { importance })).toBeCloseTo(score(matches) * 1.5, 10);
  });

  describe('content', () => {
    it.each([2, 5, 10, 100])(
      'saturates: %d hits count more than one, far less than that many',
      (hits) => {
        const one = score([match({ exactLines: [1] })]);
        const many = score([match({ exactLines: lines(hits) })]);
        expect(many).toBeGreaterThan(one);
        expect(many).toBeLessThan(one * Math.min(hits, 3));
        expect(many).toBeLessThanOrEqual(FIELD_WEIGHTS.content);
      },
    );

    it.each([
      [0.5, 1],
      [1, 3],
      [3, 10],
    ])('scores content of a file %d× average above one %d× average', (shorter, longer) => {
      const hits = [match({ exactLines: lines(3) })];
      expect(score(hits, { relativeLength: shorter })).toBeGreaterThan(
        score(hits, { relativeLength: longer }),
      );
    });

    it('does not let length touch exact definitions or paths', () => {
      const structural = [match({ inFileName: true, definitions: definedAt('token', true) })];
      expect(score(structural, { relativeLength: 10 })).toBe(score(structural));
    });

    it("tempers a long file's partial definitions, and never lifts a short file's", () => {
      const partial = [match({ definitions: definedAt('tokenStore', false) })];
      expect(score(partial, { relativeLength: 10 })).toBeLessThan(score(partial) / 2);
      expect(score(partial, { relativeLength: 0.2 })).toBe(score(partial));
    });
  });

  describe('verbatim phrases', () => {
    const phrase = 'token has expired';

    it('counts a phrase found verbatim far above a single word on the same line', () => {
      const verbatim = score([match({ keyword: phrase, exactLines: [4] })]);
      const word = score([match({ keyword: 'token', exactLines: [4] })]);
      expect(verbatim).toBeGreaterThan(3 * word);
      expect(verbatim).toBeGreaterThanOrEqual(FIELD_WEIGHTS.exactPhrase);
    });

    it('gives no phrase bonus when only the words occur, not the phrase', () => {
      const scattered = fieldScore(match({ keyword: phrase, partialLines: [4] }), 1);
      expect(scattered).toBeLessThan(FIELD_WEIGHTS.exactPhrase);
    });
  });

  describe("where the task's ideas meet", () => {
    const at = (token: number[], expiry: number[], refresh: number[] = []) =>
      score([
        match({ keyword: 'token', exactLines: token }),
        match({ keyword: 'expiry', exactLines: expiry }),
        match({ keyword: 'refresh', exactLines: refresh }),
      ]);

    it.each([
      ['on one line', [10], [10]],
      ['a few lines apart', [10], [25]],
    ])('ranks ideas met %s above the same ideas far apart', (_, token, expiry) => {
      expect(at(token, expiry)).toBeGreaterThan(at([10], [400]));
    });

    it('ranks three ideas met in one place above two', () => {
      expect(at([10], [12], [14])).toBeGreaterThan(at([10], [12], [400]));
    });

    it('adds nothing for one idea, however often it occurs', () => {
      const once = score([match({ keyword: 'token', exactLines: [10] })]);
      const close = score([match({ keyword: 'token', exactLines: [10, 11] })]);
      const apart = score([match({ keyword: 'token', exactLines: [10, 400] })]);
      expect(close).toBeGreaterThan(once);
      expect(close).toBe(apart);
    });
  });

  describe('kinds of file', () => {
    const matches = [match({ inFileName: true, exactLines: [1, 2] })];

    it.each<FileKind>(['test', 'docs', 'config'])('ranks a %s file below source', (kind) => {
      expect(score(matches, { kind })).toBeLessThan(score(matches));
      expect(score(matches, { kind })).toBeGreaterThan(0);
    });

    it.each<[FileKind, FileKind[]]>([
      ['test', ['test']],
      ['docs', ['docs']],
      ['docs', ['test', 'docs']],
    ])('ranks a %s file like source when the task wants %j', (kind, wanted) => {
      expect(score(matches, { kind, wantedKinds: new Set(wanted) })).toBe(score(matches));
    });

    it('still demotes kinds the task does not want', () => {
      const wantedKinds = new Set<FileKind>(['test']);
      expect(score(matches, { kind: 'docs', wantedKinds })).toBeLessThan(score(matches));
    });
  });

  describe('concepts', () => {
    // Far apart, so that where the ideas meet adds nothing here.
    const throttle = match({ keyword: 'throttle', inFileName: true, exactLines: [1] });
    const rateLimit = match({ keyword: 'rate limit', exactLines: [300] });
    const login = match({ keyword: 'login', exactLines: [600] });
    const conceptOf = (keyword: string) =>
      keyword === 'throttle' || keyword === 'rate limit' ? 'rate limit' : keyword;

    it.each<[string, KeywordMatch[]]>([
      ['a term and its synonym', [throttle, rateLimit]],
      ['a synonym and its term', [rateLimit, throttle]],
    ])('counts %s once, by the better of them', (_name, matches) => {
      const best = Math.max(score([throttle]), score([rateLimit]));
      expect(score(matches, { conceptOf })).toBeCloseTo(best, 10);
      expect(score(matches)).toBeCloseTo(score([throttle]) + score([rateLimit]), 10);
    });

    it('still adds up different concepts', () => {
      expect(score([throttle, rateLimit, login], { conceptOf })).toBeCloseTo(
        Math.max(score([throttle]), score([rateLimit])) + score([login]),
        10,
      );
    });

    it('treats keywords differing only in case as one concept by default', () => {
      const upper = match({ keyword: 'Token', inFileName: true });
      const lower = match({ keyword: 'token', exactLines: [1] });
      expect(score([upper, lower])).toBeCloseTo(Math.max(score([upper]), score([lower])), 10);
    });
  });
});

describe('rankScoreAbove', () => {
  const random = seededRandom(11);
  const someLines = () =>
    [
      ...new Set(
        Array.from({ length: Math.floor(random() * 6) }, () => 1 + Math.floor(random() * 80)),
      ),
    ].sort((left, right) => left - right);
  const inputs: RankInput[] = Array.from({ length: 400 }, () => ({
    matches: ['token', 'expiry', 'refresh', 'session']
      .slice(0, 1 + Math.floor(random() * 4))
      .map((keyword) =>
        match({
          keyword,
          weight: 0.1 + random() * 3,
          inFileName: random() < 0.2,
          inDirectory: random() < 0.2,
          definitions: random() < 0.2 ? definedAt(keyword, random() < 0.5) : [],
          exactLines: someLines(),
          partialLines: someLines(),
        }),
      ),
    kind: (['source', 'test', 'docs'] as const)[Math.floor(random() * 3)] ?? 'source',
    relativeLength: 0.2 + random() * 4,
  }));

  it('is the score itself wherever the score reaches the floor', () => {
    for (const input of inputs) {
      const exact = rankScore(input);
      for (const floor of [0, exact / 2, exact]) expect(rankScoreAbove(input, floor)).toBe(exact);
    }
  });

  it('leaves a file out only when its score is below the floor, and most far below it', () => {
    let leftOut = 0;
    let farBelow = 0;
    for (const input of inputs) {
      const exact = rankScore(input);
      for (const floor of [exact * 1.01, exact * 3]) {
        const above = rankScoreAbove(input, floor);
        if (above === undefined) leftOut++;
        else expect(above).toBe(exact);
      }
      if (exact > 0 && rankScoreAbove(input, exact * 3) === undefined) farBelow++;
    }
    expect(farBelow).toBeGreaterThan(inputs.length * 0.9);
    expect(leftOut).toBeGreaterThan(0);
  });
});
