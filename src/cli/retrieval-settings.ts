import { DEFAULT_STOP_WHEN } from '../loop/stop-conditions.js';
import type { RetrievalOptions } from '../options.js';
import type { FlagOptions } from './args.js';
import type { CliArguments } from './flag-values.js';
import { FLAGS } from './flags.js';

/** The library options a flag sets, from the flag table: no second list to keep in step. */
const FLAG_OPTIONS = FLAGS.flatMap((definition) =>
  definition.option !== undefined ? [definition.option] : [],
);

/**
 * The library options the command line sets, shared by every command: a plain run, the Claude
 * Code hook and the MCP server are tuned with the same flags. Unset flags keep the library's
 * documented defaults.
 */
export function retrievalOptionsFrom(
  args: CliArguments,
): Omit<RetrievalOptions, 'root' | 'judge' | 'logger' | 'signal' | 'onProgress'> {
  const options: Record<string, unknown> = {};
  for (const option of FLAG_OPTIONS) if (args[option] !== undefined) options[option] = args[option];
  // `--min-files` alone turns the seed's rule on beside the default conditions.
  if (args.stopWhen !== undefined)
    options.stopWhen = args.stopWhen.filter((name) => name !== 'none');
  else if (args.minFiles !== undefined) options.stopWhen = [...DEFAULT_STOP_WHEN, 'min-files'];
  return options as FlagOptions;
}
