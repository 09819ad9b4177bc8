import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildExcerpt, matchedLineRanges } from '../../src/dispatch/excerpt.js';
import type { Excerpt } from '../../src/dispatch/excerpt.js';
import { matchFile, weighKeywords } from '../../src/dispatch/match.js';
import { analyzeSource } from '../../src/repository/source-file.js';
import type { SourceFile } from '../../src/repository/source-file.js';
import { openWorkspace, type Workspace } from '../../src/repository/workspace.js';
import { createTempTree, removeTempTrees } from '../support/temp-tree.js';
import { estimateTokens } from '../../src/contracts/tokens.js';
import type { KeywordMatch, LineRange } from '../../src/contracts/candidate.js';

const TOKENS_FILE = [
  "import { sign } from './jwt.js';",
  "import type { User } from '../users/user.js';",
  '',
  ...Array.from(
    { length: 30 },
    (_, index) => `// filler line ${index} with some words to take up space`,
  ),
  'export function refreshToken(user: User): string {', // 34
  '  const expiry = Date.now() + TTL;', // 35
  '  return sign({ sub: user.id, expiry });', // 36
  '}',
  ...Array.from(
    { length: 30 },
    (_, index) => `// more filler ${index} to pad the file out further`,
  ),
  'export class TokenStore {', // 68
  '  revoke(token: string) {',
  '    // the refresh token is gone', // 70
  '  }',
  '}', // 72
].join('\n');

const HIT_LINES = [34, 35, 36, 68, 70];

let file: SourceFile;
let matches: KeywordMatch[];
let workspaceOfFile: Workspace;

beforeAll(async () => {
  const root = await createTempTree({
    'src/auth/tokens.ts': TOKENS_FILE,
    'src/billing/invoice.ts': 'export const total = 0;\n',
    'src/index.ts': "export * from './auth/tokens.js';\n",
  });
  const workspace = await openWorkspace(root, { maxFileBytes: 100_000, maxFiles: 100 });
  workspaceOfFile = workspace;
  const found = workspace.get('src/auth/tokens.ts');
  if (!found) throw new Error('src/auth/tokens.ts was not read');
  file = found;
  matches = matchFile(
    file,
    await weighKeywords(['refreshToken', 'expiry', 'token store'], workspace),
  );
});

afterAll(async () => {
  await removeTempTrees();
});

/** The line numbers shown in an excerpt's body, in order. */
function numberedLines(excerpt: Excerpt): number[] {
  const body = excerpt.text.split('\n---\n').at(-1) ?? '';
  return [...body.matchAll(/^\s*(\d+)\| /gm)].map((match) => Number(match[1]));
}

function expand(ranges: readonly LineRange[]): number[] {
  return ranges.flatMap(([start, end]) =>
    Array.from({ length: end - start + 1 }, (_, offset) => start + offset),
  );
}

describe('estimateTokens', () => {
  it.each([
    ['', 0],
    ['a', 1],
    ['abcd', 1],
    ['abcde', 2],
    ['x'.repeat(400), 100],
  ])('%j → %i', (text, tokens) => {
    expect(estimateTokens(text)).toBe(tokens);
  });
});

