import { describe, expect, it } from 'vitest';
import {
  identifiersOf,
  isCompoundIdentifier,
  splitIdentifier,
  wordsOf,
} from '../../src/text/identifiers.js';

describe('splitIdentifier', () => {
  it.each([
    // camelCase and PascalCase
    ['refreshToken', ['refresh', 'token']],
    ['RefreshToken', ['refresh', 'token']],
    ['getUserById', ['get', 'user', 'by', 'id']],
    // snake_case, SCREAMING_SNAKE, kebab-case
    ['refresh_token', ['refresh', 'token']],
    ['REFRESH_TOKEN', ['refresh', 'token']],
    ['MAX_BODY_LENGTH', ['max', 'body', 'length']],
    ['refresh-token', ['refresh', 'token']],
    ['__dunder__init__', ['dunder', 'init']],
    // acronyms
    ['parseHTTPResponse', ['parse', 'http', 'response']],
    ['XMLHttpRequest', ['xml', 'http', 'request']],
    ['HTTPServer', ['http', 'server']],
    ['IOError', ['io', 'error']],
    ['getID', ['get', 'id']],
    ['ABC', ['abc']],
    // digits separate words and are dropped
    ['parseHTTPResponse2', ['parse', 'http', 'response']],
    ['utf8Decode', ['utf', 'decode']],
    ['base64ToHex', ['base', 'to', 'hex']],
    ['sha256', ['sha']],
    // sigils and single letters
    ['$scope', ['scope']],
    ['_private', ['private']],
    ['x', ['x']],
  ])('%s → %j', (identifier, words) => {
    expect(splitIdentifier(identifier)).toEqual(words);
  });

  it.each(['refreshToken', 'RefreshToken', 'refresh_token', 'REFRESH_TOKEN', 'refresh-token'])(
    '%s splits like every other convention of the same name',
    (identifier) => {
      expect(splitIdentifier(identifier)).toEqual(splitIdentifier('refreshToken'));
    },
  );

  it.each(['', '123', '___', '-'])('%j has no words', (identifier) => {
    expect(splitIdentifier(identifier)).toEqual([]);
  });
});

describe('isCompoundIdentifier', () => {
  it.each([
    ['refreshToken', true],
    ['refresh_token', true],
    ['HTTPServer', true],
    ['token', false],
    ['HTTP', false],
    ['sha256', false],
  ])('%s → %s', (token, compound) => {
    expect(isCompoundIdentifier(token)).toBe(compound);
  });
});

describe('identifiersOf', () => {
  it.each([
    [
      'const refreshToken = getUser(req.body);',
      ['const', 'refreshToken', 'getUser', 'req', 'body'],
    ],
    ['a1 = 42 + b_2', ['a1', 'b_2']],
    ['$el._cache', ['$el', '_cache']],
    ['user-id', ['user', 'id']],
    ['', []],
    ['123 456', []],
  ])('%j → %j', (text, identifiers) => {
    expect(identifiersOf(text)).toEqual(identifiers);
  });
});

describe('wordsOf', () => {
  it.each([
    [
      'const refreshToken = getUser(req.body); // HTTP_STATUS',
      ['const', 'refresh', 'token', 'get', 'user', 'req', 'body', 'http', 'status'],
    ],
    ['Token expiry in parseHTTPResponse', ['token', 'expiry', 'in', 'parse', 'http', 'response']],
    ['user-id 42 foo.barBaz', ['user', 'id', 'foo', 'bar', 'baz']],
    ['MAX_RETRIES=3', ['max', 'retries']],
    ['', []],
    ['   42   ', []],
  ])('%j → %j', (text, words) => {
    expect(wordsOf(text)).toEqual(words);
  });

  it('keeps repeated words, in order', () => {
    expect(wordsOf('token tokenStore token')).toEqual(['token', 'token', 'store', 'token']);
  });
});
