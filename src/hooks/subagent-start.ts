import type { Logger } from 'pino';
import { deliversAtStart, type HookDelivery } from './delivery.js';
import { noChange, type HookAnswer } from './hook-answer.js';
import type { SubagentStartHookInput } from './hook-input.js';
import type { PendingPacks } from './pending-packs.js';

export interface SubagentStartSettings {
  delivery: HookDelivery;
  store: PendingPacks;
  /** Milliseconds since the epoch. */
  now: number;
  logger: Logger;
}

/**
 * Claude Code (2.1.330, measured) replaces a longer `additionalContext` with a 2 KB preview and a
 * file path, so the copy kept for SubagentStart is rendered to fit: see `START_CONTEXT_TOKENS`.
 */
export const ADDITIONAL_CONTEXT_LIMIT = 10_000;

export const copyNote = (packId: string) =>
  `If your task prompt already ends with the context section of pack ${packId}, what follows is ` +
  'a shorter copy of it.';

/** Tokens of the SubagentStart copy: 4 characters each, with room for the note above. */
export const START_CONTEXT_TOKENS = Math.floor(
  (ADDITIONAL_CONTEXT_LIMIT - copyNote('0'.repeat(12)).length - 2) / 4,
);

/**
 * Answers a SubagentStart call: the subagent gets, as `additionalContext`, the context kept for
 * it, when that can be told (see ./pending-packs.ts): SubagentStart carries no prompt, so only
 * the one pending pack of the subagent's type is provably its own. Each pack is delivered at
 * most once.
 */
export async function answerSubagentStart(
  input: SubagentStartHookInput,
  settings: SubagentStartSettings,
): Promise<HookAnswer> {
  if (!deliversAtStart(settings.delivery))
    return noChange('RETRIEVAL_HOOK_DELIVERY=prompt delivers context in the prompt only');
  try {
    await settings.store.removeStale(settings.now);
  } catch (error) {
    settings.logger.warn({ err: error }, 'could not remove stale context');
  }
  const claim = await settings.store.claim(input.session_id, input.agent_type, settings.now);
  if (claim === undefined)
    return noChange(`no context kept for this session's subagents of type ${input.agent_type}`);
  if ('ambiguous' in claim)
    return noChange(
      `${claim.ambiguous} launches of ${input.agent_type} subagents are waiting in this session, and SubagentStart does not say which this is: none is handed over rather than the wrong one`,
    );
  const { pack } = claim;
  if (pack.context === '')
    return noChange(
      `the launch of this ${input.agent_type} subagent found no context to hand over`,
    );
  return {
    output: {
      hookSpecificOutput: {
        hookEventName: 'SubagentStart',
        additionalContext: pack.inPrompt
          ? `${copyNote(pack.packId)}\n\n${pack.context}`
          : pack.context,
      },
    },
    note: `context delivered to ${input.agent_type} subagent ${input.agent_id} (pack ${pack.packId})`,
  };
}