describe('buildExcerpt', () => {
  it('sees the hits this fixture is built around', () => {
    const lines = matches.flatMap((match) => [
      ...match.exactLines,
      ...match.partialLines,
      ...match.definitions.map((definition) => definition.line),
    ]);
    expect([...new Set(lines)].sort((left, right) => left - right)).toEqual(HIT_LINES);
  });

  it.each([60, 120, 250, 1000])('with %i tokens, opens with the outline', (budget) => {
    const excerpt = buildExcerpt(file, matches, budget);
    const [outline] = excerpt.text.split('\n---\n');
    expect(outline).toMatch(
      /^imports: \.\/jwt\.js, \.\.\/users\/user\.js\ndefines: export refreshToken L34/,
    );
  });

  it('lists every import and definition when the budget allows', () => {
    const excerpt = buildExcerpt(file, matches, 1000);
    expect(excerpt.text).toContain('imports: ./jwt.js, ../users/user.js\n');
    expect(excerpt.text).toContain(
      'defines: export refreshToken L34, export TokenStore L68, revoke L69\n',
    );
  });

  it.each([60, 120, 250, 1000])(
    'with %i tokens, shows numbered lines that hold its line ranges, ascending',
    (budget) => {
      const excerpt = buildExcerpt(file, matches, budget);
      const shown = numberedLines(excerpt);
      expect(shown).toEqual(expect.arrayContaining(expand(excerpt.lineRanges)));
      expect(shown).toEqual([...new Set(shown)].sort((left, right) => left - right));
      for (const [start, end] of excerpt.lineRanges) {
        for (let line = start; line <= end; line++) {
          expect(excerpt.text).toContain(`${String(line).padStart(2)}| ${file.lines[line - 1]}`);
        }
      }
    },
  );

  it.each([60, 120, 250, 1000])(
    'with %i tokens, gives ascending, non-overlapping line ranges within the file',
    (budget) => {
      const { lineRanges } = buildExcerpt(file, matches, budget);
      expect(lineRanges.length).toBeGreaterThan(0);
      lineRanges.forEach(([start, end], index) => {
        expect(start).toBeGreaterThanOrEqual(1);
        expect(end).toBeLessThanOrEqual(file.lines.length);
        expect(start).toBeLessThanOrEqual(end);
        const previous = lineRanges[index - 1];
        // merged ranges neither overlap nor touch
        if (previous) expect(start).toBeGreaterThan(previous[1] + 1);
      });
    },
  );

  it.each([60, 120, 250, 1000])('with %i tokens, shows at least one hit', (budget) => {
    const shown = expand(buildExcerpt(file, matches, budget).lineRanges);
    expect(shown.some((line) => HIT_LINES.includes(line))).toBe(true);
  });

  // At 60 tokens the function around line 34 does not fit, and a smaller part around a lesser hit
  // (line 70) is shown instead, as excerpt.ts intends.
  it.each([120, 250, 1000])("with %i tokens, shows the best hit's whole function", (budget) => {
    const shown = expand(buildExcerpt(file, matches, budget).lineRanges);
    // the exact definition of `refreshToken` ranks first; its braces delimit it without a parse
    expect(shown).toEqual(expect.arrayContaining([34, 35, 36, 37]));
  });

  it('shows every hit when the budget allows, with a gap marker between windows', () => {
    const excerpt = buildExcerpt(file, matches, 1000);
    expect(excerpt.lineRanges).toEqual([
      [34, 37],
      [68, 72],
    ]);
    expect(expand(excerpt.lineRanges)).toEqual(expect.arrayContaining(HIT_LINES));
    const smaller = buildExcerpt(file, matches, 250).text;
    expect(smaller).toContain('\n…\n');
    expect(smaller).not.toContain('filler line 10 ');
  });

  it('spends the budget left on the lines around the hits, evenly', async () => {
    const hit = matchFile(file, await weighKeywords(['expiry'], workspaceOfFile));
    const excerpt = buildExcerpt(file, hit, 150);
    // the parts that matter: the function 34-37; the text adds as many lines above as below it
    expect(excerpt.lineRanges).toEqual([[34, 37]]);
    const shown = numberedLines(excerpt);
    expect(shown).toEqual(expand([[shown[0] ?? 0, shown.at(-1) ?? 0]]));
    expect(shown[0]).toBeLessThan(34);
    expect(Math.abs(34 - (shown[0] ?? 0) - ((shown.at(-1) ?? 0) - 37))).toBeLessThanOrEqual(1);
    expect(estimateTokens(excerpt.text)).toBeGreaterThan(140);
  });

  it('shows a file whole when it fits the budget, the parts that matter still named', () => {
    const excerpt = buildExcerpt(file, matches, 1500);
    expect(numberedLines(excerpt)).toEqual(expand([[1, file.lines.length]]));
    expect(excerpt.lineRanges).toEqual(buildExcerpt(file, matches, 1000).lineRanges);
  });

  it('shows fewer lines for a smaller budget', () => {
    const small = expand(buildExcerpt(file, matches, 60).lineRanges);
    const large = expand(buildExcerpt(file, matches, 1000).lineRanges);
    expect(small.length).toBeLessThan(large.length);
    for (const line of small) expect(large).toContain(line);
  });

  it.each([30, 60, 100, 400])(
    'with %i tokens and no hits, shows the beginning of the file',
    (budget) => {
      const excerpt = buildExcerpt(file, [], budget);
      expect(excerpt.lineRanges).toHaveLength(1);
      expect(excerpt.lineRanges[0]?.[0]).toBe(1);
      expect(excerpt.text).toContain(" 1| import { sign } from './jwt.js';");
      expect(numberedLines(excerpt)).toEqual(expand(excerpt.lineRanges));
    },
  );

  it('with no hits, shows the code after a license header, not the header', () => {
    const licensed = analyzeSource(
      'src/dates.py',
      [
        '# Copyright (c) 2024 Someone',
        '# Licensed under the MIT license.',
        '',
        'import re',
        ...Array.from({ length: 200 }, (_, index) => `value_${index} = ${index}`),
      ].join('\n'),
    );
    const excerpt = buildExcerpt(licensed, [], 100);
    expect(excerpt.lineRanges[0]?.[0]).toBe(4);
    expect(excerpt.text).toContain('4| import re');
    expect(excerpt.text).not.toContain('Copyright');
  });

  it('passes over hits in a license header for the hits in the code', async () => {
    const licensed = analyzeSource(
      'src/Dates.php',
      [
        '<?php',
        '/**',
        ' * This file is part of the Dates package.',
        ' * Licensed under the MIT license.',
        ' */',
        ...Array.from({ length: 100 }, (_, index) => `$value${index} = ${index};`),
        'function parseDates($text) { return $text; }',
      ].join('\n'),
    );
    const workspace = { files: [licensed] } as unknown as Workspace;
    const excerpt = buildExcerpt(
      licensed,
      matchFile(licensed, await weighKeywords(['dates'], workspace)),
      60,
    );
    expect(excerpt.lineRanges.flat().every((line) => line > 5)).toBe(true);
    expect(excerpt.text).toContain('function parseDates');
    expect(excerpt.text).not.toContain('part of the Dates package');
  });

  it('shows more of the beginning for a larger budget, up to the whole file', () => {
    const ends = [30, 100, 400, 5000].map(
      (budget) => buildExcerpt(file, [], budget).lineRanges[0]?.[1] ?? 0,
    );
    expect(ends).toEqual([...ends].sort((left, right) => left - right));
    expect(ends[0]).toBeLessThan(ends[2] ?? 0);
    expect(ends.at(-1)).toBe(file.lines.length);
  });

  it('shows a short file whole, without an outline when it defines and imports nothing', () => {
    const tiny = analyzeSource('notes.txt', 'alpha\nbeta\ngamma');
    expect(buildExcerpt(tiny, [], 50)).toEqual({
      text: '1| alpha\n2| beta\n3| gamma',
      lineRanges: [[1, 3]],
    });
  });

  it('shows nothing when there is no budget', () => {
    const tiny = analyzeSource('notes.txt', 'alpha\nbeta\ngamma');
    expect(buildExcerpt(tiny, [], 0)).toEqual({ text: '', lineRanges: [] });
  });

  it('clips very long lines', () => {
    const long = analyzeSource('src/long.ts', `const message = '${'x'.repeat(500)}';\nexport {};`);
    const excerpt = buildExcerpt(long, [], 1000);
    const first = excerpt.text.split('\n').find((line) => line.startsWith('1| '));
    expect(first).toBeDefined();
    expect(first?.length).toBeLessThanOrEqual('1| '.length + 200);
    expect(first?.endsWith('…')).toBe(true);
  });

  it('stays within the token budget for every budget, with hits or without', () => {
    for (let budget = 1; budget <= 400; budget++) {
      expect(estimateTokens(buildExcerpt(file, matches, budget).text)).toBeLessThanOrEqual(budget);
      expect(estimateTokens(buildExcerpt(file, [], budget).text)).toBeLessThanOrEqual(budget);
    }
  });
});

