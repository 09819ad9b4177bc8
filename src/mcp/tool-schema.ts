import { z } from 'zod';
import { JUDGE_CHOICES } from '../judges/judge-choice.js';
import { retrievalOptionsSchema } from '../options.js';

/** The MCP tool's name and the words a model reads to decide when and how to call it. */
export const RETRIEVE_CONTEXT_TOOL = 'retrieve_context';

export const RETRIEVE_CONTEXT_DESCRIPTION = [
  'Finds the files a coding task needs before work starts.',
  'It searches the repository, scores each candidate file from 0 to 1 for relevance with a reason,',
  'refines the search from what is still missing, and returns the core files that implement the task',
  '(most relevant first) with their line ranges and excerpts, related files to open if needed',
  '(paths and one-line reasons only), plus open gaps.',
  "Call it with the task in the user's own words, keeping identifiers, file names and error messages,",
  'before reading unfamiliar code or handing a task to a subagent; then read the files it names,',
  'starting at their line ranges.',
].join(' ');

/** Formats of the text content; the structured result is always the context pack. */
export const MCP_TEXT_FORMATS = ['markdown', 'json'] as const;
export type McpTextFormat = (typeof MCP_TEXT_FORMATS)[number];

const cycles = retrievalOptionsSchema.shape.maxCycles;

export const retrieveContextInputSchema = z.strictObject({
  task: z
    .string()
    .trim()
    .min(1)
    .describe(
      'The coding task, in the words of the request: the behaviour or bug, with any identifiers, file names and error messages it mentions.',
    ),
  root: retrievalOptionsSchema.shape.root
    .unwrap()
    .optional()
    .describe(
      "Directory to search, absolute or relative to the server's root; it must lie inside the roots the server was started with. Default: the server's root.",
    ),
  // The library's own range: the tool, the flags and the library cannot disagree about it.
  maxCycles: cycles
    .unwrap()
    .optional()
    .describe(
      `Most search cycles (${cycles.unwrap().minValue}–${cycles.unwrap().maxValue}). Default ${cycles.parse(undefined)}; the run stops earlier once it has enough.`,
    ),
  judge: z
    .enum(JUDGE_CHOICES)
    .optional()
    .describe(
      'Who scores the files: `heuristic` (offline, fast), `claude` (needs ANTHROPIC_API_KEY in the server environment) or `auto` (Claude when a key is set). Default: the server setting, normally `auto`.',
    ),
  format: z
    .enum(MCP_TEXT_FORMATS)
    .optional()
    .describe(
      'Format of the text content: `markdown` (a hand-over for a subagent, with whole files where they fit) or `json` (the pack). The structured result is the same either way. Default `markdown`.',
    ),
});

export type RetrieveContextInput = z.infer<typeof retrieveContextInputSchema>;
