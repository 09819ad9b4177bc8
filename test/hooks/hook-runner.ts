import { join } from 'node:path';
import { runCli } from '../../src/cli/run-cli.js';

/** Drives `iterative-retrieval hook` in-process, the way Claude Code runs it. */

export const EXAMPLE = join(import.meta.dirname, '../fixtures/example-service');
export const TASK = 'Fix the authentication token expiry bug';

export interface HookRun {
  code: number;
  stdout: string;
  /** The hook's own lines on stderr (the JSON logs left out). */
  notes: string[];
  /** stdout parsed, when there is any. */
  output: unknown;
}

export interface HookRunOptions {
  argv?: string[];
  env?: Record<string, string>;
  signal?: AbortSignal;
}

/** Runs the hook with `input` as its standard input: JSON unless it is already a string. */
export async function runHook(input: unknown, options: HookRunOptions = {}): Promise<HookRun> {
  let stdout = '';
  let stderr = '';
  const code = await runCli({
    argv: ['hook', ...(options.argv ?? [])],
    env: options.env ?? {},
    stdout: { write: (text: string) => (stdout += text), isTTY: false },
    stderr: { write: (text: string) => (stderr += text), isTTY: false },
    readStdin: async () => (typeof input === 'string' ? input : JSON.stringify(input)),
    version: '0.0.0',
    signal: options.signal,
  });
  const notes = stderr
    .split('\n')
    .filter((line) => line.startsWith('iterative-retrieval: hook: '))
    .map((line) => line.slice('iterative-retrieval: hook: '.length));
  return { code, stdout, notes, output: stdout.trim() ? JSON.parse(stdout) : undefined };
}

/** A PreToolUse input for the subagent tool, shaped like Claude Code's. */
export function preToolUse(
  toolInput: unknown,
  overrides: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    session_id: 'session-1',
    transcript_path: '/home/user/.claude/projects/example/session-1.jsonl',
    cwd: EXAMPLE,
    permission_mode: 'default',
    hook_event_name: 'PreToolUse',
    tool_name: 'Agent',
    tool_use_id: 'toolu_01',
    tool_input: toolInput,
    ...overrides,
  };
}

export function subagentStart(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    session_id: 'session-1',
    transcript_path: '/home/user/.claude/projects/example/session-1.jsonl',
    cwd: EXAMPLE,
    permission_mode: 'default',
    hook_event_name: 'SubagentStart',
    agent_id: 'agent-1',
    agent_type: 'general-purpose',
    ...overrides,
  };
}

interface PreToolUseAnswer {
  hookSpecificOutput: {
    hookEventName: string;
    permissionDecision?: string;
    updatedInput: Record<string, unknown> & { prompt: string };
  };
}

interface SubagentStartAnswer {
  hookSpecificOutput: { hookEventName: string; additionalContext: string };
}

export const updatedInputOf = (run: HookRun) =>
  (run.output as PreToolUseAnswer).hookSpecificOutput.updatedInput;

export const additionalContextOf = (run: HookRun) =>
  (run.output as SubagentStartAnswer).hookSpecificOutput.additionalContext;
