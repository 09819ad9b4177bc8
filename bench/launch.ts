import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { residentSocketOf } from '../src/file-system/index-store.js';
import { median } from './metrics.js';
import { runTimed, type Finished } from './timed-process.js';

/**
 * Launch overhead of the built CLI: each launch path against `node -e 0` started in the same
 * round, so a busy machine slows both alike and the ratio stays comparable between runs.
 */

const USAGE = `Usage: npm run bench:launch -- [options]

  --cli FILE   the CLI to start (default: dist/bin/main.js, the package's bin;
               plugin/dist/bin/main.js is the bundle the Claude Code plugin runs, and
               dist/cli/main.js the compiled modules it is bundled from)
  --runs N     measured rounds, after one warm-up round (default: 15)

Each round starts every launch path once, each right after a \`node -e 0\`; the table gives the
medians and the ratio of each path's median to the median of its own \`node -e 0\` starts.`;

const { values } = parseArgs({
  options: {
    cli: { type: 'string', default: 'dist/bin/main.js' },
    runs: { type: 'string', default: '15' },
    help: { type: 'boolean', short: 'h' },
  },
});
const runs = Number(values.runs);
if (values.help || !Number.isInteger(runs) || runs < 1) {
  console.log(USAGE);
  process.exit(values.help ? 0 : 2);
}

const cli = resolve(values.cli);
const example = resolve('test/fixtures/example-service');
const store = await mkdtemp(join(tmpdir(), 'iterative-retrieval-launch-'));
// Offline and quiet whatever the caller's shell holds: no key, no log level, a private store.
const env: Record<string, string> = {
  PATH: process.env.PATH ?? '',
  RETRIEVAL_HOOK_STORE: join(store, 'pending'),
};

interface LaunchPath {
  name: string;
  args: string[];
  stdin?: string;
  extraEnv?: Record<string, string>;
  /** Throws unless the launch did what this path is about (a failed launch is no measure). */
  check(result: Finished): void;
}

/** Where the MCP server and the hooks beside it keep the example's stored index and socket. */
const cacheDirectory = join(store, 'cache');

const hookInput = (fields: Record<string, unknown>) =>
  JSON.stringify({ session_id: 'bench', cwd: example, permission_mode: 'default', ...fields });

function expect(condition: boolean, what: string, result: Finished): void {
  if (!condition)
    throw new Error(
      `${what}\nexit ${result.code}\nstdout: ${result.stdout}\nstderr: ${result.stderr}`,
    );
}

/** The hook's quick answers: exit 0, nothing on stdout, the reason on stderr. */
const noChange = (reason: string) => (result: Finished) =>
  expect(
    result.code === 0 && result.stdout === '' && result.stderr.includes('no change'),
    `no change (${reason})`,
    result,
  );

/** A subagent launched with a task on the example repository. */
function subagentLaunch(): string {
  return hookInput({
    hook_event_name: 'PreToolUse',
    tool_name: 'Agent',
    tool_use_id: 'toolu_bench',
    tool_input: { description: 'Fix it', prompt: 'Fix the authentication token expiry bug' },
  });
}

