import { describe, expect, it } from 'vitest';
import { estimateTokens } from '../../src/contracts/tokens.js';
import { taskDigest } from '../../src/text/task-digest.js';

const lines = (count: number, make: (index: number) => string) =>
  Array.from({ length: count }, (_, index) => make(index)).join('\n');

const PROSE = 'Saving a model with a nullable `expires_at` raises `TypeError` in `serialize_row`.';
const PIP_LIST = `Package    Version\n---------- -------\n${lines(120, (index) => `package${index}    1.${index}.0`)}`;
const TRACEBACK = `\`\`\`\nTraceback (most recent call last):\n${lines(80, (index) => `  File "app/module${index}.py", line ${index}, in call${index}`)}\nTypeError: expected str, got NoneType\n\`\`\``;

describe('taskDigest', () => {
  it('leaves a task within the budget exactly as written', () => {
    expect(taskDigest(`${PROSE}\n\n${TRACEBACK}`, 10_000)).toBe(`${PROSE}\n\n${TRACEBACK}`);
  });

  it.each([
    ['a dependency list', `${PROSE}\n\n${PIP_LIST}`, 'package77'],
    ['the middle of a long traceback', `${PROSE}\n\n${TRACEBACK}`, 'module40.py'],
  ])('cuts %s first, keeping the prose', (_name, task, cut) => {
    const digest = taskDigest(task, 200);
    expect(digest).toContain(PROSE);
    expect(digest).not.toContain(cut);
    expect(estimateTokens(digest)).toBeLessThanOrEqual(200);
  });

  it("keeps a traceback's end, where the error is, and says what it cut", () => {
    const digest = taskDigest(`${PROSE}\n\n${TRACEBACK}`, 400);
    expect(digest).toContain('TypeError: expected str, got NoneType');
    expect(digest).toContain('module79.py');
    expect(digest).toMatch(/… \(\d+ lines cut\)/);
  });

  it('keeps the start and the end of a long text with no blocks to cut, within the budget', () => {
    const task = `${PROSE}\n${lines(400, (index) => `Step ${index}: click the button and wait.`)}\nThe last line names \`retry_policy\`.`;
    const digest = taskDigest(task, 300);
    expect(estimateTokens(digest)).toBeLessThanOrEqual(310);
    expect(digest.startsWith(PROSE)).toBe(true);
    expect(digest).toContain('`retry_policy`');
    expect(digest).toMatch(/… \(\d+ characters cut\)/);
  });
});
