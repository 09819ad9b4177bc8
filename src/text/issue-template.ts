/**
 * An issue as its author wrote it, without the issue template around it. Templates put the same
 * words into every issue of a repository ("Describe the bug", "Expected behavior", "_No response_",
 * "Browser Version"), and environment reports add machine words ("macOS", "CPU", "Yarn"): none of
 * them says where this issue's code is, yet each would count as a word of the task.
 */

const HEADING = /^\s{0,3}(?:#{1,6}\s+(.*?)\s*#*\s*|\*\*([^*\n]+?)\*\*:?|__([^_\n]+?)__:?)\s*$/;
/** Sections that describe the reporter's machine, not the code. */
const ENVIRONMENT_SECTION =
  /^(?:system info(?:rmation)?|environment(?: info)?|(?:your|my) environment|envinfo|platform|os|browsers?|(?:[\w.@/-]+\s+){0,3}versions?)\s*:?$/i;
/** What an issue form writes for a field left empty. */
const EMPTY_FIELD = /^\s*_?no response_?\s*$/i;
const CHECKLIST_ITEM = /^\s*[-*]\s+\[[ xX]\]\s/;
const FENCE = /^\s*```/;
const INLINE_CODE = /`[^`\n]+`/g;

export function withoutIssueTemplate(task: string): string {
  const lines = task.split(/\r?\n/);
  const kept: string[] = [];
  let inEnvironment = false;
  let inFence = false;
  lines.forEach((line, index) => {
    if (FENCE.test(line)) inFence = !inFence;
    const heading = inFence || index === 0 ? undefined : HEADING.exec(line);
    if (heading) {
      const title = (heading[1] ?? heading[2] ?? heading[3] ?? '').trim();
      inEnvironment = ENVIRONMENT_SECTION.test(title);
      // A heading is the template's structure; code it marks is still the author's.
      const code = title.match(INLINE_CODE);
      if (code && !inEnvironment) kept.push(code.join(' '));
      return;
    }
    if (inEnvironment) return;
    if (!inFence && (EMPTY_FIELD.test(line) || CHECKLIST_ITEM.test(line))) return;
    kept.push(line);
  });
  return kept.join('\n');
}
