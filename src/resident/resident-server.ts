import { createConnection, createServer, type Server, type Socket } from 'node:net';
import pLimit from 'p-limit';
import type { Logger } from 'pino';
import {
  inodeOf,
  linkFile,
  removeFile,
  removeIfAbandoned,
  temporaryNameBeside,
} from '../file-system/private-store.js';
import { errorCode } from '../file-system/error-code.js';
import { createHeuristicJudge } from '../judges/heuristic/heuristic-judge.js';
import { iterativeRetrieve } from '../retrieve.js';
import { createWorkspaceCache, type WorkspaceCache } from '../workspace-cache.js';
import {
  MAX_REQUEST_BYTES,
  readFirstLine,
  residentRequestSchema,
  type ResidentAnswer,
} from './resident-protocol.js';

/**
 * A resident process: it keeps one repository's workspace in memory (src/workspace-cache.ts) and
 * runs the offline judge's retrievals that CLI runs send it over a Unix socket, so that a run on
 * a tree it holds lists the tree and reads only what changed. It lives while it is asked, and
 * stops after `idleMs` without a request, when its socket file is removed or replaced, or when a
 * CLI of another build asks it something. The MCP server serves its root's socket the same way,
 * from the workspace it holds for its own calls, for as long as its session lasts.
 */

export interface ResidentSettings {
  /** The one root it serves (absolute); a request for another is refused. */
  root: string;
  socketPath: string;
  /** The build of the CLI that started it (./resident-protocol.ts). */
  build: string;
  /** The options of the run that started it: it reads the repository with them at once. */
  options?: Record<string, unknown> | undefined;
  /** Without a request for this long, it stops; without it, it idles as long as it lives. */
  idleMs?: number | undefined;
  /**
   * The workspaces it answers from, when they are the caller's (the MCP server's): shared with
   * the caller's own runs and kept when it stops. Without it, it holds its own.
   */
  workspaceCache?: WorkspaceCache | undefined;
  logger: Logger;
  signal?: AbortSignal | undefined;
  /** How long a connection may take to send its request before it is closed (5 s). */
  requestWaitMs?: number | undefined;
}

/**
 * Most connections served at once: each may hold a request of up to `MAX_REQUEST_BYTES` while it
 * arrives, and a client holding many open must not hold the process's memory with them.
 */
export const MAX_CONNECTIONS = 64;

/** Why it stopped; `taken` when another process already served the socket. */
export type ResidentEnd = 'idle' | 'socket-gone' | 'other-build' | 'signal' | 'taken';

/** The task it reads the repository with before the first request: any task reads all of it. */
const PRIME_TASK = 'read the repository';
/**
 * How often it checks that its socket file is still its own; an MCP server whose socket another
 * process serves checks as often whether that one's is gone (src/cli/mcp-command.ts).
 */
export const SOCKET_CHECK_MS = 5_000;

