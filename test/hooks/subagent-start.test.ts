import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTempTree, removeTempTrees } from '../support/temp-tree.js';
import {
  additionalContextOf,
  preToolUse,
  runHook,
  subagentStart,
  TASK,
  updatedInputOf,
  type HookRun,
  type HookRunOptions,
} from './hook-runner.js';

let store: string;
beforeEach(async () => {
  store = join(await createTempTree({}), 'store');
});
afterEach(async () => {
  vi.useRealTimers();
  await removeTempTrees();
});

// The SubagentStart path is opt-in: these tests turn on both deliveries unless they say otherwise.
const hook = (input: unknown, options: HookRunOptions = {}) =>
  runHook(input, {
    ...options,
    env: { RETRIEVAL_HOOK_STORE: store, RETRIEVAL_HOOK_DELIVERY: 'both', ...options.env },
  });

const INVOICE_TASK = 'Fix the rounding of the invoice total in billing';

const launch = (prompt: string, toolUseId: string, extra: Record<string, unknown> = {}) =>
  hook(preToolUse({ description: 'Subagent task', prompt, ...extra }, { tool_use_id: toolUseId }));

/** The section the PreToolUse hook appended to the prompt. */
const sectionOf = (run: HookRun, prompt: string) =>
  updatedInputOf(run).prompt.slice(prompt.length + 2);

/** The pack a context section, or its SubagentStart copy, comes from. */
const packOf = (text: string) => /<iterative-retrieval-context pack="(\w+)">/.exec(text)?.[1];
const sameLaunch = (context: string, run: HookRun, prompt: string) =>
  packOf(context) !== undefined && packOf(context) === packOf(sectionOf(run, prompt));

async function filesIn(directory: string): Promise<string[]> {
  const sessions = await readdir(directory).catch(() => []);
  const nested = await Promise.all(sessions.map((name) => readdir(join(directory, name))));
  return nested.flat();
}

function expectNothingDelivered(run: HookRun, reason: RegExp) {
  expect(run.code).toBe(0);
  expect(run.stdout).toBe('');
  expect(run.notes).toEqual([expect.stringMatching(reason)]);
}

/** Two subagents of one type start at once, and neither can be told which launch it is. */
async function expectTwoStartsGetNothing() {
  const started = await Promise.all([
    hook(subagentStart({ agent_id: 'agent-a' })),
    hook(subagentStart({ agent_id: 'agent-b' })),
  ]);
  for (const run of started)
    expectNothingDelivered(
      run,
      /no change: 2 launches of general-purpose subagents are waiting in this session/,
    );
}

