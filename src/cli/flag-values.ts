import { z } from 'zod';
import { ConfigError } from '../errors.js';
import { JUDGE_CHOICES } from '../judges/judge-choice.js';
import { retrievalOptionsSchema } from '../options.js';
import { OUTPUT_FORMATS } from '../output/format.js';
import { STOP_CONDITION_NAMES } from '../loop/stop-conditions.js';
import { readCommandLine, type Command, type CommandLine, type FlagOptions } from './args.js';
import type { FlagDefinition } from './flags.js';
import { invalidValue } from './invalid-value.js';

/** A model id as the Messages API takes it: printable ASCII, no spaces, nothing to escape. */
export const modelIdSchema = z
  .string()
  .regex(
    /^[!-~]{1,200}$/,
    'must be a model id: letters, digits and punctuation, without spaces or control characters',
  );

const pathSchema = z.string().min(1);

/** The settings of the CLI itself, one schema each (the flags' library options have theirs in `retrievalOptionsSchema`). */
export const cliSettingsSchema = z.object({
  help: z.boolean().default(false),
  version: z.boolean().default(false),
  schema: z.boolean().default(false),
  taskFile: pathSchema.optional(),
  root: retrievalOptionsSchema.shape.root,
  judge: z.enum(JUDGE_CHOICES).default('auto'),
  format: z.enum(OUTPUT_FORMATS).optional(),
  /** `-z`: paths separated by NUL bytes, raw (implies `--format paths`). */
  nullSeparated: z.boolean().default(false),
  /** Paths only: the related files' paths follow the core ones. */
  related: z.boolean().default(false),
  excerpts: z.boolean().default(false),
  /** Below 100 tokens a hand-over holds nothing but its heading. */
  budgetTokens: z.int().min(100).optional(),
  prompts: pathSchema.optional(),
  evaluatorModel: modelIdSchema.optional(),
  refinerModel: modelIdSchema.optional(),
  /** `--stop-when`, repeatable: stop condition names; `none` alone runs every cycle. */
  stopWhen: z.array(z.enum([...STOP_CONDITION_NAMES, 'none'])).optional(),
  cacheDir: pathSchema.optional(),
  noCache: z.boolean().default(false),
  resident: z.boolean().default(false),
});

/** The command line once every value is checked. */
export type CliArguments = { command: Command; task: string | undefined } & z.output<
  typeof cliSettingsSchema
> &
  FlagOptions;

function unwrap(schema: z.ZodType): z.ZodType {
  if (schema instanceof z.ZodDefault || schema instanceof z.ZodOptional)
    return unwrap(schema.unwrap() as z.ZodType);
  return schema instanceof z.ZodArray ? (schema.element as z.ZodType) : schema;
}

/** The schema of one value of a flag: its library option's, or its CLI setting's. */
export function flagSchema(definition: FlagDefinition): z.ZodType {
  return unwrap(
    definition.option !== undefined
      ? retrievalOptionsSchema.shape[definition.option]
      : cliSettingsSchema.shape[definition.setting],
  );
}

/** Decimal notation only: `0x10`, `1_000` and ` 5 ` are typos here, not numbers. */
const DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?$/i;

function parseFlagValue(definition: FlagDefinition, raw: string): unknown {
  const schema = flagSchema(definition);
  const value = schema instanceof z.ZodNumber ? (DECIMAL.test(raw) ? Number(raw) : NaN) : raw;
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw invalidValue(`--${definition.flag}`, schema, raw, result.error);
}

/** Checks every flag's value against its schema; the first one refused is a ConfigError naming the flag. */
export function settleCliArguments(line: CommandLine): CliArguments {
  const settings: Record<string, unknown> = {};
  const options: Record<string, unknown> = {};
  for (const { definition, value } of line.flags) {
    const [target, key] =
      definition.option !== undefined
        ? [options, definition.option]
        : [settings, definition.setting];
    // A switch turns a CLI setting on (`--excerpts`) and a library option off (`--no-history`).
    if (value === true) target[key] = definition.setting !== undefined;
    else if (definition.repeatable)
      target[key] = [
        ...((target[key] as unknown[] | undefined) ?? []),
        parseFlagValue(definition, value),
      ];
    else target[key] = parseFlagValue(definition, value);
  }
  const cli = cliSettingsSchema.parse(settings);
  if (cli.nullSeparated && cli.format !== undefined && cli.format !== 'paths')
    throw new ConfigError(
      `\`-z\` (\`--null\`) separates paths: use it with \`--format paths\` (got "${cli.format}")`,
      { option: '--null' },
    );
  const format = cli.format ?? (cli.nullSeparated ? 'paths' : undefined);
  // JSON and Markdown always list the related files: the flag would do nothing there.
  if (cli.related && format !== 'paths')
    throw new ConfigError(
      `\`--related\` adds the related files to \`--format paths\`; json and markdown always list them (got ${format === undefined ? 'no --format' : `"${format}"`})`,
      { option: '--related' },
    );
  return {
    command: line.command,
    task: line.task,
    ...cli,
    format,
    ...(options as FlagOptions),
  };
}

/** Reads and checks a command line: every mistake is a ConfigError naming the flag. */
export function parseCliArguments(argv: readonly string[]): CliArguments {
  return settleCliArguments(readCommandLine(argv));
}
