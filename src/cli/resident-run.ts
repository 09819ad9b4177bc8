import { platform } from 'node:os';
import { resolve } from 'node:path';
import type { Logger } from 'pino';
import { residentSocketOf } from '../file-system/index-store.js';
import { privateDirectoryProblem } from '../file-system/private-store.js';
import type { ContextPack } from '../output/context-pack.js';
import { askResident } from '../resident/resident-client.js';
import type { RetrievalOptions } from '../options.js';
import type { CliArguments } from './flag-values.js';
import type { CliIo } from './cli-io.js';
import { cacheDirectoryFor } from './cache-directory.js';
import { readClaudeEnvironment } from './environment.js';

/**
 * The CLI's side of `--resident`: a run asks the process that keeps its root in memory
 * (src/resident/), and when there is none, or it cannot answer, runs the search itself and
 * starts one in the background for the runs that follow.
 */

/** Without `--timeout`, how long a run waits for a resident process before searching itself. */
const DEFAULT_WAIT_MS = 5 * 60_000;

type RunOptions = Omit<RetrievalOptions, 'judge' | 'logger' | 'signal' | 'onProgress'>;

export interface ResidentRun {
  /**
   * The resident process's pack; otherwise the options for searching here, the time spent
   * waiting taken off their `timeoutSeconds`. `signal` (default: the CLI's) stops the wait.
   */
  ask(
    task: string,
    options: RunOptions,
    signal?: AbortSignal,
  ): Promise<{ pack: ContextPack } | { options: RunOptions }>;
  /** After a search made here: starts a resident process for the next run. */
  start(options: RunOptions): void;
}

/** The socket of `root`'s resident process in `cacheDirectory`, or why there can be none. */
export async function residentSocketFor(
  cacheDirectory: string,
  root: string,
): Promise<{ socketPath: string } | { problem: string }> {
  // Node serves a socket on Windows only as a named pipe, which the cache directory's
  // permissions would not guard: no process starts there that could not serve.
  if (platform() === 'win32') return { problem: 'sockets are not served here (Windows)' };
  const socketPath = residentSocketOf(cacheDirectory, root);
  if (socketPath === undefined)
    return { problem: 'the cache directory’s path is too long for a socket' };
  const problem = await privateDirectoryProblem(cacheDirectory);
  return problem === undefined
    ? { socketPath }
    : { problem: `the cache directory cannot hold the socket: ${problem}` };
}

/**
 * Runs on `root` with `--resident`: undefined when they have no resident process, which is when
 * the judge is Claude (its runs' time is the model's), with `--no-cache`, or when the cache
 * directory is unfit for a socket (then with a warning).
 */
export async function residentRunFor(
  io: CliIo,
  args: CliArguments,
  searchedRoot: string,
  logger: Logger,
): Promise<ResidentRun | undefined> {
  const offline =
    args.judge === 'heuristic' ||
    (args.judge === 'auto' && readClaudeEnvironment(io.env) === undefined);
  const directory = cacheDirectoryFor(args, io.env);
  if (!args.resident || !offline || directory === undefined) return undefined;
  const cacheDirectory = resolve(directory);
  const root = resolve(searchedRoot);
  const socket = await residentSocketFor(cacheDirectory, root);
  if ('problem' in socket) {
    logger.warn(`--resident: no resident process: ${socket.problem}`);
    return undefined;
  }
  const { socketPath } = socket;
  const build = io.build ?? io.version;
  return {
    async ask(task, options, signal = io.signal) {
      const started = performance.now();
      const limit = options.timeoutSeconds;
      // Half the --timeout at most: a process busy with another run, or still reading the tree,
      // leaves this run the other half to search itself, not nothing.
      const waitSeconds = limit !== undefined ? limit / 2 : DEFAULT_WAIT_MS / 1000;
      // The process's run ends a little before the wait does, so that its answer arrives in time.
      const theirs =
        limit !== undefined
          ? { timeoutSeconds: waitSeconds - Math.min(0.5, waitSeconds / 10) }
          : {};
      const reply = await askResident(
        socketPath,
        { build, task, options: { ...options, ...theirs, root, cacheDirectory } },
        { waitMs: waitSeconds * 1000, signal },
      );
      if ('pack' in reply) {
        logger.info({ socket: socketPath }, 'answered by the resident process');
        return { pack: reply.pack };
      }
      logger.info({ reason: reply.failed }, 'no resident process answered: searching here');
      if (limit === undefined) return { options };
      // The --timeout holds for the whole run, the wait included.
      const left = limit - (performance.now() - started) / 1000;
      return { options: { ...options, timeoutSeconds: Math.max(left, 0.001) } };
    },
    start(options) {
      // A run's time limit is its own, not the process's.
      const kept: RunOptions = { ...options, root, cacheDirectory };
      delete kept.timeoutSeconds;
      io.startInBackground?.(['resident', '--root', root, '--cache-dir', cacheDirectory], {
        input: JSON.stringify(kept),
      });
    },
  };
}
