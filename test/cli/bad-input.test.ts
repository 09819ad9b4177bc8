import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { CliIo } from '../../src/cli/cli-io.js';
import { runInProcess } from './run-in-process.js';

/**
 * Bad input of every kind a user can type or export: one line that names the flag or variable as
 * written, exit 2, nothing on stdout, no stack trace. The hook answers "no change" and exits 0
 * instead (exit 2 would block the tool); the MCP server refuses to start.
 */

const EXAMPLE = join(import.meta.dirname, '../fixtures/example-service');
const TASK = 'Fix the authentication token expiry bug';
const PRE_TOOL_USE = JSON.stringify({
  session_id: 'session-1',
  cwd: EXAMPLE,
  hook_event_name: 'PreToolUse',
  tool_name: 'Agent',
  tool_use_id: 'toolu_01',
  tool_input: { description: 'Fix token expiry', prompt: TASK, subagent_type: 'general-purpose' },
});

/** In-process, with streams for `mcp` so that only its flags can stop it from starting. */
const cli = (argv: string[], env: CliIo['env'] = {}, stdin?: string) =>
  runInProcess(argv, {
    env,
    stdin,
    streams: { input: new PassThrough(), output: new PassThrough() },
  });

/** Nothing listens there: were a setting to slip through, the run would fail here, never reach the network. */
const UNREACHABLE = 'http://127.0.0.1:9';
const TIMEOUT_RANGE = 'must be a number more than 0 and at most 86400';

