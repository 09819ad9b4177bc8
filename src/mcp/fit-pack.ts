import type { ContextFile, ContextPack } from '../output/context-pack.js';
import { taskTitle } from '../output/task-title.js';
import { estimateTokens } from '../contracts/tokens.js';

/**
 * An MCP client passes a tool's structured result to the model as it is, and Claude Code warns
 * above 10,000 tokens and cuts off at 25,000 by default. This trims a pack to a budget, giving up
 * first what the model needs least: all but the title of the task it sent, the tail of `evaluated`, then the trace's path lists, then
 * excerpts (least relevant file first), then the rest of `evaluated`, and last the least relevant
 * `related` entries (they are bounded by `maxRelated` and hold no content, so this is rare). The
 * core files' paths, reasons and line ranges and the gaps always stay, so the model can read any
 * file itself; a warning in the pack says what was left out.
 */

/** Runners-up kept in `evaluated` after the selected files when it must shrink. */
export const MCP_RUNNERS_UP = 5;

/** Below this many characters a shortened excerpt is not worth keeping. */
const SHORTEST_EXCERPT_CHARACTERS = 400;
/** The warning that lists the cuts is at most about 300 characters. */
const WARNING_TOKENS = 100;
const CUT_MARK = '… (cut to fit the output budget; read the file at its line ranges)';

const tokensOf = (pack: ContextPack) => estimateTokens(JSON.stringify(pack));

/** Whole lines of `excerpt` within `characters`, marked as cut; empty when too little is left. */
function shortenExcerpt(excerpt: string, characters: number): string {
  let kept = '';
  for (const line of excerpt.split('\n')) {
    if (kept.length + line.length + 1 + CUT_MARK.length > characters) break;
    kept += `${line}\n`;
  }
  return kept.length < SHORTEST_EXCERPT_CHARACTERS ? '' : `${kept}${CUT_MARK}`;
}

function fitExcerpts(pack: ContextPack, budgetTokens: number) {
  const files: ContextFile[] = [...pack.files];
  let shortened = 0;
  let removed = 0;
  for (let index = files.length - 1; index >= 0; index--) {
    const file = files[index];
    const excess = tokensOf({ ...pack, files }) - budgetTokens;
    if (excess <= 0) break;
    if (file === undefined || file.excerpt === '') continue;
    // JSON escapes newlines and quotes: the excess (about 4 JSON characters a token) is
    // converted to raw characters at this excerpt's own ratio.
    const escaped = JSON.stringify(file.excerpt).length;
    const room = Math.floor(((escaped - excess * 4) * file.excerpt.length) / escaped);
    let excerpt = shortenExcerpt(file.excerpt, room);
    const shorter = files.with(index, { ...file, excerpt });
    if (excerpt !== '' && tokensOf({ ...pack, files: shorter }) > budgetTokens) excerpt = '';
    files[index] = { ...file, excerpt };
    if (excerpt === '') removed++;
    else shortened++;
  }
  return { files, shortened, removed };
}

/**
 * How many entries of `evaluated` fit, dropping the least relevant first, but never fewer than
 * the selected files and the runners-up.
 */
function keepMostRelevant(pack: ContextPack, budgetTokens: number): number {
  const least = Math.min(pack.evaluated.length, pack.files.length + MCP_RUNNERS_UP);
  let excess = (tokensOf(pack) - budgetTokens) * 4;
  let count = pack.evaluated.length;
  while (count > least && excess > 0) {
    count--;
    // The entry and the comma before it.
    excess -= JSON.stringify(pack.evaluated[count]).length + 1;
  }
  return count;
}

/** The pack within `budgetTokens` (estimated on its compact JSON), or the pack itself if it fits. */
export function fitPackToBudget(pack: ContextPack, budgetTokens: number): ContextPack {
  if (tokensOf(pack) <= budgetTokens) return pack;
  // Room for the warning that says what was cut.
  const target = budgetTokens - WARNING_TOKENS;
  const notes: string[] = [];
  let fitted = pack;
  // The client sent the task: it needs its title back, not all of it (a 30 KB issue once made
  // the pack overflow by itself).
  const title = taskTitle(pack.task);
  if (title.length < pack.task.length) {
    fitted = { ...fitted, task: title };
    notes.push('`task` holds its first line only');
  }
  let evaluatedNote: string | undefined;
  const evaluated = keepMostRelevant(fitted, target);
  if (evaluated < pack.evaluated.length) {
    fitted = { ...fitted, evaluated: pack.evaluated.slice(0, evaluated) };
    evaluatedNote = `\`evaluated\` holds the ${evaluated} most relevant of the ${pack.evaluated.length} files judged`;
  }
  if (tokensOf(fitted) > target) {
    fitted = {
      ...fitted,
      trace: fitted.trace.map((cycle) => ({ ...cycle, evaluated: [], kept: [], excluded: [] })),
    };
    notes.push("the trace's cycles list no paths (their counts and queries stay)");
  }
  if (tokensOf(fitted) > target) {
    const { files, shortened, removed } = fitExcerpts(fitted, target);
    fitted = { ...fitted, files };
    if (shortened > 0)
      notes.push(`${shortened} excerpt${shortened === 1 ? ' was' : 's were'} shortened`);
    if (removed > 0)
      notes.push(
        removed === 1
          ? 'the least relevant file has no excerpt (read it at its line ranges)'
          : `the ${removed} least relevant files have no excerpt (read them at their line ranges)`,
      );
  }
  // For many selected files: the core ones are in `files` already, the related in `related`.
  if (tokensOf(fitted) > target && fitted.evaluated.length > 0) {
    fitted = { ...fitted, evaluated: [] };
    evaluatedNote = `\`evaluated\` is empty (${pack.evaluated.length} files were judged; the core ones are in \`files\`, the related in \`related\`)`;
  }
  if (evaluatedNote !== undefined) notes.unshift(evaluatedNote);
  // Last resort: the least relevant related paths, whose reasons are all that is left to cut.
  let related = fitted.related.length;
  while (related > 0 && tokensOf({ ...fitted, related: fitted.related.slice(0, related) }) > target)
    related--;
  if (related < fitted.related.length) {
    notes.push(
      `\`related\` holds the ${related} most relevant of ${pack.related.length} related files`,
    );
    fitted = { ...fitted, related: fitted.related.slice(0, related) };
  }
  const warning = `to stay within the output budget of ${budgetTokens} tokens: ${notes.join('; ')}`;
  return { ...fitted, warnings: [...fitted.warnings, warning] };
}
