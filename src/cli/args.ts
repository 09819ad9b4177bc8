import { parseArgs, type ParseArgsConfig } from 'node:util';
import { ConfigError } from '../errors.js';
import type { RetrievalOptions } from '../options.js';
import { FLAGS, type FlagDefinition, type FlagOption } from './flags.js';
import { quoteValue } from './quote-value.js';

/**
 * `retrieve` is the default; `hook` and `mcp` run the integrations (./hook-command.ts,
 * ./mcp-command.ts); `index` builds a repository's stored index (./index-command.ts); `resident`
 * keeps a repository in memory for `--resident` runs (./resident-command.ts).
 */
export type Command = 'retrieve' | 'hook' | 'mcp' | 'index' | 'resident';

/** Each command but a plain run, and why it takes no task argument. */
const WHY_NO_TASK: Record<Exclude<Command, 'retrieve'>, string> = {
  hook: 'its tasks come from Claude Code',
  mcp: 'its tasks come from the MCP client',
  index: 'it indexes the --root directory',
  resident: 'its tasks come from runs with --resident',
};
const isCommand = (word: string): word is keyof typeof WHY_NO_TASK =>
  Object.hasOwn(WHY_NO_TASK, word);

/** The command line as typed: which command, the task, and each flag's raw value in order. */
export interface CommandLine {
  command: Command;
  task: string | undefined;
  help: boolean;
  version: boolean;
  schema: boolean;
  /** Flags with a value, in the order given; switches are `true`. */
  flags: { definition: FlagDefinition; value: string | true }[];
}

/** The library options the flags set; a flag not given leaves the library's default. */
export type FlagOptions = Pick<RetrievalOptions, FlagOption>;

/**
 * The command: `hook`, `mcp`, `index` or `resident` when it is the first argument, else a plain
 * run. Decided from the first argument alone, before any parsing, so that a hook whose flags are
 * wrong still knows it is a hook (and must not exit 2). A task is never `retrieve`.
 */
export function commandOf(argv: readonly string[]): Command {
  const [first = ''] = argv;
  return isCommand(first) ? first : 'retrieve';
}

const BY_NAME = new Map(
  FLAGS.flatMap((definition) => [
    [definition.flag, definition] as const,
    ...(definition.short ? [[definition.short, definition] as const] : []),
  ]),
);

const PARSE_OPTIONS: NonNullable<ParseArgsConfig['options']> = Object.fromEntries(
  FLAGS.map(({ flag, short, value }) => [
    flag,
    { type: value ? 'string' : 'boolean', ...(short && { short }) },
  ]),
);

/** A value that reads as a number may start with a dash (`--timeout -1`); anything else is a flag. */
const looksLikeFlag = (value: string) => /^-[^\d.]/.test(value);

/**
 * Reads the command line: every mistake of form (an unknown flag, a missing value, a second task)
 * is a ConfigError naming the flag as typed. Values are checked later, against their schemas.
 */
export function readCommandLine(argv: readonly string[]): CommandLine {
  const { tokens } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    strict: false,
    tokens: true,
    options: PARSE_OPTIONS,
  });
  const command = commandOf(argv);
  const positionals: string[] = [];
  const flags: CommandLine['flags'] = [];
  for (const token of tokens) {
    if (token.kind === 'positional') positionals.push(token.value);
    if (token.kind !== 'option') continue;
    const definition = BY_NAME.get(token.name);
    if (!definition) throw new ConfigError(`unknown option ${quoteValue(token.rawName, '`')}`);
    const option = `--${definition.flag}`;
    if (definition.value === undefined) {
      if (token.value !== undefined)
        throw new ConfigError(`\`${option}\` takes no value (got ${quoteValue(token.value)})`, {
          option,
        });
      flags.push({ definition, value: true });
    } else if (token.value === undefined || (!token.inlineValue && looksLikeFlag(token.value))) {
      throw new ConfigError(
        `\`${option}\` needs a value${token.value === undefined ? '' : ` (got the flag ${quoteValue(token.value, '`')}; for a value that starts with a dash, write \`${option}=<value>\`)`}`,
        { option },
      );
    } else flags.push({ definition, value: token.value });
  }
  if (command !== 'retrieve') positionals.shift();
  if (command !== 'retrieve' && positionals.length > 0)
    throw new ConfigError(
      `\`${command}\` takes no task argument (got ${quoteValue(positionals[0] ?? '')}); ${WHY_NO_TASK[command]}`,
      { option: 'task' },
    );
  if (positionals.length > 1)
    throw new ConfigError(
      `expected one task argument, got ${positionals.length} (quote the task)`,
      { option: 'task' },
    );
  const given = (setting: string) => flags.some(({ definition }) => definition.setting === setting);
  return {
    command,
    task: positionals[0],
    help: given('help'),
    version: given('version'),
    schema: given('schema'),
    flags,
  };
}