const PATHS: LaunchPath[] = [
  {
    name: '`--version`',
    args: ['--version'],
    check: (result) => expect(/^\d+\.\d+\.\d+/.test(result.stdout), 'a version', result),
  },
  {
    name: '`--help`',
    args: ['--help'],
    check: (result) => expect(result.stdout.startsWith('Usage:'), 'the usage', result),
  },
  {
    name: 'hook: another tool (PreToolUse `Bash`)',
    args: ['hook'],
    stdin: hookInput({
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_use_id: 'toolu_bench',
      tool_input: { command: 'ls' },
    }),
    check: noChange('Bash is not the subagent tool'),
  },
  {
    name: 'hook: prompt with `[no-context]`',
    args: ['hook'],
    stdin: hookInput({
      hook_event_name: 'PreToolUse',
      tool_name: 'Agent',
      tool_use_id: 'toolu_bench',
      tool_input: { description: 'Fix it', prompt: 'Fix the token expiry bug [no-context]' },
    }),
    check: noChange('the prompt contains [no-context]'),
  },
  {
    name: 'hook: SubagentStart, context in the prompt only',
    args: ['hook'],
    extraEnv: { RETRIEVAL_HOOK_DELIVERY: 'prompt' },
    stdin: hookInput({
      hook_event_name: 'SubagentStart',
      agent_id: 'agent-bench',
      agent_type: 'general-purpose',
    }),
    check: noChange('nothing kept for SubagentStart'),
  },
  {
    name: 'hook: SubagentStart, nothing pending in the store (`both`)',
    args: ['hook'],
    // The store is read only when context is also kept for SubagentStart.
    extraEnv: { RETRIEVAL_HOOK_DELIVERY: 'both' },
    stdin: hookInput({
      hook_event_name: 'SubagentStart',
      agent_id: 'agent-bench',
      agent_type: 'general-purpose',
    }),
    check: noChange('no context kept'),
  },
  {
    name: 'retrieval, offline judge (example repository)',
    args: [
      'Fix the authentication token expiry bug',
      '--root',
      example,
      '--judge',
      'heuristic',
      '--format',
      'paths',
      '--no-history',
    ],
    check: (result) => expect(result.code === 0 && result.stdout.includes('src/'), 'files', result),
  },
  {
    name: 'hook: PreToolUse on the example repository, searching itself (stored index)',
    args: ['hook', '--cache-dir', cacheDirectory],
    extraEnv: { LOG_LEVEL: 'info' },
    stdin: subagentLaunch(),
    check: (result) =>
      expect(
        result.stdout.includes('updatedInput') && !result.stderr.includes('resident process'),
        'context, found by the hook',
        result,
      ),
  },
  {
    name: 'hook: PreToolUse on the example repository, answered by the MCP server (`--resident`)',
    args: ['hook', '--cache-dir', cacheDirectory, '--resident'],
    extraEnv: { LOG_LEVEL: 'info' },
    stdin: subagentLaunch(),
    check: (result) =>
      expect(
        result.stdout.includes('updatedInput') &&
          result.stderr.includes('answered by the resident process'),
        'context, from the MCP server',
        result,
      ),
  },
  {
    name: '`mcp`: `initialize`, then end of input',
    args: ['mcp', '--root', example],
    stdin: `${JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'bench', version: '0' },
      },
    })}\n`,
    check: (result) =>
      expect(result.code === 0 && result.stdout.includes('"serverInfo"'), 'serverInfo', result),
  },
];

const launch = (args: string[], stdin = '', extraEnv: Record<string, string> = {}) =>
  runTimed(process.execPath, args, { stdin, cwd: store, env: { ...env, ...extraEnv } });

/**
 * The MCP server a Claude Code session runs beside its hooks, on the example repository, serving
 * its socket: it has read the repository once the socket is there (it reads it at once in a git
 * work tree; elsewhere at the first launch, the warm-up round's).
 */
async function startMcpServer() {
  const server = spawn(
    process.execPath,
    [cli, 'mcp', '--root', example, '--cache-dir', cacheDirectory],
    {
      cwd: store,
      env,
      stdio: ['pipe', 'ignore', 'ignore'],
    },
  );
  const socket = residentSocketOf(cacheDirectory, example) ?? '';
  for (let wait = 0; wait < 600 && !existsSync(socket); wait++)
    await new Promise((resolve) => setTimeout(resolve, 50));
  if (!existsSync(socket)) throw new Error('the MCP server serves no socket for the hooks');
  return {
    async stop() {
      const exited = new Promise((resolve) => server.once('exit', resolve));
      server.stdin.end();
      await exited;
    },
  };
}

const samples = PATHS.map(() => ({ reference: [] as number[], path: [] as number[] }));
let mcpServer: Awaited<ReturnType<typeof startMcpServer>> | undefined;
try {
  mcpServer = await startMcpServer();
  for (let round = 0; round <= runs; round += 1) {
    for (const [index, path] of PATHS.entries()) {
      const reference = await launch(['-e', '0']);
      const result = await launch([cli, ...path.args], path.stdin, path.extraEnv);
      path.check(result);
      // Round 0 warms the file cache and is not counted.
      if (round === 0) continue;
      samples[index]?.reference.push(reference.ms);
      samples[index]?.path.push(result.ms);
    }
    if (round > 0) process.stderr.write(`round ${round}/${runs}\n`);
  }
} finally {
  await mcpServer?.stop();
  await rm(store, { recursive: true, force: true });
}

const milliseconds = (value: number) => `${Math.round(value)} ms`;
const rows = PATHS.map((path, index) => {
  const { reference, path: measured } = samples[index] ?? { reference: [], path: [] };
  const ratio = median(measured) / median(reference);
  return `| ${path.name} | ${milliseconds(median(measured))} | ${milliseconds(median(reference))} | ${ratio.toFixed(2)}× |`;
});
console.log(
  [
    `Node ${process.version}, ${runs} rounds, \`${values.cli}\`, clean environment (PATH, a temporary hook store and cache directory, an MCP server on the example), medians:`,
    '',
    '| launch path | median | `node -e 0`, same rounds | ratio |',
    '| --- | --- | --- | --- |',
    ...rows,
  ].join('\n'),
);