/** [case, flags, environment, the one line after `error: `] */
const CASES: [string, string[], Record<string, string>, string][] = [
  [
    'a --timeout past a day',
    ['--timeout', '1e10'],
    {},
    `\`--timeout\` ${TIMEOUT_RANGE} (got "1e10")`,
  ],
  // One second past the most a timer can count (2^32 - 1 ms): it used to fire at once.
  [
    'a --timeout a timer cannot count',
    ['--timeout', '4294968'],
    {},
    `\`--timeout\` ${TIMEOUT_RANGE} (got "4294968")`,
  ],
  ['a negative --timeout', ['--timeout', '-1'], {}, `\`--timeout\` ${TIMEOUT_RANGE} (got "-1")`],
  [
    'a --timeout that is a word',
    ['--timeout', 'abc'],
    {},
    `\`--timeout\` ${TIMEOUT_RANGE} (got "abc")`,
  ],
  ['a --timeout of NaN', ['--timeout', 'NaN'], {}, `\`--timeout\` ${TIMEOUT_RANGE} (got "NaN")`],
  [
    'a --timeout of Infinity',
    ['--timeout', 'Infinity'],
    {},
    `\`--timeout\` ${TIMEOUT_RANGE} (got "Infinity")`,
  ],
  [
    'a --timeout that underflows to 0',
    ['--timeout', '1e-400'],
    {},
    `\`--timeout\` ${TIMEOUT_RANGE} (got "1e-400")`,
  ],
  ['an empty --timeout', ['--timeout='], {}, `\`--timeout\` ${TIMEOUT_RANGE} (got "")`],
  [
    'a hexadecimal count',
    ['--max-cycles', '0x5'],
    {},
    '`--max-cycles` must be a whole number between 1 and 10 (got "0x5")',
  ],
  [
    'a count with spaces',
    ['--max-cycles', ' 5 '],
    {},
    '`--max-cycles` must be a whole number between 1 and 10 (got " 5 ")',
  ],
  [
    'a concurrency past the library limit',
    ['--concurrency', '65'],
    {},
    '`--concurrency` must be a whole number between 1 and 64 (got "65")',
  ],
  [
    'a call budget past the safe integers',
    ['--max-calls', '1e300'],
    {},
    '`--max-calls` must be a whole number between 1 and 9007199254740991 (got "1e300")',
  ],
  [
    'a zero file cap',
    ['--max-repository-files', '0'],
    {},
    '`--max-repository-files` must be a whole number at least 1 (got "0")',
  ],
  [
    'a free cost budget',
    ['--max-cost', '0'],
    {},
    '`--max-cost` must be a number more than 0 (got "0")',
  ],
  ['an empty --root', ['--root', ''], {}, '`--root` must not be empty'],
  ['an empty --exclude', ['--exclude', ''], {}, '`--exclude` must not be empty'],
  [
    'an --exclude whose braces expand too far',
    ['--exclude', '{a,b}'.repeat(9)],
    {},
    `\`--exclude\` must be a glob read in linear time: its braces expand to more than 256 globs (got "${'{a,b}'.repeat(9)}")`,
  ],
  [
    'an --include-secret-file of extglobs',
    ['--include-secret-file', '**/@(a|b).env'],
    {},
    '`--include-secret-file` must be a glob read in linear time: extglobs such as @(a|b) are not supported (got "**/@(a|b).env")',
  ],
  ['an empty --task-file', ['--task-file='], {}, '`--task-file` must not be empty'],
  [
    'a flag where a value belongs',
    ['--root', '--judge'],
    {},
    '`--root` needs a value (got the flag `--judge`; for a value that starts with a dash, write `--root=<value>`)',
  ],
  ['a value given to a switch', ['--excerpts=yes'], {}, '`--excerpts` takes no value (got "yes")'],
  [
    'an unknown flag with a line break',
    ['--max\n-cycles', '2'],
    {},
    'unknown option `--max\\n-cycles`',
  ],
  [
    'a value with a bidi override',
    ['--max-cycles', '\u202e5'],
    {},
    '`--max-cycles` must be a whole number between 1 and 10 (got "\\u202e5")',
  ],
  [
    'a huge value',
    ['--min-files', '9'.repeat(5000)],
    {},
    `\`--min-files\` must be a whole number between 1 and 9007199254740991 (got "${'9'.repeat(80)}…")`,
  ],
  [
    'a model id with a control character',
    ['--evaluator-model', 'claude\u001b[31m'],
    {},
    '`--evaluator-model` must be a model id: letters, digits and punctuation, without spaces or control characters (got "claude\\u001b[31m")',
  ],
  [
    'an unknown log level',
    [],
    { LOG_LEVEL: 'nonsense' },
    '`LOG_LEVEL` must be one of fatal, error, warn, info, debug, trace, silent (got "nonsense")',
  ],
  [
    'a numeric log level',
    [],
    { LOG_LEVEL: '10' },
    '`LOG_LEVEL` must be one of fatal, error, warn, info, debug, trace, silent (got "10")',
  ],
  [
    'a base URL that is not a URL',
    [],
    { ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: 'not a url' },
    '`ANTHROPIC_BASE_URL` must be an http:// or https:// URL (got "not a url")',
  ],
  [
    'an FTP base URL',
    [],
    { ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: 'ftp://127.0.0.1/' },
    '`ANTHROPIC_BASE_URL` must be an http:// or https:// URL (got "ftp://127.0.0.1/")',
  ],
  // The key is a secret: the line says what is wrong with it, never what it is.
  [
    'an API key with a line break',
    [],
    { ANTHROPIC_API_KEY: 'sk-a\nsk-b', ANTHROPIC_BASE_URL: UNREACHABLE },
    '`ANTHROPIC_API_KEY` must be printable ASCII without spaces or line breaks (it is sent in a header)',
  ],
  [
    'an API key with a non-ASCII character',
    [],
    { ANTHROPIC_API_KEY: 'sk-ü€', ANTHROPIC_BASE_URL: UNREACHABLE },
    '`ANTHROPIC_API_KEY` must be printable ASCII without spaces or line breaks (it is sent in a header)',
  ],
  // Read by the SDK itself: a bad header name failed the first request with a stack trace.
  [
    'a custom header with a space in its name',
    [],
    {
      ANTHROPIC_API_KEY: 'sk-test',
      ANTHROPIC_BASE_URL: UNREACHABLE,
      ANTHROPIC_CUSTOM_HEADERS: 'x-ok: 1\nbad header: secret',
    },
    '`ANTHROPIC_CUSTOM_HEADERS` must hold one `Name: value` per line, in printable ASCII, with no space in a name (line 2 is not)',
  ],
  [
    'a model id from the environment with a line break',
    [],
    {
      ANTHROPIC_API_KEY: 'sk-test',
      ANTHROPIC_BASE_URL: 'http://127.0.0.1:9',
      RETRIEVAL_REFINER_MODEL: 'a\nb',
    },
    '`RETRIEVAL_REFINER_MODEL` must be a model id: letters, digits and punctuation, without spaces or control characters (got "a\\nb")',
  ],
];

