import { deliversAtStart, parseHookDelivery } from './delivery.js';
import { noChange, type HookAnswer } from './hook-answer.js';
import { hasSkipMarker, SKIP_MARKER } from './skip-marker.js';
import { SUBAGENT_TOOLS } from './subagent-tool.js';

/**
 * Most hook calls need no work: a PreToolUse for another tool (a hook set up without the plugin's
 * matcher), and, when context goes in the prompt only, a prompt holding `[no-context]` and a
 * SubagentStart.
 * They are recognised here from the raw JSON, before the input schemas, the logger and the
 * retrieval pipeline load, so such a call costs little more than starting Node (bench/launch.ts).
 * The answers are the ones the full hook gives the same input (test/hooks/quick-answer.test.ts);
 * anything else, malformed input included, is left to it: undefined.
 */

type Fields = Record<string, unknown>;

const isObject = (value: unknown): value is Fields =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function parseObject(text: string | undefined): Fields | undefined {
  try {
    const value: unknown = JSON.parse(text ?? '');
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Whether RETRIEVAL_HOOK_DELIVERY keeps nothing for SubagentStart. */
function promptOnly(setting: string | undefined): boolean {
  try {
    return !deliversAtStart(parseHookDelivery(setting));
  } catch {
    // The full hook reports a bad RETRIEVAL_HOOK_DELIVERY.
    return false;
  }
}

/** The answer to the hook input in `text` when it needs no work; `deliverySetting` is RETRIEVAL_HOOK_DELIVERY. */
export function quickHookAnswer(
  text: string | undefined,
  deliverySetting: string | undefined,
): HookAnswer | undefined {
  const input = parseObject(text);
  if (input?.hook_event_name === 'PreToolUse' && typeof input.tool_name === 'string') {
    if (!SUBAGENT_TOOLS.includes(input.tool_name))
      return noChange(`${input.tool_name} is not the subagent tool`);
    // With a SubagentStart path the full hook keeps a record of every launch, this one too.
    const prompt = isObject(input.tool_input) ? input.tool_input.prompt : undefined;
    if (typeof prompt === 'string' && hasSkipMarker(prompt) && promptOnly(deliverySetting))
      return noChange(`the prompt contains ${SKIP_MARKER}`);
  }
  if (input?.hook_event_name === 'SubagentStart' && promptOnly(deliverySetting))
    return noChange('RETRIEVAL_HOOK_DELIVERY=prompt delivers context in the prompt only');
  return undefined;
}
