import { join } from 'node:path';
import { ConfigError } from '../errors.js';
import type { CliArguments } from './flag-values.js';
import type { CliIo } from './cli-io.js';

/**
 * Where the CLI keeps each repository's stored index: `--cache-dir`, else `RETRIEVAL_CACHE_DIR`,
 * else `iterative-retrieval` in the XDG cache directory (`$XDG_CACHE_HOME`, or `~/.cache`).
 * None with `--no-cache` or `RETRIEVAL_CACHE_DIR=off`, or when there is no home to put it in.
 */
export function cacheDirectoryFor(
  args: Pick<CliArguments, 'cacheDir' | 'noCache'>,
  env: CliIo['env'],
): string | undefined {
  if (args.noCache) return undefined;
  if (args.cacheDir !== undefined) return args.cacheDir;
  const configured = env.RETRIEVAL_CACHE_DIR?.trim();
  if (configured) return configured === 'off' ? undefined : configured;
  const xdg = env.XDG_CACHE_HOME?.trim();
  if (xdg) return join(xdg, 'iterative-retrieval');
  const home = env.HOME?.trim();
  return home ? join(home, '.cache', 'iterative-retrieval') : undefined;
}

/** The cache directory a command cannot do without (`index`, `resident`): none is a usage error. */
export function requiredCacheDirectory(
  command: string,
  args: Pick<CliArguments, 'cacheDir' | 'noCache'>,
  env: CliIo['env'],
): string {
  const directory = cacheDirectoryFor(args, env);
  if (directory === undefined)
    throw new ConfigError(
      `\`${command}\` needs a cache directory: --cache-dir, RETRIEVAL_CACHE_DIR, XDG_CACHE_HOME or HOME (and no --no-cache)`,
      { option: '--cache-dir' },
    );
  return directory;
}