describe('buildExcerpt with a parsed file: whole definitions, not windows cut mid-call', () => {
  let parsed: SourceFile;
  let workspace: Workspace;
  beforeAll(async () => {
    const root = await createTempTree({ 'src/auth/tokens.ts': TOKENS_FILE });
    workspace = await openWorkspace(root, { maxFileBytes: 100_000, maxFiles: 10 });
    const source = workspace.get('src/auth/tokens.ts');
    if (!source) throw new Error('src/auth/tokens.ts was not read');
    const outline = await workspace.parsedOutline(source);
    // The file as read, but with the parsed outline.
    parsed = Object.create(source, { outline: { value: outline } }) as SourceFile;
  });

  it('knows where each definition ends', () => {
    expect(
      parsed.outline.symbols.map((symbol) => [symbol.name, symbol.line, symbol.endLine]),
    ).toEqual([
      ['refreshToken', 34, 37],
      ['TokenStore', 68, 72],
      ['revoke', 69, 71],
    ]);
  });

  it('shows the whole function around a hit, closing brace included', () => {
    const excerpt = buildExcerpt(parsed, matches, 250);
    expect(excerpt.lineRanges[0]).toEqual([34, 37]);
    expect(excerpt.text).toContain('37| }');
  });

  it('shows the innermost definition: the method, not its whole class', async () => {
    const revoke = matchFile(parsed, await weighKeywords(['gone'], workspace));
    expect(buildExcerpt(parsed, revoke, 250).lineRanges).toEqual([[69, 71]]);
  });

  it('falls back to a window when the definition does not fit the budget', () => {
    const excerpt = buildExcerpt(parsed, matches, 60);
    for (const [start, end] of excerpt.lineRanges) expect(end - start).toBeLessThanOrEqual(4);
  });

  it('shows the same definitions for a file its parse could not read (extents from braces)', () => {
    expect(buildExcerpt(file, matches, 1000).lineRanges).toEqual(
      buildExcerpt(parsed, matches, 1000).lineRanges,
    );
  });
});