export async function serveResident(settings: ResidentSettings): Promise<ResidentEnd> {
  const { logger } = settings;
  const owned = settings.workspaceCache === undefined;
  // The MCP server serves the socket too: its log says so, not that a resident process runs.
  const serving = owned ? 'resident process' : 'answering --resident runs:';
  const workspaceCache =
    settings.workspaceCache ?? createWorkspaceCache({ idleMs: settings.idleMs });
  const judge = createHeuristicJudge();
  // One run at a time: runs on one workspace share its caches, and memory stays one run's.
  const oneAtATime = pLimit(1);
  // Connections that arrive before the handler below is in place wait for it, unread.
  const early: Socket[] = [];
  const server = createServer((socket) => early.push(socket));
  server.maxConnections = MAX_CONNECTIONS;
  if (!(await listen(server, settings.socketPath))) return 'taken';
  // An accept that fails (out of file handles, say) costs that connection, not the process.
  server.on('error', (error) => logger.warn({ err: error }, `${serving} could not accept a run`));
  const inode = await inodeOf(settings.socketPath);
  // Ending stops the run under way and those waiting, and waits for them: a stopped process
  // writes nothing more (its stored index, say) into a cache directory someone may be removing.
  const stopping = new AbortController();
  const run = (task: string, options: Record<string, unknown>, signal: AbortSignal) =>
    iterativeRetrieve(task, {
      ...options,
      root: settings.root,
      judge,
      workspaceCache,
      logger,
      signal: AbortSignal.any([signal, stopping.signal]),
    });

  return await new Promise<ResidentEnd>((done) => {
    let idle: NodeJS.Timeout | undefined;
    let ended = false;
    const end = (reason: ResidentEnd) => {
      if (ended) return;
      ended = true;
      clearTimeout(idle);
      clearInterval(watch);
      settings.signal?.removeEventListener('abort', onAbort);
      server.close();
      stopping.abort();
      logger.info({ reason }, `${serving} stopped`);
      // After the runs, which go one at a time: the one queued last waits for all the others.
      // The socket file goes only if it is still this process's.
      void oneAtATime(() => (owned ? workspaceCache.clear() : undefined))
        .then(() => inodeOf(settings.socketPath))
        .then((now) => (now === inode ? removeFile(settings.socketPath) : undefined))
        .catch(() => undefined)
        .finally(() => done(reason));
    };
    const restartIdle = () => {
      clearTimeout(idle);
      if (settings.idleMs === undefined) return;
      idle = setTimeout(() => {
        if (oneAtATime.activeCount + oneAtATime.pendingCount === 0) end('idle');
        else restartIdle();
      }, settings.idleMs);
    };
    const watch = setInterval(() => {
      void inodeOf(settings.socketPath).then((now) => {
        if (now !== inode) end('socket-gone');
      });
    }, SOCKET_CHECK_MS);
    const onAbort = () => end('signal');
    settings.signal?.addEventListener('abort', onAbort, { once: true });
    if (settings.signal?.aborted) return onAbort();

    // A connection that sends no request (a server checking that this one is alive, a client
    // that gave up) does not count as being asked: only requests put off the idle stop.
    const serve = (socket: Socket) => {
      void answer(socket).then((answered) => {
        if (answered === 'other-build') end('other-build');
        else if (answered === 'request') restartIdle();
      });
    };
    server.removeAllListeners('connection').on('connection', serve);
    early.splice(0).forEach(serve);
    restartIdle();
    const { options } = settings;
    if (options !== undefined)
      void oneAtATime(() => run(PRIME_TASK, options, stopping.signal))
        .then(() => {
          logger.info({ root: settings.root }, `${serving} ready`);
          // Watched at once (and listed again once watched): the first request then need not list
          // the tree, if nothing changed.
          workspaceCache.get(settings.root)?.watch?.arm(0);
        })
        .catch((error: unknown) => {
          if (!stopping.signal.aborted)
            logger.warn({ err: error }, `${serving} could not read the root`);
        });

    /** Answers one connection: what it sent, `other-build` for a request of another build. */
    async function answer(socket: Socket): Promise<'request' | 'other-build' | 'nothing'> {
      socket.on('error', () => undefined);
      // A request is sent whole at once: a connection that holds one back is closed.
      socket.setTimeout(settings.requestWaitMs ?? 5_000, () => socket.destroy());
      const reply = (message: ResidentAnswer) => socket.end(`${JSON.stringify(message)}\n`);
      let request;
      try {
        const line = await readFirstLine(socket, MAX_REQUEST_BYTES);
        // The run may take its time: the client waits as long as its own limit says.
        socket.setTimeout(0);
        const parsed = residentRequestSchema.safeParse(JSON.parse(line));
        if (!parsed.success) return (reply({ refused: 'not a request' }), 'nothing');
        request = parsed.data;
      } catch {
        return (socket.destroy(), 'nothing');
      }
      if (request.build !== settings.build)
        return (reply({ refused: 'another build' }), 'other-build');
      restartIdle();
      if (request.options.root !== settings.root)
        return (reply({ refused: `this process serves ${settings.root} only` }), 'request');
      // A client gone (Ctrl-C, its time limit) stops its run: nobody would read the answer.
      const gone = new AbortController();
      socket.on('close', () => gone.abort());
      const { options } = request;
      const arrived = performance.now();
      try {
        const pack = await oneAtATime(() => {
          // A run's time limit counts from its request: one that waited for others has less.
          const limit = options.timeoutSeconds;
          if (typeof limit !== 'number') return run(request.task, options, gone.signal);
          const left = limit - (performance.now() - arrived) / 1000;
          if (left <= 0) throw new Error('busy: its time limit ran out while other runs went on');
          return run(request.task, { ...options, timeoutSeconds: left }, gone.signal);
        });
        reply({ pack });
      } catch (error) {
        reply({ refused: error instanceof Error ? error.message : String(error) });
      }
      return 'request';
    }
  });
}

/**
 * Listens on `path`; false when another process answers there. A socket file left by a process
 * that died is replaced. The server listens at a name of its own, linked at `path`, and that name
 * is removed at once: Node removes a Unix socket's file by its name when the server closes, and at
 * `path` that would remove the file of a process that has replaced this one since. A link is
 * refused where a file is, so of two processes that find a dead one's file, one serves.
 */
async function listen(server: Server, path: string): Promise<boolean> {
  const own = temporaryNameBeside(path);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(own, () => (server.off('error', reject), resolve()));
  });
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        await linkFile(own, path);
        return true;
      } catch (error) {
        if (errorCode(error) !== 'EEXIST') throw error;
        // A dead process's file is taken away; one that answers, put back in between, is kept.
        const dead = async (at: string) => !(await answersAt(at));
        if (attempt > 0 || (await removeIfAbandoned(path, dead)) === 'kept') {
          server.close();
          return false;
        }
      }
    }
  } finally {
    await removeFile(own);
  }
}

/**
 * Whether something accepts connections on the socket at `path`: a process killed before it could
 * remove its socket file leaves one that nothing does.
 */
export function answersAt(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createConnection(path);
    probe.once('connect', () => (probe.destroy(), resolve(true)));
    probe.once('error', () => resolve(false));
  });
}
