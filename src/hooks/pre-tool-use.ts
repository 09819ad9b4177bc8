import type { Logger } from 'pino';
import type { ContextPack } from '../output/context-pack.js';
import type { Retrieved } from '../retrieve-or-fall-back.js';
import { taskTitle } from '../output/task-title.js';
import { containsContextSection, packIdOf, prepareContextSection } from './context-section.js';
import { deliversAtStart, deliversInPrompt, type HookDelivery } from './delivery.js';
import { noChange, type HookAnswer } from './hook-answer.js';
import { agentInputSchema, type AgentInput, type PreToolUseHookInput } from './hook-input.js';
import { DEFAULT_SUBAGENT_TYPE, type PendingPacks } from './pending-packs.js';
import { hasSkipMarker, SKIP_MARKER } from './skip-marker.js';
import { START_CONTEXT_TOKENS } from './subagent-start.js';
import { SUBAGENT_TOOLS } from './subagent-tool.js';

export interface PreToolUseSettings {
  /** Finds the context for `task` in the repository at `root`. */
  retrieve(task: string, root: string): Promise<Retrieved>;
  /** Most tokens of the section added. */
  budgetTokens: number;
  delivery: HookDelivery;
  store: PendingPacks;
  /** When this hook started (milliseconds since the epoch): orders the packs of a session. */
  startedAt: number;
  logger: Logger;
}

/** This plugin's own agent (agents/context-scout.md), plugin-namespaced or not. */
const isContextScout = (subagentType: string | undefined) =>
  subagentType !== undefined && /(?:^|:)context-scout$/.test(subagentType);

const titleOf = (input: AgentInput) =>
  taskTitle(input.description) || taskTitle(input.prompt) || 'the task';

function describeFound(pack: ContextPack): string {
  const count = `${pack.files.length} file${pack.files.length === 1 ? '' : 's'}`;
  const related = pack.related.length > 0 ? `, ${pack.related.length} related named` : '';
  const early = pack.stopReason === 'aborted' ? ', stopped early at the time limit' : '';
  return `${count} (${pack.files.map((file) => file.path).join(', ')})${related}${early}`;
}

/**
 * Keeps what this launch hands its subagent at SubagentStart (an empty context: nothing), and
 * says whether it could; the prompt path works without it.
 */
function keeperFor(
  input: PreToolUseHookInput,
  agent: AgentInput,
  settings: PreToolUseSettings,
): (context: string, inPrompt?: boolean) => Promise<boolean> {
  return async (context, inPrompt = false) => {
    try {
      await settings.store.removeStale(settings.startedAt);
      await settings.store.save({
        version: 1,
        sessionId: input.session_id,
        toolUseId: input.tool_use_id,
        packId: packIdOf(input.session_id, input.tool_use_id),
        subagentType: agent.subagent_type ?? DEFAULT_SUBAGENT_TYPE,
        createdAt: settings.startedAt,
        inPrompt,
        context,
      });
      return true;
    } catch (error) {
      settings.logger.warn({ err: error }, 'could not keep the context for SubagentStart');
      return false;
    }
  };
}

/**
 * Answers a PreToolUse call: for the subagent tool, finds the context its prompt needs under the
 * session's `cwd` and extends the prompt with it (every other input field unchanged), keeping a
 * copy for the SubagentStart hook. Anything else goes ahead unchanged.
 */
export async function answerPreToolUse(
  input: PreToolUseHookInput,
  settings: PreToolUseSettings,
): Promise<HookAnswer> {
  if (!SUBAGENT_TOOLS.includes(input.tool_name))
    return noChange(`${input.tool_name} is not the subagent tool`);
  const parsed = agentInputSchema.safeParse(input.tool_input);
  if (!parsed.success)
    return noChange(`the ${input.tool_name} input has no description and prompt`);
  const { prompt } = parsed.data;
  const keepForStart = deliversAtStart(settings.delivery)
    ? keeperFor(input, parsed.data, settings)
    : undefined;
  // Every launch is recorded before anything else, even one that will get no context: a
  // SubagentStart hook can then tell that two subagents are waiting and hand neither a copy,
  // where it would otherwise take the one other launch's pack for its own.
  await keepForStart?.('');
  if (prompt.trim() === '') return noChange('the subagent prompt is empty');
  if (hasSkipMarker(prompt)) return noChange(`the prompt contains ${SKIP_MARKER}`);
  if (isContextScout(parsed.data.subagent_type))
    return noChange('the context scout runs the retrieval itself');
  if (containsContextSection(prompt)) return noChange('the prompt already holds retrieved context');

  const { pack, notice } = await settings.retrieve(prompt, input.cwd);
  if (pack.files.length === 0)
    return noChange(`nothing relevant found under ${pack.root} (${pack.stopReason})`);
  const packId = packIdOf(input.session_id, input.tool_use_id);
  const sectionWithin = await prepareContextSection(pack, {
    packId,
    title: titleOf(parsed.data),
    largestBudgetTokens: settings.budgetTokens,
    notice,
  });
  const inPrompt = deliversInPrompt(settings.delivery);
  // Claude Code cuts a longer additionalContext down to a preview: the copy is made to fit.
  const stored =
    (await keepForStart?.(
      sectionWithin(Math.min(settings.budgetTokens, START_CONTEXT_TOKENS)),
      inPrompt,
    )) ?? false;

  const found = `${describeFound(pack)}${notice ? `; ${notice}` : ''}`;
  if (!inPrompt)
    return stored
      ? { note: `context kept for SubagentStart (pack ${packId}): ${found}` }
      : noChange('the context could not be kept for SubagentStart');
  // The tool input arrived as a JSON object (the schema checked it); echo all of it back.
  const toolInput = input.tool_input as Record<string, unknown>;
  const section = sectionWithin(settings.budgetTokens);
  return {
    output: {
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        updatedInput: { ...toolInput, prompt: `${prompt}\n\n${section}` },
      },
    },
    note: `context added to the prompt${stored ? ' and kept for SubagentStart' : ''} (pack ${packId}): ${found}`,
  };
}
