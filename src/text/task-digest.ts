import { estimateTokens } from '../contracts/tokens.js';
import { FENCE, withoutVersionDumps } from './version-dumps.js';

/**
 * A long task, shortened for calls that need its gist, not all of it: the evaluator rates one
 * file against it, dozens of times a run. A task within the budget is left exactly as written.
 * Past it, what says least about the code goes first: version and dependency dumps, then the
 * middle of long code blocks and logs (a traceback's end, where the error is, stays), then the
 * middle of the text itself. The planner and the refiner always see the whole task.
 */

/** A block longer than this keeps its first and last lines only. */
const LONG_BLOCK = 30;
const BLOCK_HEAD = 8;
const BLOCK_TAIL = 12;
/** What is left of the text once the blocks are cut, when it is still too long: its start and its end. */
const HEAD_SHARE = 0.7;

const cutNote = (count: number) => `… (${count} line${count === 1 ? '' : 's'} cut)`;

/** Fenced blocks (and the text after an unclosed fence) cut to their ends. */
function withShortBlocks(lines: readonly string[]): string[] {
  const kept: string[] = [];
  let block: string[] | undefined;
  const closeBlock = (closing: string | undefined) => {
    if (!block) return;
    if (block.length > LONG_BLOCK)
      kept.push(
        ...block.slice(0, BLOCK_HEAD),
        cutNote(block.length - BLOCK_HEAD - BLOCK_TAIL),
        ...block.slice(-BLOCK_TAIL),
      );
    else kept.push(...block);
    if (closing !== undefined) kept.push(closing);
    block = undefined;
  };
  for (const line of lines) {
    if (FENCE.test(line)) {
      if (block) closeBlock(line);
      else {
        kept.push(line);
        block = [];
      }
    } else if (block) block.push(line);
    else kept.push(line);
  }
  closeBlock(undefined);
  return kept;
}

/** The start and the end of a text within `budgetTokens`, cut at line breaks. */
function headAndTail(text: string, budgetTokens: number): string {
  const characters = budgetTokens * 4;
  const head = text.slice(0, Math.floor(characters * HEAD_SHARE));
  const tail = text.slice(text.length - Math.floor(characters * (1 - HEAD_SHARE)));
  const headEnd = head.lastIndexOf('\n');
  const tailStart = tail.indexOf('\n');
  const start = headEnd > 0 ? head.slice(0, headEnd) : head;
  const end = tailStart >= 0 ? tail.slice(tailStart + 1) : tail;
  return `${start}\n… (${text.length - start.length - end.length} characters cut)\n${end}`;
}

export function taskDigest(task: string, budgetTokens: number): string {
  if (estimateTokens(task) <= budgetTokens) return task;
  const lines = task.split(/\r?\n/);
  const withoutDumps = withoutVersionDumps(lines);
  const dumped = lines.length - withoutDumps.length;
  let text = withShortBlocks(withoutDumps).join('\n');
  if (dumped > 0) text += `\n(${dumped} lines of version and dependency lists cut)`;
  return estimateTokens(text) <= budgetTokens ? text : headAndTail(text, budgetTokens);
}
