import { z } from 'zod';

/**
 * What Claude Code sends a command hook on standard input, modelled on the types published in
 * `@anthropic-ai/claude-agent-sdk` 0.3.330 (Claude Code 2.1.330): `BaseHookInput`,
 * `PreToolUseHookInput` and `SubagentStartHookInput` in `sdk.d.ts`, `AgentInput` in
 * `sdk-tools.d.ts`. Every object is loose, so fields a later version adds pass through.
 */

const baseHookInputSchema = z.looseObject({
  session_id: z.string().min(1),
  transcript_path: z.string().optional(),
  cwd: z.string().min(1),
  hook_event_name: z.string(),
  prompt_id: z.string().optional(),
  permission_mode: z.string().optional(),
  /** Set when the hook fires inside a subagent. */
  agent_id: z.string().optional(),
  agent_type: z.string().optional(),
});

export const preToolUseHookInputSchema = baseHookInputSchema.extend({
  hook_event_name: z.literal('PreToolUse'),
  tool_name: z.string(),
  tool_input: z.unknown(),
  tool_use_id: z.string().min(1),
});
export type PreToolUseHookInput = z.infer<typeof preToolUseHookInputSchema>;

export const subagentStartHookInputSchema = baseHookInputSchema.extend({
  hook_event_name: z.literal('SubagentStart'),
  agent_id: z.string().min(1),
  agent_type: z.string(),
});
export type SubagentStartHookInput = z.infer<typeof subagentStartHookInputSchema>;

/**
 * The input of the subagent tool (`Agent`, formerly `Task`). Only `prompt` and `subagent_type`
 * are read; the hook echoes the original object back, so nothing here narrows what survives.
 */
export const agentInputSchema = z.looseObject({
  description: z.string(),
  prompt: z.string(),
  subagent_type: z.string().optional(),
  model: z.string().optional(),
});
export type AgentInput = z.infer<typeof agentInputSchema>;

export type ParsedHookInput =
  | { event: 'PreToolUse'; input: PreToolUseHookInput }
  | { event: 'SubagentStart'; input: SubagentStartHookInput }
  | { event: 'ignored'; reason: string };

function malformed(eventName: string, error: z.ZodError): ParsedHookInput {
  const issues = error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.join('.') || 'input'}: ${issue.message}`)
    .join('; ');
  return { event: 'ignored', reason: `malformed ${eventName} input: ${issues}` };
}

/**
 * Deepest nesting of an input: the hook echoes the subagent tool's input back, and serialising
 * thousands of levels overflows the stack (after a whole search). Claude Code's inputs nest a few.
 */
export const MAX_INPUT_DEPTH = 64;

/** Whether `json` nests deeper than `limit`, found without recursion. */
function nestsDeeperThan(json: unknown, limit: number): boolean {
  const pending: [unknown, number][] = [[json, 0]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [value, depth] = next;
    if (typeof value !== 'object' || value === null) continue;
    if (depth >= limit) return true;
    for (const child of Object.values(value)) pending.push([child, depth + 1]);
  }
  return false;
}

/** The hook input in `text`, or why there is nothing this hook should act on. */
export function parseHookInput(text: string | undefined): ParsedHookInput {
  if (text === undefined || text.trim() === '')
    return { event: 'ignored', reason: 'nothing on standard input' };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return { event: 'ignored', reason: `standard input is not JSON (${detail})` };
  }
  if (nestsDeeperThan(json, MAX_INPUT_DEPTH))
    return { event: 'ignored', reason: `standard input nests more than ${MAX_INPUT_DEPTH} deep` };
  const eventName =
    typeof json === 'object' && json !== null && 'hook_event_name' in json
      ? json.hook_event_name
      : undefined;
  if (eventName === 'PreToolUse') {
    const parsed = preToolUseHookInputSchema.safeParse(json);
    return parsed.success
      ? { event: 'PreToolUse', input: parsed.data }
      : malformed('PreToolUse', parsed.error);
  }
  if (eventName === 'SubagentStart') {
    const parsed = subagentStartHookInputSchema.safeParse(json);
    return parsed.success
      ? { event: 'SubagentStart', input: parsed.data }
      : malformed('SubagentStart', parsed.error);
  }
  return {
    event: 'ignored',
    reason: `hook event ${JSON.stringify(eventName ?? null)} is not PreToolUse or SubagentStart`,
  };
}
