import { quotePath } from '../../text/quote-path.js';
import type { Query } from '../../contracts/query.js';
import { estimateTokens } from '../../contracts/tokens.js';
import type { JudgedFile } from '../../contracts/evaluation.js';
import type { RepoOverview } from '../../contracts/overview.js';

/** Plain-text views of the run for prompts: compact, bounded, and stable for prompt caching. */

/**
 * The repository for a prompt, as much as the budget allows: every path with the symbols it
 * exports, or every path, or else the directories (with file counts) and the top-level files.
 */
export function renderOverview(overview: RepoOverview, budgetTokens: number): string {
  const header = `${overview.fileCount} files.`;
  // One path per line: a name that holds a line break is quoted (src/output/quote-path.ts).
  const withSymbols = overview.paths
    .map((path) =>
      overview.symbols[path]?.length
        ? `${quotePath(path)}: ${overview.symbols[path]?.join(', ')}`
        : quotePath(path),
    )
    .join('\n');
  if (estimateTokens(withSymbols) <= budgetTokens)
    return `${header} Each path with the symbols it exports:\n\n${withSymbols}`;
  const listing = overview.paths.map(quotePath).join('\n');
  if (estimateTokens(listing) <= budgetTokens) return `${header}\n\n${listing}`;
  const lines: string[] = [];
  let used = 0;
  const topLevel = overview.paths.filter((path) => !path.includes('/')).map(quotePath);
  const directories = overview.directories.map(
    (directory) => `${quotePath(directory.path)}/ (${directory.fileCount} files)`,
  );
  for (const line of [...directories, ...topLevel]) {
    used += estimateTokens(`${line}\n`);
    if (used > budgetTokens) break;
    lines.push(line);
  }
  return `${header} Directories with their file counts, then top-level files:\n\n${lines.join('\n')}`;
}

export function renderQuery(query: Query): string {
  return JSON.stringify(query, null, 2);
}

/** Text on one line: a reason or a gap that holds a line break must not start a line of its own. */
function oneLine(text: string): string {
  return text.replace(/[\p{Cc}\u2028\u2029]+/gu, ' ');
}

/** The files judged so far, most relevant first, one line each. */
export function renderEvaluations(evaluations: readonly JudgedFile[], limit: number): string {
  const ranked = [...evaluations]
    .sort((left, right) => right.relevance - left.relevance)
    .slice(0, limit);
  if (ranked.length === 0) return '(no files were found)';
  return ranked
    .map((file) => {
      const missing =
        file.missingContext.length > 0
          ? ` — missing: ${file.missingContext.map(oneLine).join('; ')}`
          : '';
      const unjudged = file.unevaluated ? ' (offline estimate)' : '';
      const path = quotePath(file.path);
      return `${file.relevance.toFixed(2)}${unjudged} ${path} — ${oneLine(file.reason)}${missing}`;
    })
    .join('\n');
}

/** Keeps an excerpt inside its `<file>` element whatever the file says. */
export function escapeFileContent(text: string): string {
  return text.replace(/<(\/?file\b)/gi, '&lt;$1');
}
