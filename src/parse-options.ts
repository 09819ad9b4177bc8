import type { z } from 'zod';
import { ConfigError } from './errors.js';

/** Options checked by `schema`, or a `ConfigError` that names the first one at fault. */
export function parseOptions<Schema extends z.ZodType>(
  schema: Schema,
  options: unknown,
): z.output<Schema> {
  const result = schema.safeParse(options ?? {});
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const option = issue?.path.join('.') || undefined;
  const message =
    issue?.code === 'unrecognized_keys'
      ? `unknown option${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((key) => `\`${key}\``).join(', ')}`
      : `\`${option}\` ${issue?.message ?? 'is invalid'}`;
  throw new ConfigError(message, { cause: result.error, ...(option ? { option } : {}) });
}
