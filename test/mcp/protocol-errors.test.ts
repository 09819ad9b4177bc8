import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The real `iterative-retrieval mcp` process, spoken to with raw lines the way a broken or hostile
 * client would: each malformed message gets the answer JSON-RPC 2.0 prescribes, and the server
 * keeps serving.
 */

const REPOSITORY = join(import.meta.dirname, '../..');
const EXAMPLE = 'test/fixtures/example-service';
/** An answer the server owes arrives within this; a missing one fails the test instead of hanging. */
const ANSWER_MS = 15_000;

type Message = Record<string, unknown>;

class RawServer {
  readonly child: ChildProcessWithoutNullStreams;
  private buffered = '';
  private readonly queue: Message[] = [];
  private waiter: (() => void) | undefined;

  constructor() {
    // No key from the developer's shell: the offline judge keeps the test off the network.
    const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'silent' };
    delete env.ANTHROPIC_API_KEY;
    this.child = spawn(
      process.execPath,
      ['--import', 'tsx', 'src/cli/main.ts', 'mcp', '--root', EXAMPLE],
      { cwd: REPOSITORY, env, stdio: ['pipe', 'pipe', 'pipe'] },
    );
    this.child.stderr.resume();
    this.child.stdout.on('data', (chunk: Buffer) => {
      this.buffered += chunk.toString('utf8');
      for (let end = this.buffered.indexOf('\n'); end !== -1; end = this.buffered.indexOf('\n')) {
        this.queue.push(JSON.parse(this.buffered.slice(0, end)) as Message);
        this.buffered = this.buffered.slice(end + 1);
      }
      this.waiter?.();
    });
  }

  /** Writes raw bytes, waiting for the pipe to drain. */
  write(data: string | Buffer): Promise<void> {
    return new Promise((resolve, reject) =>
      this.child.stdin.write(data, (error) => (error ? reject(error) : resolve())),
    );
  }

  send(message: Message): Promise<void> {
    return this.write(`${JSON.stringify(message)}\n`);
  }

  /** The next message the server writes. */
  async next(): Promise<Message> {
    const deadline = Date.now() + ANSWER_MS;
    while (this.queue.length === 0) {
      const left = deadline - Date.now();
      if (left <= 0 || this.child.exitCode !== null)
        throw new Error(`no answer within ${ANSWER_MS} ms (exit code ${this.child.exitCode})`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, 200));
        this.waiter = () => (clearTimeout(timer), resolve());
      });
    }
    return this.queue.shift() as Message;
  }

  async initialize(protocolVersion: string): Promise<Message> {
    await this.send({
      jsonrpc: '2.0',
      id: 'init',
      method: 'initialize',
      params: { protocolVersion, capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    const answer = await this.next();
    await this.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    return answer;
  }

  /** Proves the server still answers, and that nothing else was written before the answer. */
  async expectPong(id: string): Promise<void> {
    await this.send({ jsonrpc: '2.0', id, method: 'ping' });
    expect(await this.next()).toEqual({ jsonrpc: '2.0', id, result: {} });
  }

  /** The peak resident memory of the server, in bytes (Linux). */
  peakMemory(): number {
    const status = readFileSync(`/proc/${this.child.pid}/status`, 'utf8');
    return Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1]) * 1024;
  }

  stop(): void {
    this.child.stdin.end();
    this.child.kill();
  }
}

const error = (id: string | number | null, code: number) => ({
  jsonrpc: '2.0',
  id,
  error: { code, message: expect.any(String) },
});

