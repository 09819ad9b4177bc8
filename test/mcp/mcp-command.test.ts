import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, realpathSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { setTimeout } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import type { CliIo } from '../../src/cli/cli-io.js';
import { runCli } from '../../src/cli/run-cli.js';
import { residentSocketOf } from '../../src/file-system/index-store.js';
import { runInProcess } from '../cli/run-in-process.js';
import { exampleCopy } from '../support/example-copy.js';
import { answeringSocket, untilServed } from '../support/socket.js';
import { removeTempTrees } from '../support/temp-tree.js';

/** `iterative-retrieval mcp` in-process, on streams the test holds both ends of. */

const EXAMPLE = realpathSync(join(import.meta.dirname, '../fixtures/example-service'));

function startMcp(argv: string[], overrides: Partial<CliIo> = {}) {
  const input = new PassThrough();
  const output = new PassThrough();
  let stdout = '';
  let stderr = '';
  const exit = runCli({
    argv: ['mcp', ...argv],
    env: {},
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    readStdin: async () => undefined,
    version: '9.9.9',
    streams: { input, output },
    ...overrides,
  });
  /** The next JSON-RPC message the server writes. */
  const nextMessage = () =>
    new Promise<Record<string, unknown>>((resolve) => {
      let buffered = '';
      const onData = (chunk: Buffer) => {
        buffered += chunk.toString();
        const end = buffered.indexOf('\n');
        if (end === -1) return;
        output.off('data', onData);
        resolve(JSON.parse(buffered.slice(0, end)) as Record<string, unknown>);
      };
      output.on('data', onData);
    });
  const send = (message: object) => input.write(`${JSON.stringify(message)}\n`);
  /** Initializes the session, as a client does before its first call. */
  const initialize = async () => {
    const answer = nextMessage();
    send(INITIALIZE);
    await answer;
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  };
  /** Calls `retrieve_context` with these arguments; its answer. */
  const retrieve = (id: number, args: object) => {
    const answer = nextMessage();
    send({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name: 'retrieve_context', arguments: args },
    });
    return answer;
  };
  return {
    input,
    output,
    exit,
    nextMessage,
    send,
    initialize,
    retrieve,
    stdout: () => stdout,
    stderr: () => stderr,
  };
}

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'test', version: '1.0.0' },
  },
};

afterEach(removeTempTrees);

