import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lineHoldsStem } from '../../src/dispatch/line-holds-stem.js';
import { identifiersOf } from '../../src/text/identifiers.js';
import { stemsOfIdentifier } from '../../src/repository/source-file.js';

const holds = (line: string, stem: string) =>
  lineHoldsStem(line, line.toLowerCase(), stem, stemsOfIdentifier);

/** What the line's tokens, each split and stemmed, say: the answer the search must give. */
const byEveryToken = (line: string, stem: string) =>
  identifiersOf(line).some((token) => stemsOfIdentifier(token).includes(stem));

describe('lineHoldsStem', () => {
  it.each<[string, string, boolean]>([
    ['const configFile = load(path);', 'file', true],
    ['const profile = load(path);', 'file', false],
    // The first place holding the text is not a word; a later one is.
    ['profile.readFile(name)', 'file', true],
    ['PROFILE_FILES = []', 'file', true],
    ['HTTPServer.listen()', 'server', true],
    ['parseHttpRequest(input)', 'http', true],
    ['expired tokens', 'expir', true],
    // Digits and underscores part words.
    ['x = 2file', 'file', true],
    ['utf8Decoder', 'decoder', true],
    ['utf8Decoder', 'utf', true],
    ['', 'file', false],
    ['file', '', false],
  ])('%j holds %j: %s', (line, stem, expected) => {
    expect(holds(line, stem)).toBe(expected);
    expect(byEveryToken(line, stem)).toBe(expected);
  });

  it("gives the tokens' answer on every line of the scan's own source", () => {
    const source = readFileSync(
      join(import.meta.dirname, '../../src/dispatch/scan-file.ts'),
      'utf8',
    );
    for (const line of source.split('\n'))
      for (const stem of [
        'line',
        'text',
        'word',
        'stem',
        'keyword',
        'match',
        'file',
        'scan',
        'hold',
      ])
        expect(holds(line, stem), `${JSON.stringify(line)} / ${stem}`).toBe(
          byEveryToken(line, stem),
        );
  });

  it('reads a run holding the text everywhere once', () => {
    // Every place starts the text, none is a word: a search that went back over the run from
    // each place would split it thousands of times.
    const line = `x${'a'.repeat(20_000)}`;
    let looked = 0;
    expect(
      lineHoldsStem(line, line, 'aaaa', (identifier) => {
        looked++;
        return stemsOfIdentifier(identifier.slice(0, 10));
      }),
    ).toBe(false);
    expect(looked).toBe(1);
  });
});
