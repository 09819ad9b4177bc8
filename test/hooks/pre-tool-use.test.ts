import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTempTree, removeTempTrees } from '../support/temp-tree.js';
import {
  EXAMPLE,
  preToolUse,
  runHook,
  TASK,
  updatedInputOf,
  type HookRun,
  type HookRunOptions,
} from './hook-runner.js';
import { estimateTokens } from '../../src/contracts/tokens.js';

let env: Record<string, string>;
beforeEach(async () => {
  env = { RETRIEVAL_HOOK_STORE: join(await createTempTree({}), 'store') };
});
afterEach(removeTempTrees);

const hook = (input: unknown, options: HookRunOptions = {}) =>
  runHook(input, { ...options, env: { ...env, ...options.env } });

/** Every field Claude Code may send in the subagent tool's input, and one it may add later. */
const AGENT_INPUT = {
  description: 'Fix token expiry',
  prompt: TASK,
  subagent_type: 'general-purpose',
  model: 'haiku',
  run_in_background: false,
  name: 'expiry-fixer',
  isolation: 'worktree',
  future_field: { nested: [1, 'two', null], flag: true },
};

function expectUnchanged(run: HookRun, reason: RegExp) {
  expect(run.code).toBe(0);
  expect(run.stdout).toBe('');
  expect(run.notes).toHaveLength(1);
  expect(run.notes[0]).toMatch(/^no change: /);
  expect(run.notes[0]).toMatch(reason);
}