describe('iterative-retrieval mcp', () => {
  it('answers a dozen calls at once with no warning besides its logs', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on('warning', onWarning);
    try {
      const server = startMcp(['--root', EXAMPLE, '--judge', 'heuristic'], {
        signal: new AbortController().signal,
      });
      await server.initialize();
      let received = '';
      const answered = new Promise<void>((resolve) => {
        const onData = (chunk: Buffer) => {
          received += chunk.toString();
          if (received.split('\n').filter(Boolean).length < 12) return;
          server.output.off('data', onData);
          resolve();
        };
        server.output.on('data', onData);
      });
      for (let id = 2; id < 14; id++)
        server.send({
          jsonrpc: '2.0',
          id,
          method: 'tools/call',
          params: { name: 'retrieve_context', arguments: { task: 'Fix the token expiry bug' } },
        });
      await answered;
      server.input.end();
      expect(await server.exit).toBe(0);
      expect(warnings).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('speaks MCP on its streams and exits with 0 when the client closes them', async () => {
    const server = startMcp(['--root', EXAMPLE]);
    const answer = server.nextMessage();
    server.send(INITIALIZE);
    expect(await answer).toMatchObject({
      id: 1,
      result: {
        serverInfo: { name: 'iterative-retrieval', version: '9.9.9' },
        capabilities: { tools: {} },
        instructions: expect.stringContaining(`It searches only inside ${EXAMPLE}.`),
      },
    });
    server.input.end();
    expect(await server.exit).toBe(0);
    // The protocol has the streams; nothing else reaches stdout.
    expect(server.stdout()).toBe('');
  });

  it('answers a malformed line before initialize, and then initializes', async () => {
    const server = startMcp(['--root', EXAMPLE]);
    const parseError = server.nextMessage();
    server.input.write('{"jsonrpc":\n');
    expect(await parseError).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32700, message: 'Parse error: the line is not JSON' },
    });
    const answer = server.nextMessage();
    server.send(INITIALIZE);
    expect(await answer).toMatchObject({ id: 1, result: { capabilities: { tools: {} } } });
    server.input.end();
    expect(await server.exit).toBe(0);
  });

  it('stops with 0 when the process is interrupted', async () => {
    const controller = new AbortController();
    const server = startMcp(['--root', EXAMPLE], { signal: controller.signal });
    controller.abort();
    expect(await server.exit).toBe(0);
  });

  it('refuses to start on a root that does not exist (exit 3)', async () => {
    const server = startMcp(['--root', join(EXAMPLE, 'missing')]);
    expect(await server.exit).toBe(3);
    expect(server.stderr()).toContain(
      `iterative-retrieval: error: root \`${join(EXAMPLE, 'missing')}\` does not exist`,
    );
  });

  // Before: a server started in `/` (Claude Code opened there) exited 2 and offered no tool at all.
  it('started in /, answers a call that names no project with a tool error, and others', async () => {
    const server = startMcp(['--root', '/']);
    await server.initialize();
    const call = (id: number, root?: string) =>
      server.retrieve(id, {
        task: 'Fix the authentication token expiry bug',
        ...(root && { root }),
      });
    expect(await call(2)).toMatchObject({
      id: 2,
      result: {
        isError: true,
        content: [
          { type: 'text', text: expect.stringMatching(/^root `\/` is the whole file system/) },
        ],
      },
    });
    expect(await call(3, '/proc')).toMatchObject({
      result: { isError: true, content: [{ text: expect.stringContaining('a system directory') }] },
    });
    const found = (await call(4, EXAMPLE)) as { result: { isError?: boolean; content: unknown } };
    expect(found.result.isError).toBeFalsy();
    expect(JSON.stringify(found.result.content)).toContain('src/auth/tokens.ts');
    server.input.end();
    expect(await server.exit).toBe(0);
  });

  it.each([
    ['keeps the workspace for the next call', [], [false, true]],
    ['keeps nothing with --no-cache', ['--no-cache'], [false, false]],
  ])('%s: a second call on an unchanged tree reads nothing again', async (_, flags, reused) => {
    const { root } = await exampleCopy();
    const server = startMcp(['--root', root, ...flags], { env: { LOG_LEVEL: 'info' } });
    await server.initialize();
    for (const id of [2, 3]) {
      const answer = await server.retrieve(id, { task: 'Fix the authentication token expiry bug' });
      expect(JSON.stringify(answer)).toContain('src/auth/tokens.ts');
    }
    server.input.end();
    expect(await server.exit).toBe(0);
    const reads = server
      .stderr()
      .split('\n')
      .filter((line) => line.includes('"read repository"'))
      .map((line) => (JSON.parse(line) as { reused?: boolean }).reused ?? false);
    expect(reads).toEqual(reused);
  });

  it('refuses to start without standard streams (exit 2)', async () => {
    const server = startMcp(['--root', EXAMPLE], { streams: undefined });
    expect(await server.exit).toBe(2);
    expect(server.stderr()).toContain(
      'iterative-retrieval: error: `mcp` speaks over standard input and output, and none were given',
    );
  });
});

