import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ConfigError } from './errors.js';
import { isDirectory, readTextFile } from './file-system/inputs.js';

/**
 * Prompts are plain Markdown files with `{{placeholders}}`, one per model call, so they can be
 * tuned without touching code. A line `<!-- per call -->` splits each file: what comes before is
 * the same for every call of a run (instructions, rubric, task) and is sent first, marked for
 * prompt caching; what comes after changes with each call.
 */
export const PROMPT_NAMES = ['initial-query', 'evaluate', 'refine'] as const;
export type PromptName = (typeof PROMPT_NAMES)[number];

export interface PromptTemplate {
  name: PromptName;
  /** Where it was read from, for messages that tell a user which file to look at. */
  file: string;
  shared: string;
  perCall: string;
}

export type Prompts = Record<PromptName, PromptTemplate>;

export const PER_CALL_MARKER = '<!-- per call -->';
const PLACEHOLDER = /\{\{\s*([a-zA-Z][\w-]*)\s*\}\}/g;

/**
 * Where the prompts shipped with the package may be, first found first: beside the code that
 * reads them (`src/`, `dist/`, the plugin's `dist/`), else two levels up, from the bundle in
 * `dist/bin/` (scripts/bundle-cli.ts), so that it reads the package's own `prompts/` as edited.
 */
const SHIPPED_PROMPTS = [
  new URL('../prompts/', import.meta.url),
  new URL('../../prompts/', import.meta.url),
] as const;

async function shippedPrompts(): Promise<URL> {
  for (const directory of SHIPPED_PROMPTS) if (await isDirectory(directory)) return directory;
  return SHIPPED_PROMPTS[0];
}

function parseTemplate(name: PromptName, file: string, text: string): PromptTemplate {
  const parts = text.split(PER_CALL_MARKER);
  if (parts.length !== 2) {
    throw new ConfigError(
      `prompt \`${file}\` must contain the line \`${PER_CALL_MARKER}\` exactly once`,
      { option: 'prompts' },
    );
  }
  return { name, file, shared: (parts[0] ?? '').trim(), perCall: (parts[1] ?? '').trim() };
}

/** Reads the three prompts from a directory (a user's tuned copy, or the package's own). */
export async function loadPrompts(directory?: string | URL): Promise<Prompts> {
  const base =
    directory === undefined
      ? await shippedPrompts()
      : typeof directory === 'string'
        ? pathToFileURL(`${resolve(directory)}/`)
        : directory;
  // In order, so that a directory missing several prompts always names the same one first.
  const entries: [PromptName, PromptTemplate][] = [];
  for (const name of PROMPT_NAMES) {
    const url = new URL(`${name}.md`, base);
    let text: string;
    try {
      text = await readTextFile(url);
    } catch (error) {
      throw new ConfigError(
        `prompt \`${name}.md\` is missing from \`${decodeURIComponent(base.pathname)}\``,
        { cause: error, option: 'prompts' },
      );
    }
    entries.push([name, parseTemplate(name, decodeURIComponent(url.pathname), text)]);
  }
  return Object.fromEntries(entries) as Prompts;
}

function fill(text: string, variables: Readonly<Record<string, string>>, file: string): string {
  return text.replace(PLACEHOLDER, (_match, key: string) => {
    const value = variables[key];
    if (value === undefined) {
      throw new ConfigError(
        `prompt \`${file}\` uses \`{{${key}}}\`, which is not one of: ${Object.keys(variables).join(', ')}`,
        { option: 'prompts' },
      );
    }
    return value;
  });
}

/** Fills a template's placeholders; an unknown placeholder is an error that names the file. */
export function renderPrompt(
  template: PromptTemplate,
  variables: Readonly<Record<string, string>>,
): { shared: string; perCall: string } {
  return {
    shared: fill(template.shared, variables, template.file),
    perCall: fill(template.perCall, variables, template.file),
  };
}