describe('bad input', () => {
  it.each(CASES)('%s: one line and exit 2', async (_case, flags, env, line) => {
    const run = await cli([TASK, '--root', EXAMPLE, ...flags], env);
    expect(run.code).toBe(2);
    expect(run.lines).toEqual([
      `iterative-retrieval: error: ${line}`,
      'iterative-retrieval: run with --help for usage',
    ]);
    expect(run.stdout).toBe('');
  });

  it.each(CASES)('%s, in the hook: no change and exit 0', async (_case, flags, env, line) => {
    const run = await cli(['hook', ...flags], env, PRE_TOOL_USE);
    expect(run.code).toBe(0);
    expect(run.lines).toEqual([`iterative-retrieval: hook: no change: ${line}`]);
    expect(run.stdout).toBe('');
  });

  it.each(CASES)(
    '%s, for the MCP server: it does not start, exit 2',
    async (_case, flags, env, line) => {
      const run = await cli(['mcp', '--root', EXAMPLE, ...flags], env);
      expect(run.code).toBe(2);
      expect(run.lines[0]).toBe(`iterative-retrieval: error: ${line}`);
      expect(run.lines).toHaveLength(2);
    },
  );

  it("keeps the hook's line on one line, whatever its input holds", async () => {
    const input = JSON.parse(PRE_TOOL_USE) as Record<string, unknown>;
    const forged = JSON.stringify({ ...input, tool_name: 'Bash\nforged line\u001b[2J' });
    const run = await cli(['hook'], {}, forged);
    expect(run.code).toBe(0);
    // And where it searched: a session's directory may hold line breaks too.
    const elsewhere = await cli(
      ['hook'],
      {},
      JSON.stringify({ ...input, cwd: '/nonexistent/a\nb' }),
    );
    expect(elsewhere.lines).toHaveLength(1);
    expect(elsewhere.lines[0]).toContain('/nonexistent/a\\nb');
    expect(run.lines).toEqual([
      'iterative-retrieval: hook: no change: Bash\\nforged line\\u001b[2J is not the subagent tool',
    ]);
  });

  it('ends a run whose task on standard input does not end within its --timeout (exit 1)', async () => {
    const run = await runInProcess(['--root', EXAMPLE, '--timeout', '0.2'], {
      readStdin: () => new Promise<string | undefined>(() => undefined),
    });
    expect(run.code).toBe(1);
    expect(run.lines).toEqual([
      'iterative-retrieval: error: the --timeout ran out before the task on standard input ended',
    ]);
  });

  it('answers no change when the hook input does not end within its time limit', async () => {
    // A caller that writes nothing and never closes its end.
    const run = await runInProcess(['hook', '--timeout', '0.2'], {
      readStdin: () => new Promise<string | undefined>(() => undefined),
    });
    expect(run.code).toBe(0);
    expect(run.lines).toEqual([
      'iterative-retrieval: hook: no change: its input did not end within the time limit of 0.2 s',
    ]);
  });

  it('answers a hook input nested thousands deep with no change, searching nothing', async () => {
    const depth = 10_000;
    const deep = PRE_TOOL_USE.replace(
      '"subagent_type"',
      `"x":${'['.repeat(depth)}${']'.repeat(depth)},"subagent_type"`,
    );
    const run = await cli(['hook'], {}, deep);
    expect(run.code).toBe(0);
    expect(run.lines).toEqual([
      'iterative-retrieval: hook: no change: standard input nests more than 64 deep',
    ]);
    expect(run.stdout).toBe('');
  });

  it('keeps a path with a line break on one line (exit 3)', async () => {
    const run = await cli([TASK, '--root', '/nonexistent/a\nb']);
    expect(run.code).toBe(3);
    expect(run.lines.filter((line) => !line.startsWith('{'))).toEqual([
      'iterative-retrieval: error: root `/nonexistent/a\\nb` does not exist',
    ]);
  });

  it('ignores the Claude settings when the offline judge is asked for', async () => {
    const run = await cli([TASK, '--root', EXAMPLE, '--judge', 'heuristic', '--format', 'paths'], {
      ANTHROPIC_API_KEY: 'sk-a\nsk-b',
      ANTHROPIC_BASE_URL: 'not a url',
    });
    expect(run.code).toBe(0);
    expect(run.stdout.split('\n')).toContain('src/auth/tokens.ts');
  });

  it.each([
    ['a log level in capitals', { LOG_LEVEL: 'WARN' }],
    ['an empty log level', { LOG_LEVEL: '  ' }],
    ['an empty API key and base URL', { ANTHROPIC_API_KEY: ' ', ANTHROPIC_BASE_URL: ' ' }],
  ])('accepts %s', async (_case, env) => {
    const run = await cli([TASK, '--root', EXAMPLE, '--format', 'paths'], env);
    expect(run.code).toBe(0);
    expect(run.stdout.split('\n')).toContain('src/auth/tokens.ts');
  });

  it.each([
    ['the last of a flag given twice', ['--max-cycles', '3', '--max-cycles', '1'], 1],
    ['a value after `=`', ['--max-cycles=1'], 1],
    ['a number in exponent notation', ['--max-cycles', '2e0'], 2],
  ])('takes %s', async (_case, flags, cycles) => {
    const run = await cli([TASK, '--root', EXAMPLE, '--format', 'json', ...flags]);
    expect(run.code).toBe(0);
    expect((JSON.parse(run.stdout) as { trace: unknown[] }).trace.length).toBeLessThanOrEqual(
      cycles,
    );
  });
});
