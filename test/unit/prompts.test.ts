import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/errors.js';
import { loadPrompts, PER_CALL_MARKER, PROMPT_NAMES, renderPrompt } from '../../src/prompts.js';
import { createRepository } from '../support/repository-factory.js';

const removals: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const remove of removals.splice(0)) await remove();
});

async function promptsDirectory(files: Record<string, string>): Promise<string> {
  const repository = await createRepository(files);
  removals.push(repository.remove);
  return repository.root;
}

describe('prompts', () => {
  it('loads the shipped prompts, each split into a shared part and a per-call part', async () => {
    const prompts = await loadPrompts();
    for (const name of PROMPT_NAMES) {
      expect(prompts[name].shared.length).toBeGreaterThan(200);
      expect(prompts[name].perCall.length).toBeGreaterThan(20);
      expect(prompts[name].file).toMatch(new RegExp(`prompts/${name}\\.md$`));
    }
    // The evaluator's shared part holds the rubric and the task's digest, not the overview.
    expect(prompts.evaluate.shared).toMatch(/0\.8–1\.0[\s\S]*\{\{taskDigest\}\}/);
    expect(prompts.evaluate.shared).not.toContain('{{overview}}');
    expect(prompts.evaluate.perCall).toContain('{{excerpt}}');
    // The first query and the refinements share one system text, so one cache serves them all.
    expect(prompts.refine.shared).toBe(prompts['initial-query'].shared);
    expect(prompts.refine.shared).toMatch(/\{\{overview\}\}[\s\S]*\{\{task\}\}/);
  });

  it('fills placeholders', async () => {
    const prompts = await loadPrompts();
    const rendered = renderPrompt(prompts.evaluate, {
      task: 'the whole task',
      taskDigest: 'T',
      overview: 'O',
      path: 'a.ts',
      kind: 'source',
      lineCount: '3',
      excerpt: 'E',
    });
    expect(rendered.shared).toContain('<task>\nT\n</task>');
    expect(rendered.perCall).toContain('<file path="a.ts" kind="source" lines="3">\nE\n</file>');
    expect(rendered.shared + rendered.perCall).not.toMatch(/\{\{/);
  });

  it('reads a tuned copy from another directory', async () => {
    const shipped = await Promise.all(
      PROMPT_NAMES.map((name) =>
        readFile(join(import.meta.dirname, `../../prompts/${name}.md`), 'utf8'),
      ),
    );
    const files = Object.fromEntries(
      PROMPT_NAMES.map((name, index) => [
        `${name}.md`,
        (shipped[index] ?? '').replace('# ', '# Tuned '),
      ]),
    );
    const prompts = await loadPrompts(await promptsDirectory(files));
    expect(prompts.refine.shared).toMatch(/^# Tuned Search planner/);
  });

  it.each([
    [
      'a missing prompt',
      { 'evaluate.md': `a\n${PER_CALL_MARKER}\nb` },
      /prompt `initial-query\.md` is missing from/,
    ],
    [
      'a prompt without the per-call marker',
      Object.fromEntries(PROMPT_NAMES.map((name) => [`${name}.md`, 'no marker'])),
      /must contain the line `<!-- per call -->` exactly once/,
    ],
  ])('rejects %s with a message naming the file', async (_case, files, message) => {
    const directory = await promptsDirectory(files);
    await expect(loadPrompts(directory)).rejects.toThrow(ConfigError);
    await expect(loadPrompts(directory)).rejects.toThrow(message);
  });

  it('names the file and the placeholder when a tuned prompt uses an unknown one', async () => {
    const prompts = await loadPrompts();
    const template = {
      ...prompts.refine,
      file: '/tuned/refine.md',
      perCall: `${prompts.refine.perCall}\n{{budget}}`,
    };
    expect(() =>
      renderPrompt(template, {
        task: 'T',
        overview: 'O',
        cycle: '1',
        previousQuery: '{}',
        evaluations: '',
      }),
    ).toThrow(
      /prompt `\/tuned\/refine\.md` uses `\{\{budget\}\}`, which is not one of: task, overview, cycle, previousQuery, evaluations/,
    );
  });
});