describe('workspace.parsedOutline', () => {
  it('keeps the regex outline when parsing is off', async () => {
    const root = await createTempTree({ 'src/auth/tokens.ts': TOKENS_FILE });
    const workspace = await openWorkspace(root, {
      maxFileBytes: 100_000,
      maxFiles: 10,
      syntax: false,
    });
    const source = workspace.get('src/auth/tokens.ts');
    if (!source) throw new Error('src/auth/tokens.ts was not read');
    expect(await workspace.parsedOutline(source)).toBe(source.outline);
    expect(source.outline.symbols.every((symbol) => symbol.endLine === undefined)).toBe(true);
  });
});

describe('buildExcerpt around a definition too long for the budget', () => {
  const LONG = [
    'def handle(request):', // 1
    ...Array.from({ length: 60 }, (_, index) => `    step_${index} = prepare(request, ${index})`),
    '    result = compute(', // 62
    '        request,', // 63
    '        retries=3,', // 64
    '    )', // 65
    ...Array.from({ length: 40 }, (_, index) => `    tail_${index} = finish(${index})`),
    '    return result', // 106
  ].join('\n');
  const match = (line: number): KeywordMatch => ({
    keyword: 'retries',
    form: 'word',
    weight: 1,
    inFileName: false,
    inDirectory: false,
    exactLines: [line],
    partialLines: [],
    definitions: [],
  });

  it('shows the signature and a window that closes the call it cuts into', () => {
    const source = analyzeSource('src/handle.py', LONG);
    // The window 63-67 around line 65 would open on the call's arguments: it starts at the call.
    expect(buildExcerpt(source, [match(65)], 200).lineRanges).toEqual([
      [1, 1],
      [62, 67],
    ]);
  });

  it('shows the whole definition once the budget holds it', () => {
    const source = analyzeSource('src/handle.py', LONG);
    expect(buildExcerpt(source, [match(64)], 2000).lineRanges).toEqual([[1, 106]]);
  });
});

describe('matchedLineRanges', () => {
  const hit = (keyword: string, weight: number, exactLines: number[], definitionLine?: number) =>
    ({
      keyword,
      form: 'word',
      weight,
      inFileName: false,
      inDirectory: false,
      exactLines,
      partialLines: [],
      definitions:
        definitionLine === undefined ? [] : [{ name: keyword, line: definitionLine, exact: true }],
    }) satisfies KeywordMatch;

  it.each([
    ['no matched line', [], 50, []],
    ['a line, two either side', [hit('a', 1, [10])], 50, [[8, 12]]],
    [
      'clipped at both ends',
      [hit('a', 1, [1, 50])],
      50,
      [
        [1, 3],
        [48, 50],
      ],
    ],
    ['nearby lines merged', [hit('a', 1, [10, 13])], 50, [[8, 15]]],
    [
      'the eight most telling lines: a definition before rarer hits',
      [hit('a', 1, [10, 20, 30, 40, 50, 60, 70, 80, 90]), hit('b', 1, [], 95)],
      100,
      [
        [8, 12],
        [18, 22],
        [28, 32],
        [38, 42],
        [48, 52],
        [58, 62],
        [68, 72],
        [93, 97],
      ],
    ],
  ] as [string, KeywordMatch[], number, LineRange[]][])('%s', (_, matches, lineCount, expected) => {
    expect(matchedLineRanges(matches, lineCount)).toEqual(expected);
  });
});
