import { createHash } from 'node:crypto';
import { estimateTokens } from '../dispatch/excerpt.js';
import type { ContextPack } from '../output/context-pack.js';
import { renderHandover } from '../output/handover.js';

/**
 * The section a subagent gets: the hand-over (src/output/handover.ts) inside a tag that marks
 * where the task ends and the retrieved context begins, and that lets the hook recognise a
 * prompt it has already extended.
 */

const TAG = 'iterative-retrieval-context';

const INTRODUCTION =
  'Files selected for this task before you started, by iterative-retrieval: why each matters, ' +
  'the lines that do, open gaps, and whole files or excerpts. Start from them; search further ' +
  'only where they leave a gap.';

export interface ContextSectionOptions {
  /** Names this section in both deliveries, so a subagent that gets it twice can tell. */
  packId: string;
  /** Heading of the hand-over: a short name of the task, since the prompt itself comes first. */
  title: string;
  /** Most tokens of the whole section. */
  budgetTokens: number;
}

/** A short stable id of one subagent launch. */
export function packIdOf(sessionId: string, toolUseId: string): string {
  return createHash('sha256').update(`${sessionId}\n${toolUseId}`).digest('hex').slice(0, 12);
}

export function containsContextSection(prompt: string): boolean {
  return prompt.includes(`<${TAG}`);
}

export async function renderContextSection(
  pack: ContextPack,
  options: ContextSectionOptions,
): Promise<string> {
  const open = `<${TAG} pack="${options.packId}">`;
  const close = `</${TAG}>`;
  const frame = estimateTokens([open, INTRODUCTION, '', close].join('\n'));
  const handover = await renderHandover(
    // The hand-over's heading repeats the task; the subagent already has it as its prompt.
    { ...pack, task: options.title },
    { budgetTokens: Math.max(1, options.budgetTokens - frame) },
  );
  return [open, INTRODUCTION, '', handover.trim(), close].join('\n');
}
