import type { Logger } from 'pino';
import { buildIndex } from '../build-index.js';
import type { CliArguments } from './flag-values.js';
import { EXIT_CODES } from './exit-codes.js';
import { retrievalOptionsFrom } from './retrieval-settings.js';
import type { CliIo } from './cli-io.js';
import { requiredCacheDirectory } from './cache-directory.js';

/**
 * `iterative-retrieval index`: builds `--root`'s stored index, or brings it up to date, and prints
 * one JSON line of what it did. A run starts it in the background when a repository has none;
 * run it yourself to have the first search on a repository warm too (after a checkout, say).
 */
export async function runIndexCommand(
  io: CliIo,
  args: CliArguments,
  logger: Logger,
): Promise<number> {
  const cacheDirectory = requiredCacheDirectory('index', args, io.env);
  const { maxRepositoryFiles, excludes, allowSecretFiles } = retrievalOptionsFrom(args);
  const built = await buildIndex({
    root: args.root,
    cacheDirectory,
    ...(maxRepositoryFiles !== undefined && { maxRepositoryFiles }),
    ...(excludes !== undefined && { excludes }),
    ...(allowSecretFiles !== undefined && { allowSecretFiles }),
    signal: io.signal,
  });
  logger.info(built, built.built ? 'index built' : 'another build of this index is under way');
  io.stdout.write(`${JSON.stringify({ ...built, ms: Math.round(built.ms) })}\n`);
  return EXIT_CODES.ok;
}
