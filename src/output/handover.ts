import { posix } from 'node:path';
import { looksBinary } from '../repository/default-excludes.js';
import { redactSecrets } from '../redaction/redact.js';
import { createSecretFileFilter } from '../repository/secret-files.js';
import { readBytes } from '../file-system.js';
import type { ContextFile, ContextPack } from './context-pack.js';
import { formatMarkdown } from './markdown.js';
import { estimateTokens } from '../contracts/tokens.js';

/**
 * The hand-over a hook or the MCP server gives a subagent: the pack as Markdown within a token
 * budget, with whole files where they fit so the subagent need not re-read the repository.
 */

/** Tokens of a hand-over when the caller sets none: room for a few whole files. */
export const DEFAULT_HANDOVER_TOKENS = 6000;

export interface HandoverOptions {
  /** Most tokens of the whole text (`estimateTokens` in src/dispatch/excerpt.ts). */
  budgetTokens: number;
}

/** Numbers lines as excerpts do (`12| text`), so a subagent can cite them the same way. */
export function numberLines(text: string): string {
  const lines = text.split(/\r?\n/);
  // A final newline ends the last line; it does not start another.
  if (lines.length > 1 && lines.at(-1) === '') lines.pop();
  const width = String(lines.length).length;
  return lines.map((line, index) => `${String(index + 1).padStart(width)}| ${line}`).join('\n');
}

const isSecretFile = createSecretFileFilter([]);

/**
 * A selected file whole, numbered and redacted, or undefined when it cannot be shown: outside the
 * root, a secret file (its redacted excerpt is all that is shown), unreadable, not UTF-8 text,
 * or longer than the whole budget.
 */
async function wholeFile(
  root: string,
  file: ContextFile,
  budgetTokens: number,
): Promise<string | undefined> {
  const path = file.path;
  if (posix.isAbsolute(path) || path.split(/[\\/]/).includes('..') || isSecretFile(path))
    return undefined;
  // A file longer than the budget is never shown whole: no need to read more of it.
  const bytes = await readBytes(root, path, budgetTokens * 4 * 4);
  if (!bytes || looksBinary(bytes)) return undefined;
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
  // Cheap test first: secretlint is the costly step, and the raw text is shorter than its view.
  if (estimateTokens(text) > budgetTokens) return undefined;
  if (estimateTokens(numberLines(text)) > budgetTokens) return undefined;
  // Redacted whole, as excerpts are, before numbering: redaction keeps every line in its place.
  return numberLines((await redactSecrets(text)).text);
}

/**
 * Reads and redacts the selected files under `pack.root` once, for hand-overs of up to
 * `largestBudgetTokens`; the renderer it returns makes one within any budget up to that.
 */
export async function prepareHandover(
  pack: ContextPack,
  largestBudgetTokens: number,
): Promise<(budgetTokens: number) => string> {
  const texts = await Promise.all(
    pack.files.map((file) => wholeFile(pack.root, file, largestBudgetTokens)),
  );
  const contents = new Map<string, string>();
  pack.files.forEach((file, index) => {
    const text = texts[index];
    if (text !== undefined) contents.set(file.path, text);
  });
  return (budgetTokens) => formatMarkdown(pack, { excerpts: true, budgetTokens, contents });
}

/**
 * The pack as Markdown for a subagent: task, selected files with reasons and line ranges, open
 * gaps, and — within the budget — whole files (secrets redacted) or excerpts, most relevant
 * first. Reads the selected files under `pack.root`.
 */
export async function renderHandover(pack: ContextPack, options: HandoverOptions): Promise<string> {
  return (await prepareHandover(pack, options.budgetTokens))(options.budgetTokens);
}
