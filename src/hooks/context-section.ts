import { createHash } from 'node:crypto';
import type { ContextPack } from '../output/context-pack.js';
import { prepareHandover } from '../output/handover.js';
import { estimateTokens } from '../contracts/tokens.js';

/**
 * The section a subagent gets: the hand-over (src/output/handover.ts) inside a tag that marks
 * where the task ends and the retrieved context begins, and that lets the hook recognise a
 * prompt it has already extended.
 */

const TAG = 'iterative-retrieval-context';

const INTRODUCTION =
  'Files selected for this task before you started, by iterative-retrieval: why each matters, ' +
  'the lines that do, open gaps, and whole files or excerpts; then related files, named only. ' +
  'Start from the files shown; open a related one, or search further, only where they leave a gap.';

export interface ContextSectionOptions {
  /** Names this section in both deliveries, so a subagent that gets it twice can tell. */
  packId: string;
  /** Heading of the hand-over: a short name of the task, since the prompt itself comes first. */
  title: string;
  /** Most tokens of the largest section that will be made. */
  largestBudgetTokens: number;
  /** Said first, before anything else (the judge that chose the files, when not the one asked for). */
  notice?: string | undefined;
}

/** A short stable id of one subagent launch. */
export function packIdOf(sessionId: string, toolUseId: string): string {
  return createHash('sha256').update(`${sessionId}\n${toolUseId}`).digest('hex').slice(0, 12);
}

export function containsContextSection(prompt: string): boolean {
  return prompt.includes(`<${TAG}`);
}

/**
 * A renderer of the section within any budget up to `largestBudgetTokens`: the selected files are
 * read and redacted once, however many sizes are made (the prompt's and the SubagentStart copy).
 */
export async function prepareContextSection(
  pack: ContextPack,
  options: ContextSectionOptions,
): Promise<(budgetTokens: number) => string> {
  const open = `<${TAG} pack="${options.packId}">`;
  const close = `</${TAG}>`;
  const head = [open, ...(options.notice ? [`Note: ${options.notice}.`] : []), INTRODUCTION, ''];
  const frame = estimateTokens([...head, close].join('\n'));
  const handover = await prepareHandover(
    // The hand-over's heading repeats the task; the subagent already has it as its prompt.
    { ...pack, task: options.title },
    Math.max(1, options.largestBudgetTokens - frame),
  );
  return (budgetTokens) =>
    [...head, handover(Math.max(1, budgetTokens - frame)).trim(), close].join('\n');
}
