import { resolve } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { setTimeout } from 'node:timers/promises';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import type { Logger } from 'pino';
import { ConfigError } from '../errors.js';
import { resolveAllowedRoots } from '../mcp/allowed-roots.js';
import { judgeForCall } from '../mcp/call-judge.js';
import { CheckedStdioTransport } from '../mcp/checked-stdio-transport.js';
import { createRetrievalMcpServer } from '../mcp/server.js';
import { DEFAULT_HANDOVER_TOKENS } from '../output/handover.js';
import type { CliArguments } from './flag-values.js';
import { chooseJudgeFor } from './choose-judge.js';
import { EXIT_CODES } from './exit-codes.js';
import { retrievalOptionsFrom } from './retrieval-settings.js';
import { indexedRun } from './stored-index.js';
import { assertSearchableRoot } from '../file-system/roots.js';
import { runGit } from '../git.js';
import { SOCKET_CHECK_MS, answersAt, serveResident } from '../resident/resident-server.js';
import { createWorkspaceCache, type WorkspaceCache } from '../workspace-cache.js';
import { cacheDirectoryFor } from './cache-directory.js';
import type { CliIo } from './cli-io.js';
import { residentSocketFor } from './resident-run.js';

/**
 * The stdio transport that answers malformed messages, plus a promise that settles when it closes
 * (the client ended stdin).
 */
class ObservedStdioTransport extends CheckedStdioTransport {
  readonly closed: Promise<void>;
  private markClosed: () => void = () => undefined;

  constructor(input: Readable, output: Writable) {
    super(input, output);
    this.closed = new Promise((resolve) => (this.markClosed = resolve));
  }

  override async close(): Promise<void> {
    await super.close();
    this.markClosed();
  }
}

/**
 * `iterative-retrieval mcp`: an MCP server on standard input and output with one tool,
 * `retrieve_context`, confined to `--root` (the working directory by default). Resolves with exit
 * code 0 once the client closes the connection or the process is interrupted.
 */
export async function runMcpCommand(
  io: CliIo,
  args: CliArguments,
  logger: Logger,
): Promise<number> {
  const streams = io.streams;
  if (!(streams?.input instanceof Readable) || !(streams.output instanceof Writable))
    throw new ConfigError('`mcp` speaks over standard input and output, and none were given', {
      option: 'mcp',
    });
  const allowedRoots = await resolveAllowedRoots([args.root]);
  const transport = new ObservedStdioTransport(streams.input, streams.output);
  // The server lives as long as the client's session: calls after the first on an unchanged tree
  // read nothing again. `--no-cache` keeps nothing, on disk or in memory.
  const workspaceCache = args.noCache ? undefined : createWorkspaceCache();
  const server = () =>
    createRetrievalMcpServer({
      version: io.version,
      allowedRoots,
      retrievalOptions: { ...retrievalOptionsFrom(args), workspaceCache },
      selectJudge: async (choice, callLogger) => {
        const { judge, because } = await chooseJudgeFor(
          args,
          io.env,
          callLogger,
          judgeForCall(args.judge, choice),
        );
        callLogger.info({ judge: judge.name, because }, 'judge chosen');
        return judge;
      },
      budgetTokens: args.budgetTokens ?? DEFAULT_HANDOVER_TOKENS,
      defaultFormat: args.format === 'json' ? 'json' : 'markdown',
      logger,
      signal: io.signal,
      indexedRun: (root) => indexedRun(io, args, root),
    });
  // stdout carries the protocol; every log line goes to stderr through pino.
  const handle = serveStdio(server, {
    transport,
    // A client that closed our stdout has left (the transport then closes): no warning for that.
    onerror: (error) =>
      (error as NodeJS.ErrnoException).code === 'EPIPE'
        ? logger.info('mcp client closed the connection')
        : logger.warn({ err: error }, 'mcp connection error'),
  });
  logger.info({ allowedRoots }, 'mcp server listening on stdio');
  const session = new AbortController();
  const residentRuns =
    workspaceCache && serveResidentRuns(io, args, workspaceCache, logger, session.signal);
  const stop = () =>
    void handle.close().catch((error: unknown) => logger.warn({ err: error }, 'mcp close failed'));
  if (io.signal?.aborted) stop();
  io.signal?.addEventListener('abort', stop, { once: true });
  await transport.closed;
  io.signal?.removeEventListener('abort', stop);
  session.abort();
  await residentRuns;
  // The held workspace goes, and its tree's watch with it.
  workspaceCache?.clear();
  logger.info('mcp server stopped');
  return EXIT_CODES.ok;
}

/**
 * The `--resident` runs of its root (a hook's, an orchestrator's CLI), answered from the workspace
 * the server holds for its own calls while its session lasts: one copy of the repository in
 * memory for both, and no resident process of its own. A root inside a git work tree is read at
 * once, as a resident process reads it, so that the session's first subagent launch finds it
 * read; another (a home directory) only when a run asks. Not where another process already
 * answers them, where the cache directory cannot hold the socket, or on a root no run may search.
 */
async function serveResidentRuns(
  io: CliIo,
  args: CliArguments,
  workspaceCache: WorkspaceCache,
  logger: Logger,
  signal: AbortSignal,
): Promise<void> {
  const directory = cacheDirectoryFor(args, io.env);
  if (directory === undefined) return;
  const root = resolve(args.root);
  const searchable = await assertSearchableRoot(root).then(
    () => true,
    () => false,
  );
  if (!searchable) return;
  const cacheDirectory = resolve(directory);
  const socket = await residentSocketFor(cacheDirectory, root);
  if ('problem' in socket) {
    logger.info(`no --resident runs answered here: ${socket.problem}`);
    return;
  }
  const readAtOnce = await isInGitWorkTree(root, signal);
  const options = readAtOnce ? { ...retrievalOptionsFrom(args), root, cacheDirectory } : undefined;
  // Where another process serves the socket (another session's server, a resident process), this
  // one takes the runs over once that one has stopped: once its file is gone, or nothing answers
  // there any more (it was killed). A connection that sends no request does not keep a resident
  // process from idling.
  for (;;) {
    // A socket that cannot be served costs these runs, which then search themselves as before,
    // not the server's own calls: no warning for it.
    const end = await serveResident({
      root,
      socketPath: socket.socketPath,
      build: io.build ?? io.version,
      options,
      workspaceCache,
      logger,
      signal,
    }).catch((error: unknown) => {
      logger.info({ err: error }, 'no --resident runs answered here: the socket cannot be served');
      return undefined;
    });
    if (end !== 'taken') return;
    logger.info('--resident runs of this root are answered by another process until it stops');
    do await setTimeout(SOCKET_CHECK_MS, undefined, { signal }).catch(() => undefined);
    while (!signal.aborted && (await answersAt(socket.socketPath)));
    if (signal.aborted) return;
  }
}

async function isInGitWorkTree(root: string, signal: AbortSignal): Promise<boolean> {
  const git = await runGit(['-C', root, 'rev-parse', '--is-inside-work-tree'], {
    maxBytes: 64,
    signal,
  });
  return git.code === 0 && git.stdout.toString().trim() === 'true';
}