// Each process compiles the TypeScript sources on start: seconds on a busy machine.
describe('malformed messages to the MCP server (2025-06-18)', { timeout: 60_000 }, () => {
  let server: RawServer;
  beforeAll(async () => {
    server = new RawServer();
    expect(await server.initialize('2025-06-18')).toMatchObject({ id: 'init' });
  }, 60_000);
  afterAll(() => server?.stop());

  it.each([
    ['text that is not JSON', 'this is not json', error(null, -32700)],
    ['binary garbage', Buffer.from([0x00, 0xff, 0xfe, 0x80, 0x7b, 0x1b]), error(null, -32700)],
    ['a truncated object', '{"jsonrpc":"2.0","id":5,"method":"pi', error(null, -32700)],
    ['an object id', '{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}', error(null, -32600)],
    ['a null id', '{"jsonrpc":"2.0","id":null,"method":"ping"}', error(null, -32600)],
    ['a fractional id', '{"jsonrpc":"2.0","id":1.5,"method":"ping"}', error(1.5, -32600)],
    [
      'an id past 2^53',
      '{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}',
      error(null, -32600),
    ],
    ['a missing jsonrpc', '{"id":7,"method":"ping"}', error(7, -32600)],
    ['a wrong jsonrpc', '{"jsonrpc":"1.0","id":"x","method":"ping"}', error('x', -32600)],
    ['a number', '42', error(null, -32600)],
    ['null', 'null', error(null, -32600)],
    ['a method that is not a string', '{"jsonrpc":"2.0","id":8,"method":1}', error(8, -32600)],
    [
      'params that are not structured',
      '{"jsonrpc":"2.0","id":9,"method":"ping","params":3}',
      error(9, -32600),
    ],
    [
      'params MCP rejects',
      '{"jsonrpc":"2.0","id":10,"method":"ping","params":[1]}',
      error(10, -32602),
    ],
    [
      'a tools/list whose cursor is not a string',
      '{"jsonrpc":"2.0","id":13,"method":"tools/list","params":{"cursor":5}}',
      error(13, -32602),
    ],
    [
      'an initialize whose protocol version is a number',
      '{"jsonrpc":"2.0","id":14,"method":"initialize","params":{"protocolVersion":5,"capabilities":{},"clientInfo":{"name":"x","version":"1"}}}',
      error(14, -32602),
    ],
    [
      'a tools/call without the name of a tool',
      '{"jsonrpc":"2.0","id":15,"method":"tools/call","params":{"arguments":{}}}',
      error(15, -32602),
    ],
    ['an unknown member', '{"jsonrpc":"2.0","id":11,"method":"ping","x":1}', error(11, -32600)],
    [
      'a batch, which 2025-06-18 removed',
      '[{"jsonrpc":"2.0","id":12,"method":"ping"}]',
      error(null, -32600),
    ],
    ['an empty batch', '[]', error(null, -32600)],
  ])('answers %s and keeps serving', async (_case, line, expected) => {
    await server.write(Buffer.concat([Buffer.from(line), Buffer.from('\n')]));
    expect(await server.next()).toEqual(expected);
    await server.expectPong('after');
  });

  it.each([
    [
      'a notification with params MCP rejects',
      '{"jsonrpc":"2.0","method":"notifications/initialized","params":[1]}',
    ],
    [
      'a cancellation with an object id',
      '{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":{}}}',
    ],
    ['a malformed response', '{"jsonrpc":"2.0","id":3,"result":5}'],
    [
      'an error response without an id',
      '{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"x"}}',
    ],
    ['a blank line', '   '],
  ])('leaves %s unanswered and keeps serving', async (_case, line) => {
    await server.write(`${line}\n`);
    await server.expectPong('quiet');
  });

  it('answers several malformed lines in one write, in order', async () => {
    await server.write(
      'nope\n{"id":1,"method":"ping"}\r\n{"jsonrpc":"2.0","id":"ok","method":"ping"}\n',
    );
    expect(await server.next()).toEqual(error(null, -32700));
    expect(await server.next()).toEqual(error(1, -32600));
    expect(await server.next()).toEqual({ jsonrpc: '2.0', id: 'ok', result: {} });
  });

  it('still runs a tool call after all of them', async () => {
    await server.send({
      jsonrpc: '2.0',
      id: 'call',
      method: 'tools/call',
      params: {
        name: 'retrieve_context',
        arguments: { task: 'Fix the authentication token expiry bug', maxCycles: 1 },
      },
    });
    const answer = await server.next();
    expect(answer).toMatchObject({ id: 'call' });
    const result = answer.result as {
      isError?: boolean;
      structuredContent: { files: { path: string }[] };
    };
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent.files.map((file) => file.path)).toContain('src/auth/tokens.ts');
  });
});

