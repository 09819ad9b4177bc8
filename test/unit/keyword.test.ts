import { describe, expect, it } from 'vitest';
import { compileKeyword, hasAllWords, normalizeIdentifier } from '../../src/dispatch/keyword.js';
import type { KeywordPattern } from '../../src/dispatch/keyword.js';
import { stem } from '../../src/text/stem.js';

function compiled(keyword: string): KeywordPattern {
  const pattern = compileKeyword(keyword);
  if (!pattern) throw new Error(`\`${keyword}\` did not compile`);
  return pattern;
}

/** The stems of some words, as a file's index would hold them. */
function stemsOf(...words: string[]): Set<string> {
  return new Set(words.map((word) => stem(word)));
}

describe('compileKeyword', () => {
  it.each([
    ['throttle', [['throttl']]],
    ['tokens', [['token']]],
    ['  expiry  ', [['expir']]],
  ])('a word %j is neither an identifier nor a phrase', (keyword, words) => {
    const pattern = compiled(keyword);
    expect(pattern).toMatchObject({
      keyword: keyword.trim(),
      identifier: undefined,
      phrase: undefined,
    });
    expect(pattern.words).toEqual(words);
  });

  it.each(['refreshToken', 'RefreshToken', 'refresh_token', 'REFRESH_TOKEN', 'refresh-token'])(
    'the identifier %s compiles to `refreshtoken`',
    (keyword) => {
      const pattern = compiled(keyword);
      expect(pattern.keyword).toBe(keyword);
      expect(pattern.identifier).toBe('refreshtoken');
      expect(pattern.phrase).toBeUndefined();
      expect(pattern.words).toEqual([['refresh'], ['token']]);
    },
  );

  it.each([
    ['token expiry', 'token expiry', [['token'], ['expir']]],
    ['Token Expiry', 'token expiry', [['token'], ['expir']]],
    // stop words are dropped from a phrase's words, but the phrase itself is kept verbatim
    ['the token', 'the token', [['token']]],
    [
      'Request body larger than maxBodyLength limit',
      'request body larger than maxbodylength limit',
      [['request', 'req'], ['body'], ['larger'], ['max'], ['length'], ['limit']],
    ],
  ])('the phrase %j', (keyword, phrase, words) => {
    const pattern = compiled(keyword);
    expect(pattern.identifier).toBeUndefined();
    expect(pattern.phrase).toBe(phrase);
    expect(pattern.words).toEqual(words);
  });

  it('repeated words of a phrase count once', () => {
    expect(compiled('token tokens expiry').words).toEqual([['token'], ['expir']]);
  });

  it.each([
    ['the', [['the']]],
    ['the and of', [['the'], ['and'], ['of']]],
  ])('stop-word-only input %j falls back to its own words', (keyword, words) => {
    const pattern = compiled(keyword);
    expect(pattern.words).toEqual(words);
  });

  it.each(['', '   ', '123', '42 + 7', '!!!'])(
    '%j has no words and compiles to nothing',
    (keyword) => {
      expect(compileKeyword(keyword)).toBeUndefined();
    },
  );

  it.each([
    ['authentication', ['authentic', 'auth', 'authn']],
    ['configuration', ['configur', 'config', 'conf', 'cfg']],
    ['req', ['req', 'request']],
  ])('%s carries its abbreviations, itself first', (keyword, alternatives) => {
    expect(compiled(keyword).words).toEqual([alternatives]);
  });
});

describe('normalizeIdentifier', () => {
  it.each([
    ['refreshToken', 'refreshtoken'],
    ['refresh_token', 'refreshtoken'],
    ['refresh-token', 'refreshtoken'],
    ['$refresh_Token', 'refreshtoken'],
    ['REFRESH_TOKEN', 'refreshtoken'],
  ])('%s → %s', (identifier, normalized) => {
    expect(normalizeIdentifier(identifier)).toBe(normalized);
  });
});

describe('hasAllWords', () => {
  it.each([
    // a word and its inflections
    ['throttle', ['throttling'], true],
    ['expiry', ['expiration'], true],
    ['tokens', ['token'], true],
    ['throttle', ['token'], false],
    // every word of an identifier or phrase must be present
    ['refreshToken', ['refresh', 'tokens'], true],
    ['refresh_token', ['refresh'], false],
    ['token expiry', ['tokens', 'expired'], true],
    ['token expiry', ['tokens'], false],
    ['the token', ['token'], true],
    // abbreviations meet their long forms, in both directions
    ['authentication', ['auth'], true],
    ['authentication', ['authn'], true],
    ['auth', ['authentication'], true],
    ['auth', ['authorization'], true],
    ['authentication', ['author'], false],
    ['database', ['db'], true],
    ['request', ['req'], true],
    ['configuration', ['cfg'], true],
    ['database configuration', ['db', 'config'], true],
    ['database configuration', ['db'], false],
    ['refreshToken', [], false],
  ])('%j in a file with %j → %s', (keyword, words: string[], expected) => {
    expect(hasAllWords(compiled(keyword), stemsOf(...words))).toBe(expected);
  });
});
