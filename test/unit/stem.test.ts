import { describe, expect, it } from 'vitest';
import { stem } from '../../src/text/stem.js';

describe('stem', () => {
  it.each([
    [['expiry', 'expires', 'expired', 'expiration', 'expire']],
    [['throttle', 'throttling', 'throttled', 'throttles']],
    [['token', 'tokens', 'Tokens', 'TOKENS']],
    [['route', 'routes', 'routing']],
    [['validate', 'validation', 'validating', 'validates', 'validated']],
    [['cache', 'caching', 'cached', 'caches']],
    [['session', 'sessions']],
    [['user', 'users']],
  ])('inflections meet: %j', (words) => {
    const stems = new Set(words.map((word) => stem(word)));
    expect(stems.size).toBe(1);
  });

  it.each([
    // short words are left alone: a stem keeps at least four letters
    ['user', 'user'],
    ['use', 'use'],
    ['used', 'used'],
    ['data', 'data'],
    ['auth', 'auth'],
    ['go', 'go'],
    ['is', 'is'],
    // `-ss` words keep their ending
    ['class', 'class'],
    ['process', 'process'],
    ['access', 'access'],
    ['address', 'address'],
    ['success', 'success'],
  ])('%s is left as %s', (word, expected) => {
    expect(stem(word)).toBe(expected);
  });

  it.each([
    ['processes', 'process'],
    ['processing', 'process'],
    ['classes', 'class'],
    ['users', 'user'],
  ])('%s reduces to the untouched word %s', (word, expected) => {
    expect(stem(word)).toBe(expected);
  });

  it.each([
    ['render', 'rendering'],
    ['parse', 'parsing'],
    ['config', 'configs'],
  ])('%s and %s meet', (left, right) => {
    expect(stem(left)).toBe(stem(right));
  });

  it.each([
    ['token', 'session'],
    ['route', 'router'],
    ['parse', 'parser'],
    ['class', 'process'],
  ])('%s and %s stay apart', (left, right) => {
    expect(stem(left)).not.toBe(stem(right));
  });

  it('lower-cases and is stable when asked twice', () => {
    expect(stem('Validation')).toBe('valid');
    expect(stem('Validation')).toBe('valid');
    expect(stem(stem('validation'))).toBe(stem('valid'));
  });
});