describe('iterative-retrieval mcp, for --resident runs of its root', { timeout: 60_000 }, () => {
  const TASK = 'Fix the authentication token expiry bug';
  /** A CLI run of the task with `--resident`, and what it started in the background. */
  async function residentRun(root: string, cacheDirectory: string) {
    const started: (readonly string[])[] = [];
    const argv = [TASK, '--root', root, '--cache-dir', cacheDirectory, '--format', 'paths'];
    const run = await runInProcess([...argv, '--resident'], {
      startInBackground: (command) => void started.push(command),
    });
    /** The same run searching itself, for the tests that compare the two. */
    const alone = () => runInProcess([...argv, '--no-cache']);
    return { run, started, alone };
  }

  /** The server on the copy, a --resident run beside it once it serves the socket, then a call. */
  async function besideServer(root: string, cacheDirectory: string, ready?: string) {
    const server = startMcp(['--root', root, '--cache-dir', cacheDirectory], {
      env: { LOG_LEVEL: 'info' },
    });
    await server.initialize();
    await untilServed(residentSocketOf(cacheDirectory, root) ?? '');
    // Then, where it reads its root at once, until it has.
    for (let wait = 0; ready && wait < 200 && !server.stderr().includes(ready); wait++)
      await setTimeout(50);
    const asked = await residentRun(root, cacheDirectory);
    const call = await server.retrieve(2, { task: TASK });
    server.input.end();
    const exit = await server.exit;
    const reads = server
      .stderr()
      .split('\n')
      .filter((line) => line.includes('"read repository"'))
      .map((line) => (JSON.parse(line) as { reused?: boolean }).reused ?? false);
    return { ...asked, call: JSON.stringify(call), exit, reads };
  }

  it('reads a repository at once, answers them from the workspace it holds for its calls too, and takes its socket away when the client leaves', async () => {
    const { root, cacheDirectory } = await exampleCopy();
    execFileSync('git', ['init', '-q'], { cwd: root });
    const beside = await besideServer(root, cacheDirectory, '"answering --resident runs: ready"');
    expect(beside.run.stderr).toContain('answered by the resident process');
    expect(beside.run.stdout).toBe((await beside.alone()).stdout);
    // No process of its own: the server holds the repository already.
    expect(beside.started).toEqual([]);
    expect(beside.call).toContain('src/auth/tokens.ts');
    // Read once, when it started: the run and the call took that workspace.
    expect(beside.reads).toEqual([false, true, true]);
    expect(beside.exit).toBe(0);
    expect(existsSync(residentSocketOf(cacheDirectory, root) ?? '')).toBe(false);
  });

  it('reads a directory outside git only when a run asks', async () => {
    const { root, cacheDirectory } = await exampleCopy();
    const beside = await besideServer(root, cacheDirectory);
    expect(beside.run.stderr).toContain('answered by the resident process');
    expect(beside.started).toEqual([]);
    expect(beside.reads).toEqual([false, true]);
  });

  it('leaves them to a process that already answers them, and takes them over once it has stopped', async () => {
    const { root, cacheDirectory } = await exampleCopy();
    await mkdir(cacheDirectory, { recursive: true, mode: 0o700 });
    const socketPath = residentSocketOf(cacheDirectory, root) ?? '';
    const other = new AbortController();
    await answeringSocket(socketPath, 'not a pack\n', other.signal);
    const server = startMcp(['--root', root, '--cache-dir', cacheDirectory]);
    await server.initialize();
    const before = await residentRun(root, cacheDirectory);
    expect(before.run.stderr).toContain('"reason":"an answer that is not JSON"');
    // The other process stops, and its socket file goes with it.
    other.abort();
    for (let wait = 0; wait < 100 && existsSync(socketPath); wait++) await setTimeout(20);
    await untilServed(socketPath);
    const after = await residentRun(root, cacheDirectory);
    expect(after.run.stderr).toContain('answered by the resident process');
    expect(after.run.stdout).toBe((await after.alone()).stdout);
    server.input.end();
    expect(await server.exit).toBe(0);
    expect(existsSync(socketPath)).toBe(false);
  });

  it('takes them over from a process killed before it could remove its socket file', async () => {
    const { root, cacheDirectory } = await exampleCopy();
    await mkdir(cacheDirectory, { recursive: true, mode: 0o700 });
    const socketPath = residentSocketOf(cacheDirectory, root) ?? '';
    const other = spawn(process.execPath, [
      '-e',
      'require("node:net").createServer(() => {}).listen(process.argv[1])',
      socketPath,
    ]);
    await untilServed(socketPath);
    const server = startMcp(['--root', root, '--cache-dir', cacheDirectory], {
      env: { LOG_LEVEL: 'info' },
    });
    await server.initialize();
    const taken = 'answered by another process until it stops';
    for (let wait = 0; wait < 200 && !server.stderr().includes(taken); wait++) await setTimeout(50);
    expect(server.stderr()).toContain(taken);
    other.kill('SIGKILL');
    await once(other, 'exit');
    expect(existsSync(socketPath)).toBe(true);
    await untilServed(socketPath);
    const after = await residentRun(root, cacheDirectory);
    expect(after.run.stderr).toContain('answered by the resident process');
    server.input.end();
    expect(await server.exit).toBe(0);
  });
});
