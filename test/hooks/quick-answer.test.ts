import { join } from 'node:path';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseCliArguments } from '../../src/cli/flag-values.js';
import { runHookCommand } from '../../src/cli/hook-command.js';
import { quickHookAnswer } from '../../src/hooks/quick-answer.js';
import { createTempTree, removeTempTrees } from '../support/temp-tree.js';
import { preToolUse, subagentStart, TASK } from './hook-runner.js';

/**
 * The hook answers calls that need no work before it loads its schemas and the pipeline
 * (src/hooks/quick-answer.ts). Those answers must be the ones the full hook gives.
 */

let env: Record<string, string>;
beforeEach(async () => {
  env = { RETRIEVAL_HOOK_STORE: join(await createTempTree({}), 'store') };
});
afterEach(removeTempTrees);

/** The full hook's note for `input`, skipping the quick answers, and what it printed on stdout. */
async function fullHookNote(input: unknown, delivery: string | undefined) {
  let stdout = '';
  let stderr = '';
  await runHookCommand(
    {
      argv: ['hook'],
      env: { ...env, ...(delivery !== undefined && { RETRIEVAL_HOOK_DELIVERY: delivery }) },
      stdout: { write: (text: string) => (stdout += text) },
      stderr: { write: (text: string) => (stderr += text) },
      readStdin: async () => JSON.stringify(input),
      version: '0.0.0',
    },
    parseCliArguments(['hook', '--judge', 'heuristic']),
    pino({ level: 'silent' }),
  );
  return { stdout, note: stderr.replace(/^iterative-retrieval: hook: /, '').trim() };
}

const AGENT = { description: 'Fix expiry', prompt: TASK, subagent_type: 'general-purpose' };

describe('the hook quick answers', () => {
  it.each([
    [
      'a PreToolUse for another tool',
      preToolUse({ command: 'ls' }, { tool_name: 'Bash' }),
      undefined,
    ],
    [
      'a prompt holding [no-context]',
      preToolUse({ ...AGENT, prompt: `${TASK} [no-context]` }),
      undefined,
    ],
    [
      'the marker in capitals, for Task',
      preToolUse({ ...AGENT, prompt: `[NO-CONTEXT] ${TASK}` }, { tool_name: 'Task' }),
      undefined,
    ],
    ['a SubagentStart when context goes in the prompt only', subagentStart(), 'prompt'],
  ])('answer %s as the full hook does', async (_, input, delivery) => {
    const quick = quickHookAnswer(JSON.stringify(input), delivery);
    const full = await fullHookNote(input, delivery);
    expect(quick).toBeDefined();
    expect(quick?.output).toBeUndefined();
    expect(full.stdout).toBe('');
    expect(quick?.note).toBe(full.note);
  });

  it.each([
    ['a subagent prompt to search for', JSON.stringify(preToolUse(AGENT)), undefined],
    ['a SubagentStart that may have context kept', JSON.stringify(subagentStart()), 'both'],
    [
      'a [no-context] launch the SubagentStart path must know of',
      JSON.stringify(preToolUse({ ...AGENT, prompt: `${TASK} [no-context]` })),
      'both',
    ],
    ['a delivery setting the hook does not know', JSON.stringify(subagentStart()), 'sideways'],
    ['input that is not JSON', '{"hook_event_name": "PreToolUse", "tool_name": "Bash"', undefined],
    ['a JSON array', JSON.stringify([preToolUse({}, { tool_name: 'Bash' })]), undefined],
    [
      'a tool name that is not a string',
      JSON.stringify(preToolUse({}, { tool_name: 7 })),
      undefined,
    ],
    ['another event', JSON.stringify({ ...subagentStart(), hook_event_name: 'Stop' }), 'prompt'],
    ['nothing at all', undefined, undefined],
  ])('leave %s to the full hook', (_, text, delivery) => {
    expect(quickHookAnswer(text, delivery)).toBeUndefined();
  });
});
