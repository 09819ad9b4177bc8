import { posix } from 'node:path';
import { looksBinary } from '../repository/default-excludes.js';
import { redactSecrets } from '../redaction/redact.js';
import { createSecretFileFilter } from '../repository/secret-files.js';
import { readBytes } from '../file-system/tree.js';
import type { ContextFile, ContextPack } from './context-pack.js';
import { formatMarkdown, type FilePartsText } from './markdown.js';
import { describeParts, fileParts, renderParts } from './file-parts.js';
import { extractOutline } from '../structure/outline.js';
import { estimateTokens } from '../contracts/tokens.js';

/**
 * The hand-over a hook or the MCP server gives a subagent: the pack as Markdown within a token
 * budget, with whole files where they fit so the subagent need not re-read the repository, else
 * the whole definitions around the lines that matter.
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

/** Most bytes of a file read to show its parts: beyond it, the excerpt stands for the file. */
const MAX_PARTS_BYTES = 512 * 1024;

/** What a selected file can show of itself, numbered and redacted. */
interface FileBody {
  whole?: string;
  parts?: FilePartsText;
}

/**
 * A selected file whole when it fits `budgetTokens`, else its parts (src/output/file-parts.ts);
 * nothing when it cannot be shown: outside the root, a secret file (its redacted excerpt is all
 * that is shown), unreadable, or not UTF-8 text.
 */
async function fileBody(root: string, file: ContextFile, budgetTokens: number): Promise<FileBody> {
  const path = file.path;
  if (posix.isAbsolute(path) || path.split(/[\\/]/).includes('..') || isSecretFile(path)) return {};
  // Only a file whose parts may be shown is read past what could be shown whole.
  const wholeBytes = budgetTokens * 4 * 4;
  const bytes = await readBytes(
    root,
    path,
    file.lineRanges.length > 0 ? Math.max(wholeBytes, MAX_PARTS_BYTES) : wholeBytes,
  );
  if (!bytes || looksBinary(bytes)) return {};
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return {};
  }
  // Cheap test first: secretlint is the costly step, and the raw text is shorter than its view.
  const fits =
    estimateTokens(text) <= budgetTokens && estimateTokens(numberLines(text)) <= budgetTokens;
  if (!fits && (file.lineRanges.length === 0 || bytes.length >= MAX_PARTS_BYTES)) return {};
  // Redacted whole, as excerpts are, before numbering: redaction keeps every line in its place.
  const numbered = numberLines((await redactSecrets(text)).text);
  if (fits) return { whole: numbered };
  const lines = text.split(/\r?\n/);
  if (lines.length > 1 && lines.at(-1) === '') lines.pop();
  const { symbols } = extractOutline(path, lines);
  const parts = fileParts(path, lines, symbols, file.lineRanges);
  return {
    parts: {
      note: describeParts(parts, lines.length),
      text: renderParts(numbered.split('\n'), parts),
    },
  };
}

/**
 * Reads and redacts the selected files under `pack.root` once, for hand-overs of up to
 * `largestBudgetTokens`; the renderer it returns makes one within any budget up to that.
 */
export async function prepareHandover(
  pack: ContextPack,
  largestBudgetTokens: number,
): Promise<(budgetTokens: number) => string> {
  const bodies = await Promise.all(
    pack.files.map((file) => fileBody(pack.root, file, largestBudgetTokens)),
  );
  const contents = new Map<string, string>();
  const parts = new Map<string, FilePartsText>();
  pack.files.forEach((file, index) => {
    const body = bodies[index];
    if (body?.whole !== undefined) contents.set(file.path, body.whole);
    if (body?.parts !== undefined) parts.set(file.path, body.parts);
  });
  return (budgetTokens) => formatMarkdown(pack, { excerpts: true, budgetTokens, contents, parts });
}

/**
 * The pack as Markdown for a subagent: task, selected files with reasons and line ranges, open
 * gaps, and — within the budget — whole files (secrets redacted) or excerpts, most relevant
 * first. Reads the selected files under `pack.root`.
 */
export async function renderHandover(pack: ContextPack, options: HandoverOptions): Promise<string> {
  return (await prepareHandover(pack, options.budgetTokens))(options.budgetTokens);
}
