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
      'Title\n#### Environment\n - Axios Version: 0.24.0\n - OS: OS X 11.6\n#### Additional context\nSee #12.',
      'Title\nSee #12.',
    ],
    [
      'drops a System Info section with its envinfo block',
      'Title\n### System Info\n```shell\nSystem:\n  OS: macOS 14.6\n### not a heading\n```\n### Any additional comments?\nNone.',
      'Title\nNone.',
    ],
    ['drops version fields', 'Title\n### Axios Version\n1.3.5\n### Browser\nChrome\nText', 'Title'],
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
  ])('%s', (_name, task, expected) => {
    expect(withoutIssueTemplate(task)).toBe(expected);
  });
});
