import { quotePath } from '../../text/quote-path.js';
import type { Query } from '../../contracts/query.js';
import type { JudgedFile } from '../../contracts/evaluation.js';
import type { ChangePartner } from '../../history/change-partners.js';

/** Plain-text views of the run for prompts: compact, bounded, and stable for prompt caching. */

export function renderQuery(query: Query): string {
  return JSON.stringify(query, null, 2);
}

/** Text on one line: a reason or a gap that holds a line break must not start a line of its own. */
function oneLine(text: string): string {
  return text.replace(/[\p{Cc}\u2028\u2029]+/gu, ' ');
}

/**
 * The files judged so far, most relevant first, one line each; under a file, on a line of its own,
 * the files not yet rated that past commits often changed with it.
 */
export function renderEvaluations(
  evaluations: readonly JudgedFile[],
  limit: number,
  partners: ReadonlyMap<string, readonly ChangePartner[]> = new Map(),
): string {
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
      const line = `${file.relevance.toFixed(2)}${unjudged} ${path} — ${oneLine(file.reason)}${missing}`;
      const together = partners.get(file.path);
      if (!together) return line;
      const named = together.map((partner) => `${quotePath(partner.path)} (${partner.commits})`);
      return `${line}\n    changed with it in past commits: ${named.join(', ')}`;
    })
    .join('\n');
}

/** Keeps an excerpt inside its `<file>` element whatever the file says. */
export function escapeFileContent(text: string): string {
  return text.replace(/<(\/?file\b)/gi, '&lt;$1');
}