describe('the PreToolUse hook on the subagent tool', () => {
  it.each(['Agent', 'Task'])(
    'extends only the prompt of %s and echoes every other field, unknown ones included',
    async (toolName) => {
      const run = await hook(preToolUse(AGENT_INPUT, { tool_name: toolName }));
      expect(run.code).toBe(0);
      const answer = run.output as { hookSpecificOutput: Record<string, unknown> };
      expect(answer.hookSpecificOutput.hookEventName).toBe('PreToolUse');
      // No permission decision: the user's permission rules still decide about the subagent.
      expect(Object.keys(answer.hookSpecificOutput).sort()).toEqual([
        'hookEventName',
        'updatedInput',
      ]);
      const { prompt, ...rest } = updatedInputOf(run);
      const { prompt: original, ...expectedRest } = AGENT_INPUT;
      expect(rest).toStrictEqual(expectedRest);
      expect(prompt.startsWith(`${original}\n\n<iterative-retrieval-context pack="`)).toBe(true);
      const section = prompt.slice(original.length);
      expect(section).toContain('`src/auth/tokens.ts`');
      expect(section).toContain('relevance');
      expect(section.trimEnd().endsWith('</iterative-retrieval-context>')).toBe(true);
      expect(run.notes).toEqual([
        expect.stringMatching(/^context added to the prompt .*tokens\.ts/),
      ]);
    },
  );

  it('keeps the section within --budget-tokens and takes other retrieval flags', async () => {
    const small = await hook(preToolUse(AGENT_INPUT), { argv: ['--budget-tokens', '400'] });
    const large = await hook(preToolUse(AGENT_INPUT), { argv: ['--budget-tokens', '4000'] });
    const sectionOf = (run: HookRun) => updatedInputOf(run).prompt.slice(TASK.length + 2);
    expect(estimateTokens(sectionOf(small))).toBeLessThanOrEqual(400);
    expect(estimateTokens(sectionOf(large))).toBeGreaterThan(400);

    const one = await hook(preToolUse(AGENT_INPUT), { argv: ['--max-files', '1'] });
    expect(sectionOf(one).match(/^## `/gm)).toHaveLength(1);
    const excluded = await hook(preToolUse(AGENT_INPUT), { argv: ['--exclude', 'src/auth/**'] });
    expect(sectionOf(excluded)).not.toContain('src/auth/');
  });

  it('shows the core files and names the related ones on a line each, without content', async () => {
    const run = await hook(preToolUse(AGENT_INPUT));
    const section = updatedInputOf(run).prompt.slice(TASK.length);
    const related = section.split('## Related files\n\n')[1]?.split('\n\n');
    expect(related?.[0]).toBe('Not included: open one if the files above leave a gap.');
    const items = (related?.[1]?.split('\n') ?? []).filter((line) => !line.startsWith('</'));
    expect(items.length).toBeGreaterThan(0);
    for (const item of items) {
      expect(item).toMatch(/^- `[^`]+` \(0\.\d\d(?:, \w+)?\): \S/);
      // A related file has no section of its own, so no body either.
      expect(section).not.toContain(`## ${item.slice(2, item.indexOf(' ('))}`);
    }
    expect(run.notes[0]).toMatch(/, \d+ related named/);
  });

  it('searches the session cwd, whatever --root says', async () => {
    const run = await hook(preToolUse(AGENT_INPUT), { argv: ['--root', '/nonexistent'] });
    expect(updatedInputOf(run).prompt).toContain('src/auth/tokens.ts');
  });

  it('leaves other tools alone', async () => {
    const run = await hook(
      preToolUse({ command: 'npm test', description: 'Run tests' }, { tool_name: 'Bash' }),
    );
    expectUnchanged(run, /Bash is not the subagent tool/);
  });

  it.each([
    ['the prompt holds the skip marker', `${TASK} [no-context]`, /contains \[no-context\]/],
    ['the skip marker is in capitals', `[NO-CONTEXT] ${TASK}`, /contains \[no-context\]/],
    ['the prompt is blank', '  \n ', /prompt is empty/],
  ])('changes nothing when %s', async (_case, prompt, reason) => {
    expectUnchanged(await hook(preToolUse({ ...AGENT_INPUT, prompt })), reason);
  });

  it.each(['iterative-retrieval:context-scout', 'context-scout'])(
    'changes nothing for the %s agent, which retrieves for itself',
    async (subagentType) => {
      const input = { ...AGENT_INPUT, prompt: TASK, subagent_type: subagentType };
      expectUnchanged(await hook(preToolUse(input)), /context scout runs the retrieval itself/);
    },
  );

  it('never extends a prompt twice', async () => {
    const first = await hook(preToolUse(AGENT_INPUT));
    const again = await hook(preToolUse(updatedInputOf(first), { tool_use_id: 'toolu_02' }));
    expectUnchanged(again, /already holds retrieved context/);
  });

  it('changes nothing when nothing relevant is found', async () => {
    const root = await createTempTree({ 'README.md': 'A recipe for lentil soup.\n' });
    expectUnchanged(
      await hook(preToolUse(AGENT_INPUT, { cwd: root })),
      /nothing relevant found under/,
    );
  });
});

describe('the PreToolUse hook never breaks the session', () => {
  const valid = preToolUse(AGENT_INPUT);
  const without = (field: string) =>
    Object.fromEntries(Object.entries(valid).filter(([key]) => key !== field));

  it.each([
    ['nothing on stdin', '', /nothing on standard input/],
    ['stdin that is not JSON', '{"hook_event_name": "PreToolUse",', /not JSON/],
    ['a JSON array', [], /hook event null is not PreToolUse or SubagentStart/],
    ['another hook event', { ...valid, hook_event_name: 'PostToolUse' }, /"PostToolUse" is not/],
    ['no cwd', without('cwd'), /malformed PreToolUse input: cwd/],
    ['no session id', without('session_id'), /malformed PreToolUse input: session_id/],
    ['no tool use id', without('tool_use_id'), /malformed PreToolUse input: tool_use_id/],
    ['no tool input', without('tool_input'), /malformed PreToolUse input: tool_input/],
    ['a tool input that is a string', { ...valid, tool_input: TASK }, /no description and prompt/],
    ['no prompt', { ...valid, tool_input: { description: 'x' } }, /no description and prompt/],
    [
      'a prompt that is a number',
      { ...valid, tool_input: { ...AGENT_INPUT, prompt: 42 } },
      /no description and prompt/,
    ],
  ])('answers no change to %s, and exits 0', async (_case, input, reason) => {
    expectUnchanged(await hook(input), reason);
  });

  it.each([
    ['a cwd that does not exist', { cwd: '/nonexistent/project' }, [], /does not exist/],
    ['a cwd that is a file', { cwd: join(EXAMPLE, 'package.json') }, [], /is not a directory/],
    ['a judge that cannot start', {}, ['--judge', 'claude'], /needs an Anthropic API key/],
  ])('answers no change to %s, and exits 0', async (_case, overrides, argv, reason) => {
    expectUnchanged(await hook(preToolUse(AGENT_INPUT, overrides), { argv }), reason);
  });

  it('answers no change to a bad flag after `hook`, and exits 0 (exit 2 would block the tool)', async () => {
    const run = await hook(preToolUse(AGENT_INPUT), { argv: ['--max-cycles', 'abc'] });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('');
  });

  it('answers no change when the run is stopped before any file is judged', async () => {
    const controller = new AbortController();
    controller.abort();
    const run = await hook(preToolUse(AGENT_INPUT), { signal: controller.signal });
    expectUnchanged(run, /interrupted .* before any file was judged/);
  });

  it('answers no change to a delivery setting it does not know', async () => {
    const run = await hook(preToolUse(AGENT_INPUT), {
      env: { RETRIEVAL_HOOK_DELIVERY: 'carrier-pigeon' },
    });
    expectUnchanged(run, /RETRIEVAL_HOOK_DELIVERY must be one of both, prompt, start/);
  });

  it('still extends the prompt when the SubagentStart copy cannot be kept', async () => {
    // A store another user could read is refused; the prompt path does not need it.
    const open = await createTempTree({});
    await mkdir(join(open, 'store'), { mode: 0o755 });
    const run = await hook(preToolUse(AGENT_INPUT), {
      env: { RETRIEVAL_HOOK_STORE: join(open, 'store') },
    });
    expect(updatedInputOf(run).prompt).toContain('src/auth/tokens.ts');
    expect(run.notes).toEqual([expect.stringMatching(/^context added to the prompt \(pack/)]);
  });
});
