import type { ContextPack } from './context-pack.js';
import { formatJson } from './json.js';
import { formatMarkdown } from './markdown.js';
import { formatPaths } from './paths.js';

/** The output formats a run can be printed in. */
export const OUTPUT_FORMATS = ['json', 'markdown', 'paths'] as const;

export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

export interface FormatOptions {
  /** Include each file's excerpt (markdown only). Default false. */
  excerpts?: boolean;
  /**
   * Markdown only: most tokens of the whole text, filled with excerpts, most relevant file first
   * (see `formatMarkdown`; `renderHandover` adds whole files). Default none.
   */
  budgetTokens?: number | undefined;
  /** Paths only: end each path with a NUL byte instead of a line break, unquoted. Default false. */
  nullSeparated?: boolean | undefined;
  /** Paths only: the related files' paths follow the core ones. Default false. */
  related?: boolean | undefined;
}

const FORMATTERS: Record<OutputFormat, (pack: ContextPack, options: FormatOptions) => string> = {
  json: (pack) => formatJson(pack),
  markdown: (pack, options) =>
    formatMarkdown(pack, {
      excerpts: options.excerpts ?? false,
      budgetTokens: options.budgetTokens,
    }),
  paths: (pack, options) =>
    formatPaths(pack, { nullSeparated: options.nullSeparated, related: options.related }),
};

/**
 * Renders a pack in the given format; every format ends with a newline unless it is empty (or
 * NUL-separated).
 */
export function formatContextPack(
  pack: ContextPack,
  format: OutputFormat,
  options: FormatOptions = {},
): string {
  return FORMATTERS[format](pack, options);
}
