import { realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, type ClientOptions } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contextPackSchema } from '../../src/output/context-pack.js';
import { estimateTokens } from '../../src/contracts/tokens.js';

/**
 * The MCP server as a client meets it: the real `iterative-retrieval mcp` process, spawned over
 * stdio by the SDK's own client, without an API key (so the offline judge answers).
 */

const REPOSITORY = join(import.meta.dirname, '../..');
const EXAMPLE = realpathSync(join(REPOSITORY, 'test/fixtures/example-service'));
const TASK = 'Fix the authentication token expiry bug';

interface RunningServer {
  client: Client;
  stderr: () => string;
}

async function startServer(options: ClientOptions = {}): Promise<RunningServer> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', 'src/cli/main.ts', 'mcp', '--root', EXAMPLE],
    cwd: REPOSITORY,
    // On top of the SDK's short list of safe variables: no ANTHROPIC_API_KEY ever reaches it.
    env: { LOG_LEVEL: 'info' },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: 'iterative-retrieval-test', version: '1.0.0' }, options);
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

const textOf = (result: { content: unknown }) =>
  (result.content as { type: string; text?: string }[]).map((block) => block.text ?? '').join('\n');

describe(
  'the MCP server over stdio, as Claude Code connects (2025 protocol)',
  { timeout: 60_000 },
  () => {
    let server: RunningServer;
    beforeAll(async () => {
      server = await startServer();
    }, 60_000);
    afterAll(async () => {
      await server?.client.close();
    });

    it('lists retrieve_context with its input schema and the context pack as output schema', async () => {
      const { tools } = await server.client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(['retrieve_context']);
      const [tool] = tools;
      expect(tool?.description).toMatch(/files a coding task needs/);
      expect(tool?.inputSchema.required).toEqual(['task']);
      expect(Object.keys(tool?.inputSchema.properties ?? {})).toEqual([
        'task',
        'root',
        'maxCycles',
        'judge',
        'format',
      ]);
      expect(Object.keys(tool?.outputSchema?.properties ?? {})).toEqual(
        expect.arrayContaining(['files', 'gaps', 'evaluated', 'stopReason', 'warnings']),
      );
      expect(tool?.annotations?.readOnlyHint).toBe(true);
    });

    it('returns the context pack as structured content, within the output budget', async () => {
      const result = await server.client.callTool({
        name: 'retrieve_context',
        arguments: { task: TASK },
      });
      expect(result.isError).toBeFalsy();
      const pack = contextPackSchema.parse(result.structuredContent);
      expect(pack.root).toBe(EXAMPLE);
      expect(pack.judge).toBe('heuristic');
      expect(pack.files.map((file) => file.path)).toContain('src/auth/tokens.ts');
      const tokens = pack.files.find((file) => file.path === 'src/auth/tokens.ts');
      expect(tokens?.reason).not.toBe('');
      expect(tokens?.lineRanges.length).toBeGreaterThan(0);
      // The default budget of the hand-over (6000 tokens) bounds the structured result too.
      expect(estimateTokens(JSON.stringify(result.structuredContent))).toBeLessThanOrEqual(6000);
      // The text is the Markdown hand-over, for clients that show text rather than structure.
      expect(textOf(result)).toMatch(/^# Context for: Fix the authentication token expiry bug/);
      expect(textOf(result)).toContain('src/auth/tokens.ts');
    });

    it('gives the pack as JSON text when asked for format json', async () => {
      const result = await server.client.callTool({
        name: 'retrieve_context',
        arguments: { task: TASK, format: 'json', maxCycles: 1 },
      });
      expect(JSON.parse(textOf(result))).toEqual(result.structuredContent);
      expect(contextPackSchema.parse(result.structuredContent).trace).toHaveLength(1);
    });

    it('sends progress notifications when the client asks for them', async () => {
      const updates: { progress: number; message?: string | undefined }[] = [];
      const result = await server.client.callTool(
        { name: 'retrieve_context', arguments: { task: TASK } },
        { onprogress: (update) => updates.push(update) },
      );
      expect(result.isError).toBeFalsy();
      const messages = updates.map((update) => update.message);
      expect(messages[0]).toMatch(/^read \d+ files/);
      expect(messages).toContainEqual(expect.stringMatching(/^cycle 1: \d+ candidates/));
      expect(messages.at(-1)).toMatch(/^done \([\w-]+\): \d+ files?$/);
      const progress = updates.map((update) => update.progress);
      expect(progress).toEqual([...progress].sort((left, right) => left - right));
      expect(new Set(progress).size).toBe(progress.length);
    });

    it.each([
      ['an empty task', { task: '  ' }, /task: Too small/],
      ['no task', {}, /task: Invalid input/],
      ['zero cycles', { task: TASK, maxCycles: 0 }, /maxCycles: Too small/],
      ['eleven cycles', { task: TASK, maxCycles: 11 }, /maxCycles: Too big/],
      ['an unknown judge', { task: TASK, judge: 'oracle' }, /judge: Invalid option/],
      ['an unknown format', { task: TASK, format: 'paths' }, /format: Invalid option/],
      ['an unknown argument', { task: TASK, max_cycles: 2 }, /Unrecognized key: "max_cycles"/],
    ])('answers %s with a tool error naming the argument', async (_case, args, message) => {
      const result = await server.client.callTool({ name: 'retrieve_context', arguments: args });
      expect(result.isError).toBe(true);
      expect(result.structuredContent).toBeUndefined();
      expect(textOf(result)).toMatch(message);
    });

    it.each([
      ['the file system root', '/'],
      ['a parent directory', '../..'],
      ['another absolute directory', tmpdir()],
    ])('refuses %s as root with a tool error naming the allowed roots', async (_case, root) => {
      const result = await server.client.callTool({
        name: 'retrieve_context',
        arguments: { task: TASK, root },
      });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toBe(
        `root \`${root}\` is outside the allowed roots (${EXAMPLE}); search inside them, or start the server with \`--root\` set to a directory that contains it`,
      );
    });

    it('answers a Claude judge without an API key with a tool error', async () => {
      const result = await server.client.callTool({
        name: 'retrieve_context',
        arguments: { task: TASK, judge: 'claude' },
      });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/needs an Anthropic API key: set ANTHROPIC_API_KEY/);
    });

    it('keeps serving after the errors, and searches a directory inside its root', async () => {
      const result = await server.client.callTool({
        name: 'retrieve_context',
        arguments: { task: TASK, root: 'src/auth', maxCycles: 1 },
      });
      expect(result.isError).toBeFalsy();
      const pack = contextPackSchema.parse(result.structuredContent);
      expect(pack.root).toBe(join(EXAMPLE, 'src/auth'));
      // Found as core or as related: either way the client is pointed at it.
      expect([...pack.files, ...pack.related].map((file) => file.path)).toContain('tokens.ts');
    });

    it('writes its logs to stderr as JSON lines', () => {
      const lines = server
        .stderr()
        .split('\n')
        .filter((line) => line.trim() !== '');
      const messages = lines.map((line) => (JSON.parse(line) as { msg: string }).msg);
      expect(messages).toContain('mcp server listening on stdio');
      expect(messages).toContain('done');
    });
  },
);

describe('the MCP server over stdio, 2026-07-28 protocol', { timeout: 60_000 }, () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ versionNegotiation: { mode: { pin: '2026-07-28' } } });
  }, 60_000);
  afterAll(async () => {
    await server?.client.close();
  });

  it('serves the same tool, with progress', async () => {
    expect(server.client.getProtocolEra()).toBe('modern');
    const updates: unknown[] = [];
    const result = await server.client.callTool(
      { name: 'retrieve_context', arguments: { task: TASK } },
      { onprogress: (update) => updates.push(update) },
    );
    expect(result.isError).toBeFalsy();
    const pack = contextPackSchema.parse(result.structuredContent);
    expect(pack.files.map((file) => file.path)).toContain('src/auth/tokens.ts');
    expect(updates.length).toBeGreaterThan(0);
  });
});