describe('the default delivery', () => {
  // Before: both paths by default, so a subagent got ~23k characters in its prompt and a 9.5k
  // copy of the same files, and with two launches in one turn the copies could be swapped.
  it('extends the prompt only, and keeps no copy for SubagentStart', async () => {
    const env = { RETRIEVAL_HOOK_STORE: store };
    const launched = await runHook(
      preToolUse({ description: 'Subagent task', prompt: TASK }, { tool_use_id: 'toolu_01' }),
      { env },
    );
    expect(updatedInputOf(launched).prompt).toContain('src/auth/tokens.ts');
    expect(launched.notes).toEqual([expect.stringMatching(/^context added to the prompt \(pack/)]);
    expect(await filesIn(store)).toEqual([]);
    expectNothingDelivered(
      await runHook(subagentStart(), { env }),
      /RETRIEVAL_HOOK_DELIVERY=prompt delivers context in the prompt only/,
    );
  });
});

describe('the SubagentStart hook', () => {
  it('delivers the context found for the launch once, marked as a copy of the prompt section', async () => {
    const launched = await launch(TASK, 'toolu_01');
    const started = await hook(subagentStart());
    expect(started.code).toBe(0);
    expect(started.output).toEqual({
      hookSpecificOutput: { hookEventName: 'SubagentStart', additionalContext: expect.any(String) },
    });
    const context = additionalContextOf(started);
    expect(context).toMatch(/^If your task prompt already ends with the context section of pack/);
    expect(sameLaunch(context, launched, TASK)).toBe(true);
    expect(context).toContain('src/auth/tokens.ts');
    expect(started.notes).toEqual([
      expect.stringMatching(/^context delivered to general-purpose subagent agent-1/),
    ]);

    const again = await hook(subagentStart({ agent_id: 'agent-2' }));
    expectNothingDelivered(
      again,
      /no change: no context kept for this session's subagents of type general-purpose/,
    );
    expect(await filesIn(store)).toEqual([]);
  });

  it('keeps its copy within the 10,000 characters Claude Code passes on whole', async () => {
    const launched = await hook(
      preToolUse({ description: 'Subagent task', prompt: TASK }, { tool_use_id: 'toolu_big' }),
      { argv: ['--budget-tokens', '20000'] },
    );
    expect(sectionOf(launched, TASK).length).toBeGreaterThan(10_000);
    const context = additionalContextOf(await hook(subagentStart()));
    expect(context.length).toBeLessThanOrEqual(10_000);
    expect(sameLaunch(context, launched, TASK)).toBe(true);
    expect(context).toContain('src/auth/tokens.ts');
  });

  // Before: each got the oldest pack of its type, and with the real client the copies of two
  // launches in one turn were swapped in 3 of 12 runs.
  it('never hands either of two launches of one type a copy it cannot prove its own', async () => {
    await launch(TASK, 'toolu_auth');
    await launch(INVOICE_TASK, 'toolu_invoice');
    await expectTwoStartsGetNothing();
  });

  // Before: a launch that got no context kept nothing, so its subagent took the one other
  // waiting pack of its type, found for another launch.
  it.each([
    ['whose prompt says [no-context]', `${INVOICE_TASK} [no-context]`],
    ['for which nothing relevant was found', 'Quuxify the zorblax frobnicator'],
  ])('never hands a subagent %s the copy of another launch', async (_, prompt) => {
    await launch(TASK, 'toolu_auth');
    await launch(prompt, 'toolu_other');
    await expectTwoStartsGetNothing();
  });

  it('tells a subagent whose launch found nothing that there is nothing, and keeps no record', async () => {
    await launch('Quuxify the zorblax frobnicator', 'toolu_1');
    expectNothingDelivered(
      await hook(subagentStart()),
      /no change: the launch of this general-purpose subagent found no context to hand over/,
    );
    expect(await filesIn(store)).toEqual([]);
    const next = await launch(TASK, 'toolu_2');
    expect(sameLaunch(additionalContextOf(await hook(subagentStart())), next, TASK)).toBe(true);
  });

  it('delivers to a subagent whose type only one waiting launch asked for', async () => {
    await launch(TASK, 'toolu_1');
    const explore = await launch(INVOICE_TASK, 'toolu_2', { subagent_type: 'Explore' });
    await launch(INVOICE_TASK, 'toolu_3');

    const explorer = await hook(subagentStart({ agent_type: 'Explore' }));
    expect(sameLaunch(additionalContextOf(explorer), explore, INVOICE_TASK)).toBe(true);
    expectNothingDelivered(await hook(subagentStart()), /2 launches of general-purpose/);
    expectNothingDelivered(
      await hook(subagentStart({ agent_type: 'Plan' })),
      /no context kept for this session's subagents of type Plan/,
    );
  });

  it('delivers one launch after another when each subagent starts before the next launch', async () => {
    const first = await launch(TASK, 'toolu_1');
    expect(sameLaunch(additionalContextOf(await hook(subagentStart())), first, TASK)).toBe(true);
    const second = await launch(INVOICE_TASK, 'toolu_2');
    const started = await hook(subagentStart());
    expect(sameLaunch(additionalContextOf(started), second, INVOICE_TASK)).toBe(true);
  });

  it('keeps the context of one session from the subagents of another', async () => {
    await launch(TASK, 'toolu_01');
    const other = await hook(subagentStart({ session_id: 'session-2' }));
    expectNothingDelivered(other, /no context kept/);
    expect(additionalContextOf(await hook(subagentStart()))).toContain('src/auth/tokens.ts');
  });

  it('drops context older than ten minutes instead of delivering it', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-21T10:00:00Z'));
    await launch(TASK, 'toolu_01');
    vi.setSystemTime(new Date('2026-11-21T10:10:01Z'));
    expectNothingDelivered(await hook(subagentStart()), /no context kept/);
    expect(await filesIn(store)).toEqual([]);
  });

  it('delivers through SubagentStart only with RETRIEVAL_HOOK_DELIVERY=start', async () => {
    const env = { RETRIEVAL_HOOK_DELIVERY: 'start' };
    const launched = await hook(preToolUse({ description: 'Fix expiry', prompt: TASK }), { env });
    expect(launched.stdout).toBe('');
    expect(launched.notes).toEqual([expect.stringMatching(/^context kept for SubagentStart/)]);
    const started = await hook(subagentStart(), { env });
    const context = additionalContextOf(started);
    expect(context).toMatch(/^<iterative-retrieval-context pack="/);
    expect(context).toContain('src/auth/tokens.ts');
  });

  it('keeps nothing with RETRIEVAL_HOOK_DELIVERY=prompt', async () => {
    const env = { RETRIEVAL_HOOK_DELIVERY: 'prompt' };
    const launched = await hook(preToolUse({ description: 'Fix expiry', prompt: TASK }), { env });
    expect(updatedInputOf(launched).prompt).toContain('src/auth/tokens.ts');
    expect(await filesIn(store)).toEqual([]);
    expectNothingDelivered(await hook(subagentStart(), { env }), /in the prompt only/);
  });

  it.each([
    ['no agent type', { agent_type: undefined }, /malformed SubagentStart input: agent_type/],
    ['no agent id', { agent_id: undefined }, /malformed SubagentStart input: agent_id/],
    ['no session id', { session_id: undefined }, /malformed SubagentStart input: session_id/],
  ])('answers no change to input with %s, and exits 0', async (_case, overrides, reason) => {
    expectNothingDelivered(await hook(subagentStart(overrides)), reason);
  });

  it('answers no change, and exits 0, when its store is not private', async () => {
    await mkdir(store, { mode: 0o755 });
    expectNothingDelivered(await hook(subagentStart()), /is not a private directory/);
  });
});