describe('JSON-RPC batches under protocol revision 2025-03-26', { timeout: 60_000 }, () => {
  let server: RawServer;
  beforeAll(async () => {
    server = new RawServer();
    expect(await server.initialize('2025-03-26')).toMatchObject({
      result: { protocolVersion: '2025-03-26' },
    });
  }, 60_000);
  afterAll(() => server?.stop());

  it('answers a batch with one array: each request, and each invalid element, but no notification', async () => {
    await server.send([
      { jsonrpc: '2.0', id: 'a', method: 'ping' },
      {
        jsonrpc: '2.0',
        method: 'notifications/progress',
        params: { progressToken: 1, progress: 1 },
      },
      { foo: 'bar' },
      { jsonrpc: '2.0', id: 'b', method: 'no/such/method' },
      { jsonrpc: '2.0', id: 'c', method: 'tools/list' },
    ] as unknown as Message);
    const answers = (await server.next()) as unknown as Message[];
    expect(Array.isArray(answers)).toBe(true);
    expect(answers).toHaveLength(4);
    const byId = new Map(answers.map((answer) => [answer.id, answer]));
    expect(byId.get('a')).toEqual({ jsonrpc: '2.0', id: 'a', result: {} });
    expect(byId.get('b')).toMatchObject({ error: { code: -32601 } });
    expect(byId.get('c')).toMatchObject({ result: { tools: [{ name: 'retrieve_context' }] } });
    expect(byId.get(null)).toEqual(error(null, -32600));
    await server.expectPong('after-batch');
  });

  it.each([
    ['an empty batch', '[]', error(null, -32600)],
    [
      'a batch of more than 100 messages',
      JSON.stringify(
        Array.from({ length: 101 }, (_, index) => ({ jsonrpc: '2.0', id: index, method: 'ping' })),
      ),
      error(null, -32600),
    ],
    ['a batch of non-objects', '[1,2]', [error(null, -32600), error(null, -32600)]],
    [
      'initialize in a batch',
      '[{"jsonrpc":"2.0","id":"i","method":"initialize","params":{}}]',
      [error('i', -32600)],
    ],
  ])('answers %s', async (_case, line, expected) => {
    await server.write(`${line}\n`);
    expect(await server.next()).toEqual(expected);
  });

  it('answers nothing to a batch of notifications', async () => {
    await server.write('[{"jsonrpc":"2.0","method":"notifications/roots/list_changed"}]\n');
    await server.expectPong('after-notifications');
  });
});

describe('a message longer than the limit (10 MB)', { timeout: 120_000 }, () => {
  let server: RawServer;
  beforeAll(async () => {
    server = new RawServer();
    await server.initialize('2025-06-18');
  }, 60_000);
  afterAll(() => server?.stop());

  it('is answered as soon as it runs over, dropped, and the server keeps serving', async () => {
    const megabyte = Buffer.alloc(1024 * 1024, 'a');
    for (let sent = 0; sent < 12; sent++) await server.write(megabyte);
    // Answered before the line even ends.
    expect(await server.next()).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: expect.stringContaining('longer than 10485760 bytes') },
    });
    await server.write('still the same line\n');
    await server.expectPong('after-long-line');
  });

  it.runIf(existsSync('/proc/self/status'))('does not hold a 200 MB line in memory', async () => {
    const before = server.peakMemory();
    const megabyte = Buffer.alloc(1024 * 1024, '[');
    for (let sent = 0; sent < 200; sent++) await server.write(megabyte);
    await server.write('\n');
    expect(await server.next()).toMatchObject({ error: { code: -32600 } });
    await server.expectPong('after-200-mb');
    expect(server.peakMemory() - before).toBeLessThan(150 * 1024 * 1024);
  });
});
