import { basename, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import type { ContextFile, ContextPack } from '../../src/output/context-pack.js';
import { numberLines, renderHandover } from '../../src/output/handover.js';
import { formatMarkdown } from '../../src/output/markdown.js';
import { makeFile, makePack } from '../support/context-pack-factory.js';
import { createTempTree, removeTempTrees } from '../support/temp-tree.js';
import { estimateTokens } from '../../src/contracts/tokens.js';

const EXAMPLE = join(import.meta.dirname, '../fixtures/example-service');

afterAll(async () => {
  await removeTempTrees();
});

/** `count` numbered lines from `first`, about 32 characters each, as an excerpt shows them. */
function numbered(first: number, count: number): string {
  return Array.from(
    { length: count },
    (_, offset) => `${first + offset}| const value${first + offset} = compute();`,
  ).join('\n');
}

type Body = 'whole' | 'parts' | 'excerpt' | 'left out' | 'none';

/** What a file's section shows under its facts, or undefined when the file is not shown. */
function bodyOf(text: string, path: string): Body | undefined {
  const section = text.split(/\n(?=## )/).find((part) => part.startsWith(`## \`${path}\``));
  if (section === undefined) return undefined;
  if (section.includes('\nWhole file:\n')) return 'whole';
  if (section.includes('\nParts of the file: ')) return 'parts';
  if (section.includes('\nExcerpt:\n')) return 'excerpt';
  if (section.includes('\nBody left out to fit the token budget')) return 'left out';
  return 'none';
}

function fencesBalance(text: string): boolean {
  const fences = text.match(/^`{3,}/gm) ?? [];
  return fences.length % 2 === 0;
}

// About 200 tokens of excerpt each; only the first file's whole text (about 1,270) is at hand.
const first = makeFile({ path: 'src/a.ts', relevance: 0.9, excerpt: numbered(1, 25) });
const second = makeFile({ path: 'src/b.ts', relevance: 0.6, excerpt: numbered(40, 25) });
const contents = new Map([['src/a.ts', numbered(1, 160)]]);

describe('formatMarkdown within a token budget', () => {
  it.each<[number, Body, Body]>([
    [160, 'left out', 'left out'],
    [450, 'excerpt', 'left out'],
    [700, 'excerpt', 'excerpt'],
    [1450, 'whole', 'left out'],
    [2500, 'whole', 'excerpt'],
  ])('with %i tokens shows %s for the most relevant file and %s for the next', (budget, a, b) => {
    const text = formatMarkdown(makePack({ files: [first, second] }), {
      excerpts: false,
      budgetTokens: budget,
      contents,
    });
    expect([bodyOf(text, 'src/a.ts'), bodyOf(text, 'src/b.ts')]).toEqual([a, b]);
    expect(estimateTokens(text)).toBeLessThanOrEqual(budget);
  });

  // Before: every file was named first and bodies took what was left, so a small budget (the
  // SubagentStart copy) dropped the body of the file that mattered most.
  it('gives the most relevant file whole before naming the least relevant files', () => {
    const others = Array.from({ length: 8 }, (_, index) =>
      makeFile({
        path: `src/other-${index}.ts`,
        relevance: 0.5,
        reason: `Related helper number ${index}, with a reason long enough to cost a few dozen tokens of the budget.`,
      }),
    );
    const text = formatMarkdown(makePack({ files: [first, ...others] }), {
      excerpts: false,
      budgetTokens: 1600,
      contents,
    });
    expect(bodyOf(text, 'src/a.ts')).toBe('whole');
    expect(text).toMatch(/\d less relevant files? left out to fit the token budget/);
    expect(estimateTokens(text)).toBeLessThanOrEqual(1600);
  });

  // Before: the heading was the whole task on one line; a 30 KB issue left no room for any file.
  it('titles a long task with its first line and spends the budget on files', () => {
    const task = `Fix the token expiry check\n\n${'pip-package==1.0.0\n'.repeat(1500)}`;
    const text = formatMarkdown(makePack({ task, files: [first, second] }), {
      excerpts: false,
      budgetTokens: 6000,
      contents,
    });
    expect(text.split('\n', 1)[0]).toBe('# Context for: Fix the token expiry check');
    expect(bodyOf(text, 'src/a.ts')).toBe('whole');
    expect(text).not.toContain('pip-package');
  });

  it('shows a long task whole below its title when there is no budget', () => {
    const task = `Fix the token expiry check\n\nSteps: log in, wait an hour.`;
    const text = formatMarkdown(makePack({ task, files: [first] }), { excerpts: false });
    expect(text.split('\n', 1)[0]).toBe('# Context for: Fix the token expiry check');
    expect(text).toContain(
      '## Task\n\n```text\nFix the token expiry check\n\nSteps: log in, wait an hour.\n```',
    );
  });

  it("serves the most relevant file first, whatever the pack's order, and keeps that order", () => {
    const text = formatMarkdown(makePack({ files: [second, first] }), {
      excerpts: false,
      budgetTokens: 450,
    });
    expect(bodyOf(text, 'src/a.ts')).toBe('excerpt');
    expect(bodyOf(text, 'src/b.ts')).toBe('left out');
    expect(text.indexOf('## `src/b.ts`')).toBeLessThan(text.indexOf('## `src/a.ts`'));
  });

  it('says which lines to read when a body is left out', () => {
    const file = makeFile({
      lineRanges: [
        [3, 3],
        [41, 47],
      ],
      excerpt: numbered(1, 400),
    });
    const text = formatMarkdown(makePack({ files: [file] }), {
      excerpts: false,
      budgetTokens: 200,
    });
    expect(text).toContain('\n\nBody left out to fit the token budget: read lines 3, 41–47.\n');
  });

  it('keeps a whole file holding triple backticks inside a longer fence', () => {
    const whole = '1| const fence = "```";\n2| export {};';
    const text = formatMarkdown(makePack({ files: [first] }), {
      excerpts: false,
      budgetTokens: 1000,
      contents: new Map([['src/a.ts', whole]]),
    });
    expect(text).toContain(`Whole file:\n\n\`\`\`\`ts\n${whole}\n\`\`\`\`\n`);
  });

  it('is the plain format when no budget is given, whole files or not', () => {
    const pack = makePack({ files: [first, second] });
    expect(formatMarkdown(pack, { excerpts: true, contents })).toBe(
      formatMarkdown(pack, { excerpts: true }),
    );
  });

  it('leaves out the least relevant files first, and says how many, when even headings overflow', () => {
    const files = ['x', 'y', 'z'].map((name, index) =>
      makeFile({ path: `src/${name}.ts`, relevance: 0.9 - index / 10, reason: 'r'.repeat(300) }),
    );
    const text = formatMarkdown(makePack({ files }), { excerpts: false, budgetTokens: 150 });
    expect(text).toContain('## `src/x.ts`');
    expect(text).not.toContain('## `src/z.ts`');
    expect(text).toMatch(/\n\n[12] less relevant files? left out to fit the token budget\.\n/);
  });

  it('leaves out the gap and warning lists before any file', () => {
    const files = ['x', 'y'].map((name, index) =>
      makeFile({ path: `src/${name}.ts`, relevance: 0.9 - index / 10, reason: 'r'.repeat(200) }),
    );
    const gaps = Array.from({ length: 8 }, (_, index) => ({
      description: `the ${'Backoff '.repeat(10)}type ${index}`,
      raisedBy: ['src/x.ts'],
      cycle: 1,
      searched: true,
    }));
    const text = formatMarkdown(makePack({ files, gaps }), { excerpts: false, budgetTokens: 260 });
    expect(text).toContain('## `src/x.ts`');
    expect(text).toContain('## `src/y.ts`');
    expect(text).not.toContain('## Open gaps');
    expect(text).toContain('Open gaps and warnings left out to fit the token budget.');
    expect(estimateTokens(text)).toBeLessThanOrEqual(260);
  });

  it('leaves out the least relevant related files before any core file, and says how many', () => {
    const related = Array.from({ length: 10 }, (_, index) => ({
      path: `src/neighbour-${index}.ts`,
      relevance: 0.79 - index / 100,
      reason: `Calls the retry ${'with its options '.repeat(4)}`,
      kind: 'source' as const,
    }));
    const pack = makePack({ files: [first, second], related });
    const whole = formatMarkdown(pack, { excerpts: false, budgetTokens: 100_000 });
    expect(whole).toContain('`src/neighbour-9.ts`');
    const text = formatMarkdown(pack, { excerpts: false, budgetTokens: 300 });
    expect(bodyOf(text, 'src/a.ts')).toBeDefined();
    expect(bodyOf(text, 'src/b.ts')).toBeDefined();
    expect(text).toContain('`src/neighbour-0.ts`');
    expect(text).not.toContain('`src/neighbour-9.ts`');
    expect(text).toMatch(
      /\n\n\d+ less relevant related files? left out to fit the token budget\.\n/,
    );
    expect(estimateTokens(text)).toBeLessThanOrEqual(300);
  });

  it('clips a task too long for the budget to a title that fits', () => {
    const pack = makePack({ task: `Fix ${'everything '.repeat(200)}` });
    const text = formatMarkdown(pack, { excerpts: false, budgetTokens: 30 });
    expect(text).toMatch(/^# Context for: Fix everything .*…\n$/);
    expect(estimateTokens(text)).toBeLessThanOrEqual(30);
  });

  // A pack that overflows small budgets on every count: long reasons, gaps, warnings, bodies.
  const crowded: ContextPack = makePack({
    files: Array.from({ length: 6 }, (_, index) =>
      makeFile({
        path: `src/module-${index}.ts`,
        relevance: [0.95, 0.5, 0.8, 0.66, 0.9, 0.55][index] ?? 0.5,
        reason: `Reason ${index}: ${'handles the retry path '.repeat(index + 1)}`,
        missingContext: index % 2 === 0 ? ['the Backoff type'] : [],
        excerpt: `${numbered(10 * index + 1, 10 + 8 * index)}\n// a \`\`\` fence in code`,
      }),
    ),
    gaps: [
      { description: 'the Backoff type', raisedBy: ['src/module-0.ts'], cycle: 1, searched: false },
    ],
    warnings: ['3 files were not read: over the size limit'],
    related: Array.from({ length: 8 }, (_, index) => ({
      path: `test/module-${index}.test.ts`,
      relevance: 0.7 - index / 50,
      reason: `Tests module ${index} ${'through the client '.repeat(index)}`,
      kind: 'test' as const,
    })),
  });
  const crowdedContents = new Map(
    crowded.files.filter((_, index) => index % 2 === 0).map((file) => [file.path, numbered(1, 90)]),
  );
  const rank = new Map(crowded.files.map((file) => [file.path, file.relevance]));

  it('never exceeds the budget, and keeps fences closed and the most relevant files (50..5000 tokens)', () => {
    for (let budget = 50; budget <= 5000; budget += 7) {
      const text = formatMarkdown(crowded, {
        excerpts: false,
        budgetTokens: budget,
        contents: crowdedContents,
      });
      expect(estimateTokens(text), `budget ${budget}`).toBeLessThanOrEqual(budget);
      expect(fencesBalance(text), `budget ${budget}`).toBe(true);
      const shown = crowded.files.filter((file) => bodyOf(text, file.path) !== undefined);
      const leastShown = Math.min(...shown.map((file) => rank.get(file.path) ?? 0));
      const missing = crowded.files.filter((file) => !shown.includes(file));
      expect(
        missing.every((file) => file.relevance < leastShown),
        `budget ${budget}`,
      ).toBe(true);
    }
  });

  it.each([0, 1, 5, 20, 49])('never exceeds a tiny budget of %i tokens', (budget) => {
    const text = formatMarkdown(crowded, { excerpts: false, budgetTokens: budget });
    expect(estimateTokens(text)).toBeLessThanOrEqual(budget);
  });
});

describe('numberLines', () => {
  it.each([
    ['one line', 'a', '1| a'],
    ['a final newline', 'a\nb\n', '1| a\n2| b'],
    ['Windows line ends', 'a\r\nb', '1| a\n2| b'],
    ['an empty line', 'a\n\nb', '1| a\n2| \n3| b'],
    ['ten lines, padded', 'x\n'.repeat(10), ` 1| x\n${' 2| x\n'}`],
  ])('numbers %s as excerpts do', (_name, text, expected) => {
    expect(numberLines(text).startsWith(expected)).toBe(true);
  });
});

// Fake secrets, assembled at run time so that no scanner mistakes this file for a leak.
const glue = (...parts: string[]) => parts.join('');
const SECRETS = [
  glue('AKIA', 'Z7Q2X9L4M1N8B6V3'),
  glue('ghp_', 'R4nd0mT0k3nV4lu3F0rT3st1ngOnlyXyZ12'),
  glue('sk_', 'live_', '51Hx9FakeKeyForTestsOnly0000aa'),
  glue('S3cr3t', 'Pa55w0rd', 'Db'),
  glue('eyJhbGciOiJIUzI1NiJ9', '.', 'eyJzdWIiOiJwYXltZW50LWNsaWVudCJ9', '.', 'c2lnbmF0dXJl'),
  glue('MIIEvQIBADANBgkqhkiG9w0BAQEFAASC', 'BKcwggSjAgEAAoIBAQC7VJTUt9Us8cKB'),
];
const CONFIG_FILE = [
  'export const paymentConfig = {',
  `  awsAccessKeyId: '${SECRETS[0]}',`,
  `  githubToken: '${SECRETS[1]}',`,
  `  stripeSecretKey: '${SECRETS[2]}',`,
  `  databaseUrl: 'postgres://payments:${SECRETS[3]}@db.internal:5432/payments',`,
  `  serviceToken: '${SECRETS[4]}',`,
  '};',
  glue('// -----BEGIN ', 'PRIVATE KEY-----'),
  `// ${SECRETS[5]}wVwQi/UEW3O5H0zR4sb8y1Jd3zqYVJ0pW1bX0DcPbQ4x`,
  '// lQ2Oa6oY8Y0qH5yqTbq9fdSPL1kN3xKj8mW2Zr6aP0gH4tE7vB9nM1cX5zQ8wR2y',
  glue('// -----END ', 'PRIVATE KEY-----'),
  'export const retries = 3;',
  '',
].join('\n');

function packAt(root: string, files: Partial<ContextFile>[]): ContextPack {
  return makePack({
    root,
    files: files.map((file) => makeFile({ excerpt: '1| EXCERPT', ...file })),
  });
}

describe('renderHandover', () => {
  it('shows a whole file with its secrets redacted and its line numbers intact', async () => {
    const root = await createTempTree({ 'src/payment/config.ts': CONFIG_FILE });
    const pack = packAt(root, [{ path: 'src/payment/config.ts' }]);
    const text = await renderHandover(pack, { budgetTokens: 2000 });
    expect(bodyOf(text, 'src/payment/config.ts')).toBe('whole');
    for (const secret of SECRETS) expect(text).not.toContain(secret);
    expect(text).toContain('[REDACTED:');
    expect(text).toContain('\n12| export const retries = 3;\n');
  });

  const tooLong = `${'export const filler = 0;\n'.repeat(400)}// MARKER\n`;
  it.each<[string, Record<string, string | Uint8Array>, string]>([
    [
      'not UTF-8',
      { 'src/a.ts': Buffer.from([0x4d, 0x41, 0x52, 0x4b, 0x45, 0x52, 0xff, 0xfe]) },
      'src/a.ts',
    ],
    ['binary', { 'src/a.ts': 'MARKER\0\0' }, 'src/a.ts'],
    ['a secret file', { '.env.example': 'MARKER=1\n' }, '.env.example'],
    ['missing', {}, 'src/a.ts'],
    [
      'longer than the whole budget, with no line that matters',
      { 'src/a.ts': tooLong },
      'src/a.ts',
    ],
  ])('shows the excerpt instead of a file that is %s', async (_name, files, path) => {
    const root = await createTempTree(files);
    const text = await renderHandover(packAt(root, [{ path, lineRanges: [] }]), {
      budgetTokens: 1000,
    });
    expect(bodyOf(text, path)).toBe('excerpt');
    expect(text).not.toContain('MARKER');
  });

  const LONG_SERVICE = [
    ...Array.from({ length: 150 }, (_, index) => `export const filler${index} = ${index};`),
    'export function renew(token: string): string {', // 151
    '  const next = sign(token);', // 152
    '  return next;', // 153
    '}', // 154
    ...Array.from({ length: 150 }, (_, index) => `export const after${index} = ${index};`),
    '// MARKER', // 305
  ].join('\n');

  it('shows the whole function around the lines that matter when the file is too long', async () => {
    const root = await createTempTree({ 'src/renew.ts': LONG_SERVICE });
    const pack = packAt(root, [{ path: 'src/renew.ts', lineRanges: [[152, 152]] }]);
    const text = await renderHandover(pack, { budgetTokens: 1000 });
    expect(bodyOf(text, 'src/renew.ts')).toBe('parts');
    expect(text).toContain(
      'Parts of the file: lines 151–154 (`renew`); lines 1–150, 155–305 left out.',
    );
    expect(text).toContain('151| export function renew(token: string): string {');
    expect(text).toContain('154| }');
    expect(text).not.toContain('MARKER');
  });

  it('names the left-out lines of a file whose parts are plain ranges', async () => {
    const root = await createTempTree({ 'src/renew.ts': LONG_SERVICE });
    const pack = packAt(root, [{ path: 'src/renew.ts', lineRanges: [[10, 12]] }]);
    const text = await renderHandover(pack, { budgetTokens: 1000 });
    expect(text).toContain('Parts of the file: lines 10–12; lines 1–9, 13–305 left out.');
  });

  it('reads nothing outside the root', async () => {
    const outside = await createTempTree({ 'a.ts': '// MARKER\n' });
    const root = await createTempTree({});
    const path = `../${basename(outside)}/a.ts`;
    const text = await renderHandover(packAt(root, [{ path }]), { budgetTokens: 1000 });
    expect(text).not.toContain('MARKER');
  });

  it.each([100, 500, 2000, 6000, 20_000])(
    'stays within %i tokens on the example service',
    async (budget) => {
      const paths = ['src/auth/tokens.ts', 'src/auth/jwt-utils.ts', 'src/auth/auth-service.ts'];
      const pack = makePack({
        root: EXAMPLE,
        files: paths.map((path, index) => makeFile({ path, relevance: 0.9 - index / 10 })),
      });
      const text = await renderHandover(pack, { budgetTokens: budget });
      expect(estimateTokens(text)).toBeLessThanOrEqual(budget);
      if (budget >= 2000) expect(bodyOf(text, 'src/auth/tokens.ts')).toBe('whole');
      if (budget >= 20_000)
        expect(paths.map((path) => bodyOf(text, path))).toEqual(['whole', 'whole', 'whole']);
    },
  );
});

describe('the CLI with --budget-tokens', () => {
  async function cli(argv: string[]): Promise<{ code: number; stdout: string }> {
    let stdout = '';
    const code = await runCli({
      argv: ['Fix the authentication token expiry bug', '--root', EXAMPLE, ...argv],
      env: {},
      stdout: { write: (text: string) => (stdout += text), isTTY: false },
      stderr: { write: () => true, isTTY: false },
      readStdin: async () => undefined,
      version: '9.9.9',
    });
    return { code, stdout };
  }

  it.each([300, 1500, 8000])('prints markdown within %i tokens', async (budget) => {
    const run = await cli(['--format', 'markdown', '--budget-tokens', String(budget)]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^# Context for: Fix the authentication token expiry bug\n/);
    expect(estimateTokens(run.stdout)).toBeLessThanOrEqual(budget);
    if (budget >= 8000) expect(run.stdout).toContain('\nWhole file:\n');
  });

  it('keeps --excerpts as it was when no budget is given', async () => {
    const run = await cli(['--format', 'markdown', '--excerpts']);
    expect(run.stdout).toContain('```ts\n');
    expect(run.stdout).not.toMatch(/Whole file:|Excerpt:|left out to fit/);
  });
});
