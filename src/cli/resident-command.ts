import { resolve } from 'node:path';
import type { Logger } from 'pino';
import { z } from 'zod';
import { ConfigError } from '../errors.js';
import { serveResident } from '../resident/resident-server.js';
import type { CliArguments } from './flag-values.js';
import { EXIT_CODES } from './exit-codes.js';
import { residentSocketFor } from './resident-run.js';
import { retrievalOptionsFrom } from './retrieval-settings.js';
import type { CliIo } from './cli-io.js';
import { requiredCacheDirectory } from './cache-directory.js';

/** How long a resident process waits for a run before it stops, unless the environment says. */
const DEFAULT_IDLE_SECONDS = 600;

const idleSecondsSchema = z.coerce.number().positive().max(86_400);

/**
 * `iterative-retrieval resident`: keeps `--root` in memory and serves `--resident` runs on it over
 * a socket in the cache directory until it idles (src/resident/resident-server.ts). A run with
 * `--resident` starts it in the background, with the options it ran with on standard input.
 */
export async function runResidentCommand(
  io: CliIo,
  args: CliArguments,
  logger: Logger,
): Promise<number> {
  const cacheDirectory = resolve(requiredCacheDirectory('resident', args, io.env));
  const root = resolve(args.root);
  const socket = await residentSocketFor(cacheDirectory, root);
  if ('problem' in socket) throw new ConfigError(socket.problem, { option: '--cache-dir' });
  const { socketPath } = socket;
  const idle = io.env.RETRIEVAL_RESIDENT_IDLE_SECONDS;
  const parsedIdle = idleSecondsSchema.safeParse(idle ?? DEFAULT_IDLE_SECONDS);
  if (!parsedIdle.success)
    throw new ConfigError(
      `RETRIEVAL_RESIDENT_IDLE_SECONDS must be a number of seconds above 0, up to a day (got ${JSON.stringify(idle)})`,
      { option: 'RETRIEVAL_RESIDENT_IDLE_SECONDS' },
    );
  const end = await serveResident({
    root,
    socketPath,
    build: io.build ?? io.version,
    options: {
      ...retrievalOptionsFrom(args),
      ...(await startingOptions(io)),
      root,
      cacheDirectory,
    },
    idleMs: Math.round(parsedIdle.data * 1000),
    logger,
    signal: io.signal,
  });
  io.stdout.write(`${JSON.stringify({ root, stopped: end })}\n`);
  return EXIT_CODES.ok;
}

/** The options of the run that started this process, from standard input (JSON), if any. */
async function startingOptions(io: CliIo): Promise<Record<string, unknown>> {
  const text = (await io.readStdin())?.trim();
  if (!text) return {};
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  const parsed = z.record(z.string(), z.unknown()).safeParse(json);
  if (!parsed.success)
    throw new ConfigError('`resident` reads a JSON object of options on standard input', {
      option: 'stdin',
    });
  return parsed.data;
}
