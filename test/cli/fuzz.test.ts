import { isAbsolute, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FLAGS } from '../../src/cli/flags.js';
import { createRepository } from '../support/repository-factory.js';
import { runInProcess } from './run-in-process.js';
import { seededRandom } from '../support/seeded-random.js';

/**
 * Random command lines from a fixed seed: real flags, near-miss flags and hostile values (huge,
 * NaN, Infinity, underflow, unicode, control characters, empty, repeated). Whatever comes in, the
 * CLI answers with a documented exit code, at most one error line and never a stack trace; the
 * hook always exits 0.
 */

const FLAG_NAMES = FLAGS.filter(
  ({ setting }) => setting !== 'help' && setting !== 'version' && setting !== 'schema',
).map(({ flag }) => `--${flag}`);
const NEAR_MISSES = [
  '--max-cycle',
  '---max-cycles',
  '--',
  '-',
  '--=',
  '-x',
  '--ünïcode',
  '\u2014root',
  '--MAX-CYCLES',
];
/** Values each kind of flag takes, so that many lines get past parsing into a run. */
const PLAUSIBLE: Record<string, string[]> = {
  '<n>': ['1', '2', '3', '8', '100'],
  '<0-1>': ['0.3', '0.7'],
  '<glob>': ['**/*.md', 'src/**'],
  '<seconds>': ['30', '0.5'],
  '<usd>': ['0.5'],
  '<id>': ['claude-haiku-4-5'],
  '<dir>': ['/nonexistent'],
  '<path>': ['/nonexistent/task.md'],
  '<name>': ['json', 'paths', 'markdown', 'heuristic', 'auto'],
};
const PLACEHOLDER = new Map(FLAGS.map(({ flag, value }) => [`--${flag}`, value ?? '']));
const HOSTILE = [
  '',
  ' ',
  '0',
  '-0',
  '-1',
  '1',
  '3',
  '10',
  '11',
  '0.5',
  '1.5',
  '2e0',
  '1e10',
  '4294968',
  '86400',
  '86401',
  'NaN',
  'Infinity',
  '-Infinity',
  '1e-400',
  '1e400',
  '0x10',
  '1_000',
  '9'.repeat(400),
  'abc',
  'ünïcödé',
  '\u202e5',
  'a\nb',
  '\u001b[31m',
  'json',
  'paths',
  'markdown',
  'heuristic',
  'claude',
  'auto',
  '/nonexistent',
  '.',
  '**/*.ts',
];

function commandLines(count: number, seed: number): string[][] {
  const random = seededRandom(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  return Array.from({ length: count }, () => {
    const argv: string[] = random() < 0.8 ? ['token expiry'] : [];
    const tokens = 1 + Math.floor(random() * 3);
    for (let index = 0; index < tokens; index++) {
      const name = pick(random() < 0.9 ? FLAG_NAMES : NEAR_MISSES);
      const value = pick(
        random() < 0.6 ? (PLAUSIBLE[PLACEHOLDER.get(name) ?? ''] ?? HOSTILE) : HOSTILE,
      );
      const takesValue = PLACEHOLDER.get(name) !== '';
      const shape = random();
      // Mostly the right shape for the flag; a quarter of the time, any shape.
      if (shape < 0.75) argv.push(...(takesValue ? [name, value] : [name]));
      else if (shape < 0.85) argv.push(`${name}=${value}`);
      else argv.push(shape < 0.92 ? name : value);
    }
    return argv;
  });
}

let repository: Awaited<ReturnType<typeof createRepository>>;
beforeAll(async () => {
  repository = await createRepository({
    'src/auth/tokens.ts': 'export function tokenExpiry(token: string) { return token.length; }\n',
    'src/auth/session.ts':
      "import { tokenExpiry } from './tokens';\nexport const session = tokenExpiry;\n",
    'README.md': 'Tokens expire after an hour.\n',
  });
});
afterAll(() => repository.remove());

/**
 * A relative `--cache-dir` is made in the working directory, which is this project's: each is
 * put under the test's repository instead, which is removed after.
 */
function cachesInside(argv: string[]): string[] {
  const inside = (directory: string) =>
    directory && !isAbsolute(directory) ? join(repository.root, '.caches', directory) : directory;
  return argv.map((token, index) =>
    argv[index - 1] === '--cache-dir'
      ? inside(token)
      : token.startsWith('--cache-dir=')
        ? `--cache-dir=${inside(token.slice('--cache-dir='.length))}`
        : token,
  );
}

const run = (argv: string[], stdin?: string, env: Record<string, string> = {}) =>
  runInProcess(cachesInside(argv), { stdin, env });

function expectOrderly(lines: string[]) {
  // Each line is the CLI's own or a pino JSON log; none is a stack frame or an unplanned error.
  for (const line of lines) {
    if (line.startsWith('{')) {
      const log = JSON.parse(line) as { msg?: string; level: number };
      expect(log.msg).not.toBe('unexpected error');
    } else expect(line).toMatch(/^iterative-retrieval: /);
  }
  expect(
    lines.filter((line) => line.startsWith('iterative-retrieval: error:')).length,
  ).toBeLessThanOrEqual(1);
}

describe('random command lines', () => {
  it.each(commandLines(200, 20_251_122).map((argv) => [JSON.stringify(argv), argv] as const))(
    '%s',
    async (_shown, argv) => {
      const result = await run([...argv.slice(0, 1), '--root', repository.root, ...argv.slice(1)]);
      expect([0, 1, 2, 3]).toContain(result.code);
      expectOrderly(result.lines);
      if (result.code === 2) expect(result.stdout).toBe('');
    },
  );

  it.each(commandLines(30, 7).map((argv) => [JSON.stringify(argv), argv.slice(1)] as const))(
    'hook %s',
    async (_shown, flags) => {
      const input = JSON.stringify({
        session_id: 'session-1',
        cwd: repository.root,
        hook_event_name: 'PreToolUse',
        tool_name: 'Agent',
        tool_use_id: 'toolu_01',
        tool_input: { description: 'Fix', prompt: 'Fix the token expiry', subagent_type: 'x' },
      });
      const result = await run(['hook', ...flags], input, {
        RETRIEVAL_HOOK_STORE: join(repository.root, '.store'),
      });
      expect(result.code).toBe(0);
      expectOrderly(result.lines);
      if (result.stdout) expect(() => JSON.parse(result.stdout) as unknown).not.toThrow();
    },
  );
});
