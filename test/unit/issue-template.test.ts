import { describe, expect, it } from 'vitest';
import { withoutIssueTemplate } from '../../src/text/issue-template.js';

describe('withoutIssueTemplate', () => {
  it.each<[string, string, string]>([
    [
      'keeps the first line, heading or not',
      '### Crash on save\nIt throws.',
      '### Crash on save\nIt throws.',
    ],
    ['drops a heading', 'Title\n### Describe the bug\nIt throws.', 'Title\nIt throws.'],
    ['drops a bold heading', 'Title\n**Expected behavior**\nNo throw.', 'Title\nNo throw.'],
    [
      'keeps the code a heading marks',
      'Title\n**Watching a `ref`:**\nIn order.',
      'Title\n`ref`\nIn order.',
    ],
    [
      'drops an environment section up to the next heading',
      'Title\n#### Environment\n - Fetchy Version: 0.24.0\n - OS: OS X 11.6\n#### Additional context\nSee #12.',
      'Title\nSee #12.',
    ],
    [
      'drops a System Info section with its envinfo block',
      'Title\n### System Info\n```shell\nSystem:\n  OS: macOS 14.6\n### not a heading\n```\n### Any additional comments?\nNone.',
      'Title\nNone.',
    ],
    [
      'drops version fields',
      'Title\n### Fetchy Version\n1.3.5\n### Browser\nChrome\nText',
      'Title',
    ],
    [
      'keeps a section that only mentions a version',
      'Title\n### Regression in the latest version\nSorting fails.',
      'Title\nSorting fails.',
    ],
    [
      'drops empty issue-form fields',
      'Title\n### Code snippet\n_No response_\nText',
      'Title\nText',
    ],
    [
      'drops checklist items',
      'Title\n- [x] Check if updating to the latest version resolves the issue\nText',
      'Title\nText',
    ],
    [
      'keeps headings and bold lines inside code blocks',
      'Title\n```md\n# Usage\n**bold**\n```',
      'Title\n```md\n# Usage\n**bold**\n```',
    ],
    ['reads CRLF text', 'Title\r\n### Describe the bug\r\nIt throws.', 'Title\nIt throws.'],
    [
      "keeps an author's long bold sentence",
      'Title\n**This logic is related to `compat`: both callbacks run on every keystroke**',
      'Title\n**This logic is related to `compat`: both callbacks run on every keystroke**',
    ],
    [
      'ends an environment report where the author writes on after a blank line',
      'Title\n### Environment\n- OS: mac\n- Node: 20\n\nrefreshToken still fails after the upgrade.',
      'Title\nrefreshToken still fails after the upgrade.',
    ],
    [
      'ends an environment report at a thematic break',
      'Title\n### System Info\nOS: mac\n---\nUpdate: it fails on 3.5 too.',
      'Title\n---\nUpdate: it fails on 3.5 too.',
    ],
    [
      'reads a dashed line under a title as its underline, not as the end of the report',
      'Title\n### Versions\nINSTALLED VERSIONS\n------------------\ncommit: None\nLC_ALL: None\n\nThe result drops every attribute it had.',
      'Title\nThe result drops every attribute it had.',
    ],
    [
      'drops an environment report that opens the text',
      '### System Info\nOS: macOS 14.6\nCPU: M1',
      '',
    ],
    ['keeps a plain "No response"', 'Title\nActual:\nNo response', 'Title\nActual:\nNo response'],
    [
      'keeps headings inside ~~~ fences',
      'Title\n~~~\n### System Info\n~~~\nText',
      'Title\n~~~\n### System Info\n~~~\nText',
    ],
    [
      'closes a four-backtick fence only with four',
      'Title\n````md\n```\n# Usage\n````\n# Describe the bug\nText',
      'Title\n````md\n```\n# Usage\n````\nText',
    ],
    [
      'does not open a fence on a one-line code span',
      'Title\n```inline```\n### Describe the bug\nText',
      'Title\n```inline```\nText',
    ],
    [
      "keeps the author's own checklist items that mark code or name files",
      'Title\n- [ ] Rename `refreshToken` in src/auth/session.ts',
      'Title\n- [ ] Rename `refreshToken` in src/auth/session.ts',
    ],
    [
      "drops a template's HTML comments, over several lines or inside one",
      'Title\n<!-- Please search for a similar issue\nfirst, see CONTRIBUTING.md. -->\nThe writer <!-- say which --> ignores `formats`.',
      'Title\nThe writer  ignores `formats`.',
    ],
    [
      'keeps the text after an unclosed `<!--`, and comments in fenced code',
      'Title\n```html\n<!-- a slot -->\n```\nA stray <!-- opens\nnothing.',
      'Title\n```html\n<!-- a slot -->\n```\nA stray <!-- opens\nnothing.',
    ],
    [
      'keeps what follows a comment that closes on a later line',
      'Title\n<!-- hidden\nstill hidden --> The parser drops `NaN`.',
      'Title\n The parser drops `NaN`.',
    ],
    [
      'keeps only the title and body of `gh issue view`',
      'title:\tToken expiry is off by one\nstate:\tOPEN\nauthor:\tsomeone\nlabels:\tbug\n--\nExpiry is checked with >.',
      'Token expiry is off by one\nExpiry is checked with >.',
    ],
  ])('%s', (_name, task, expected) => {
    expect(withoutIssueTemplate(task)).toBe(expected);
  });
});
