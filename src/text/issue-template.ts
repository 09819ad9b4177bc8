import { withoutVersionDumps } from './version-dumps.js';

/**
 * An issue as its author wrote it, without the issue template around it. Templates put the same
 * words into every issue of a repository ("Describe the bug", "Expected behavior", "_No response_",
 * "Browser Version"), and environment reports add machine words ("macOS", "CPU", "Yarn"): none of
 * them says where this issue's code is, yet each would count as a word of the task.
 */

/** A code span: `refreshToken`. */
export const INLINE_CODE = /`([^`\n]+)`/g;

// The spaces after the `#`s are all taken, and the title ends with a non-space (or is empty):
// the spaces before a closing `#` run and at the end are then each tried once, not once for every
// way to share a long run of spaces between the title and what follows it.
const HEADING = /^\s{0,3}(?:#{1,6}\s+(?!\s)((?:.*?\S)??)(?:\s+#+)?|\*\*([^*\n]+?)\*\*:?)\s*$/;
/** A longer bold line is the author's emphasis, not a template's heading. */
const MAX_HEADING_WORDS = 6;
/** Sections that describe the reporter's machine, not the code. */
const ENVIRONMENT_SECTION =
  /^(?:system info(?:rmation)?|environment(?: info)?|(?:your|my) environment|envinfo|os|browsers?|(?:[\w.@/-]+\s+){0,2}versions?)\s*:?$/i;
/** The lines an environment report is made of: list items, `key: value`, indented lines and short values. */
const REPORT_LINE = /^\s*(?:[-*+]\s|[\w .@/()-]{1,40}:(?:\s|$)|\s)|^\s*\S+(?:\s+\S+){0,3}\s*$/;
/** What an issue form writes for a field left empty. */
const EMPTY_FIELD = /^\s*_No response_\s*$/i;
const CHECKLIST_ITEM = /^\s*[-*]\s+\[[ xX]\]\s/;
/** A checklist item of the author's own: it marks code or names a file. */
const AUTHORED_ITEM = /`|\/|\.\w{1,4}\b/;
const FENCE = /^\s{0,3}(`{3,}(?!`)|~{3,}(?!~))(.*)$/;
const THEMATIC_BREAK = /^\s{0,3}(?:-{3,}|\*{3,}|_{3,})\s*$/;
/** The header `gh issue view` prints before the body: `title:\t…`, `state:\t…`, up to `--`. */
const GH_HEADER_FIELD = /^[a-z]+:\t/;

export function withoutIssueTemplate(task: string): string {
  const lines = withoutVersionDumps(withoutHtmlComments(withoutGhHeader(task.split(/\r?\n/))));
  const kept: string[] = [];
  let fence: string | undefined;
  let inEnvironment = false;
  let afterBlank = false;
  lines.forEach((line, index) => {
    const fenceLine = FENCE.exec(line);
    const inFence = fence !== undefined || fenceLine !== null;
    if (fenceLine) fence = nextFence(fence, fenceLine[1] ?? '', fenceLine[2] ?? '');
    const heading = inFence ? null : HEADING.exec(line);
    const title = (heading?.[1] ?? heading?.[2] ?? '').trim();
    if (heading && title.split(/\s+/).length <= MAX_HEADING_WORDS) {
      inEnvironment = ENVIRONMENT_SECTION.test(title);
      // The first line is the issue's title unless it opens an environment report.
      if (index === 0 && !inEnvironment) kept.push(line);
      // A heading is the template's structure; code it marks is still the author's.
      else if (!inEnvironment) kept.push(...(title.match(INLINE_CODE) ?? []));
      return;
    }
    if (inEnvironment) {
      // A report ends at a break, or where the author goes on writing after a blank line. A
      // dashed line right under a line of text underlines it (`INSTALLED VERSIONS` over `----`).
      if (THEMATIC_BREAK.test(line) && !underlines(lines[index - 1])) inEnvironment = false;
      else if (!(afterBlank && !inFence && line.trim() !== '' && !REPORT_LINE.test(line))) {
        afterBlank = line.trim() === '';
        return;
      } else inEnvironment = false;
    }
    afterBlank = line.trim() === '';
    if (inFence) kept.push(line);
    else if (EMPTY_FIELD.test(line)) return;
    else if (CHECKLIST_ITEM.test(line) && !AUTHORED_ITEM.test(line)) return;
    else kept.push(line);
  });
  return kept.join('\n');
}

/**
 * Whether a dashed line under `previous` underlines it as a title (`INSTALLED VERSIONS`), as
 * Markdown's setext headings do, rather than closing a report's last field (`OS: mac`).
 */
const underlines = (previous: string | undefined) =>
  previous !== undefined && /^\s*[\w][\w .-]*$/.test(previous) && previous.length <= 60;

/**
 * Lines without `<!-- … -->` comments: templates fill them with instructions ("please search for
 * a similar issue", links to the contributing guide) that GitHub does not even show. A comment
 * left open is kept, so a stray `<!--` never hides the rest of a task; fenced code is kept as written.
 */
function withoutHtmlComments(lines: readonly string[]): string[] {
  if (!lines.some((line) => line.includes('<!--'))) return [...lines];
  const kept: string[] = [];
  let fence: string | undefined;
  // Since an unclosed `<!--`: the text before it, and the lines as written in case it never closes.
  let open: { before: string; lines: string[] } | undefined;
  const keep = (text: string) => {
    if (text.trim() !== '') kept.push(text);
  };
  for (const line of lines) {
    let text = line;
    if (open) {
      const end = line.indexOf('-->');
      if (end < 0) {
        open.lines.push(line);
        continue;
      }
      text = open.before + line.slice(end + 3);
      open = undefined;
    } else {
      const fenceLine = FENCE.exec(line);
      if (fence !== undefined || fenceLine) {
        if (fenceLine) fence = nextFence(fence, fenceLine[1] ?? '', fenceLine[2] ?? '');
        kept.push(line);
        continue;
      }
    }
    const cut = withoutClosedComments(text);
    if (cut.open) open = { before: cut.text, lines: [line] };
    else if (cut.text === line) kept.push(line);
    else keep(cut.text);
  }
  // Never closed: not a comment after all.
  if (open) kept.push(...open.lines);
  return kept;
}

/** A line with its closed comments cut out, and whether a comment is still open at its end. */
function withoutClosedComments(line: string): { text: string; open: boolean } {
  let text = '';
  let from = 0;
  for (;;) {
    const start = line.indexOf('<!--', from);
    if (start < 0) return { text: text + line.slice(from), open: false };
    text += line.slice(from, start);
    const end = line.indexOf('-->', start + 4);
    if (end < 0) return { text, open: true };
    from = end + 3;
  }
}

/** The fence still open after a fence line: CommonMark closes one only with a run as long, of the same character. */
function nextFence(open: string | undefined, run: string, rest: string): string | undefined {
  if (open === undefined) return run.startsWith('`') && rest.includes('`') ? undefined : run;
  return run[0] === open[0] && run.length >= open.length && rest.trim() === '' ? undefined : open;
}

/** `gh issue view` output keeps its title and body; the other header fields are not the issue's words. */
function withoutGhHeader(lines: readonly string[]): string[] {
  const end = lines.indexOf('--');
  const header = lines.slice(0, end);
  if (end < 1 || !header.every((line) => GH_HEADER_FIELD.test(line))) return [...lines];
  const title = header.find((line) => line.startsWith('title:\t'))?.slice('title:\t'.length);
  return [...(title ? [title] : []), ...lines.slice(end + 1)];
}
