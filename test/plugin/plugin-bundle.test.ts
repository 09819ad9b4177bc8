import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cp, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXAMPLE, preToolUse, TASK } from '../hooks/hook-runner.js';
import { runNode } from '../support/run-process.js';
import { createTempTree, removeTempTrees } from '../support/temp-tree.js';

/**
 * The directory the marketplace installs (`npm run build:plugin`), built into a temporary
 * directory outside the repository and run from there, where no node_modules can be found: what
 * Claude Code copies into its plugin cache must carry everything it runs, and nothing more.
 */

const REPOSITORY = join(import.meta.dirname, '../..');
const ENTRY = 'dist/bin/main.js';
/** The clone with its node_modules weighed 199 MB in the plugin cache; the bundle about 2 MB. */
const MOST_BYTES = 10 * 1024 * 1024;

/** Nothing from the developer's shell: no key, no proxy, no log level. */
const run = (
  args: string[],
  options: { cwd: string; stdin?: string; env?: Record<string, string> },
) => runNode(args, { ...options, env: { PATH: process.env.PATH ?? '', ...options.env } });

async function filesUnder(directory: string): Promise<string[]> {
  const entries = await readdir(directory, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(directory, join(entry.parentPath, entry.name)));
}

let plugin: string;
/** Where the plugin runs: a directory of its own, with nothing to resolve packages from. */
let elsewhere: string;

/** A Messages API that refuses the key: a run must have read its prompts to get this far. */
let server: Server;
let requests: string[] = [];

/** A run of `entry` with the Claude judge against `server`: the bodies of the requests it made. */
async function refusedClaudeRun(entry: string): Promise<string[]> {
  requests = [];
  const { port } = server.address() as AddressInfo;
  const refused = await run(
    [entry, TASK, '--root', EXAMPLE, '--judge', 'claude', '--format', 'paths'],
    {
      cwd: elsewhere,
      env: { ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: `http://127.0.0.1:${port}` },
    },
  );
  // Exit 4: the judge was refused; a missing prompt would have been exit 2 before any call.
  expect(refused.code, refused.stderr).toBe(4);
  expect(requests.length).toBeGreaterThan(0);
  return requests;
}

beforeAll(async () => {
  plugin = join(await createTempTree({}), 'plugin');
  elsewhere = await createTempTree({});
  const built = await run(['--import', 'tsx', 'scripts/build-plugin.ts', '--out', plugin], {
    cwd: REPOSITORY,
  });
  expect(built.code, built.stderr).toBe(0);
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      requests.push(body);
      response.writeHead(401, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          type: 'error',
          error: { type: 'authentication_error', message: 'invalid x-api-key' },
        }),
      );
    });
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
}, 120_000);
afterAll(async () => {
  await new Promise<void>((closed) => server.close(() => closed()));
  await removeTempTrees();
});

// Each test starts the bundle in a process of its own.
describe('the built plugin directory', { timeout: 60_000 }, () => {
  it('holds no node_modules and declares nothing to install', async () => {
    const files = await filesUnder(plugin);
    expect(files.filter((path) => path.split('/').includes('node_modules'))).toEqual([]);
    const manifest = JSON.parse(await readFile(join(plugin, 'package.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    for (const field of [
      'dependencies',
      'devDependencies',
      'optionalDependencies',
      'peerDependencies',
    ])
      expect(manifest).not.toHaveProperty(field);
    const sizes = await Promise.all(
      files.map(async (path) => (await stat(join(plugin, path))).size),
    );
    expect(sizes.reduce((sum, size) => sum + size, 0)).toBeLessThan(MOST_BYTES);
  });

  it('has every file its hooks, MCP server, agent and skills run', async () => {
    const files = new Set(await filesUnder(plugin));
    for (const path of [
      '.claude-plugin/plugin.json',
      'hooks/hooks.json',
      '.mcp.json',
      'agents/context-scout.md',
      'skills/iterative-retrieval/SKILL.md',
      ENTRY,
      'dist/prompts/evaluate.md',
      'dist/grammars/tree-sitter.wasm.br',
      'dist/grammars/tree-sitter-python.wasm.br',
    ])
      expect(files).toContain(path);
    for (const path of ['hooks/hooks.json', '.mcp.json', 'agents/context-scout.md']) {
      const text = await readFile(join(plugin, path), 'utf8');
      const referenced = [...text.matchAll(/\$\{CLAUDE_PLUGIN_ROOT\}\/([\w./-]+)/g)];
      expect(referenced.length).toBeGreaterThan(0);
      for (const [, file] of referenced) expect(files, `${path} runs ${file}`).toContain(file);
    }
  });

  it('answers --version with the package version', async () => {
    const { version } = JSON.parse(await readFile(join(REPOSITORY, 'package.json'), 'utf8')) as {
      version: string;
    };
    const answered = await run([join(plugin, ENTRY), '--version'], { cwd: elsewhere });
    expect(answered).toMatchObject({ code: 0, stdout: `${version}\n` });
  });

  it('runs a retrieval with the offline judge', async () => {
    const found = await run(
      [join(plugin, ENTRY), TASK, '--root', EXAMPLE, '--judge', 'heuristic', '--format', 'paths'],
      { cwd: elsewhere },
    );
    expect(found.code, found.stderr).toBe(0);
    expect(found.stdout.split('\n')).toContain('src/auth/tokens.ts');
  });

  it('parses with the grammars it ships: excerpts show whole functions', async () => {
    const found = await run(
      [join(plugin, ENTRY), TASK, '--root', EXAMPLE, '--judge', 'heuristic', '--format', 'json'],
      { cwd: elsewhere },
    );
    expect(found.code, found.stderr).toBe(0);
    const pack = JSON.parse(found.stdout) as {
      files: { path: string; lineRanges: [number, number][] }[];
    };
    const tokens = pack.files.find((file) => file.path === 'src/auth/tokens.ts');
    const lines = (await readFile(join(EXAMPLE, 'src/auth/tokens.ts'), 'utf8')).split('\n');
    const whole = tokens?.lineRanges.filter(
      ([start, end]) => /^export function/.test(lines[start - 1] ?? '') && lines[end - 1] === '}',
    );
    expect(whole?.length).toBeGreaterThan(0);
  });

  it('hands a subagent its context as a hook, secrets redacted', async () => {
    // Fake secrets, assembled at run time so that no scanner mistakes this file for a leak.
    const token = ['ghp_', 'R4nd0mT0k3nV4lu3F0rT3st1ngOnlyXyZ12'].join('');
    const repository = await createTempTree({
      'src/billing/invoice-total.ts': [
        `const githubToken = '${token}';`,
        'export function invoiceTotal(lines: { amount: number }[]): number {',
        '  return Math.round(lines.reduce((sum, line) => sum + line.amount, 0) * 100) / 100;',
        '}',
      ].join('\n'),
      'src/billing/README.md': 'Billing: invoices and their totals.\n',
    });
    const input = preToolUse(
      { description: 'Fix rounding', prompt: 'Fix the rounding of the invoice total' },
      { cwd: repository },
    );
    const answered = await run([join(plugin, ENTRY), 'hook', '--judge', 'heuristic'], {
      cwd: elsewhere,
      stdin: JSON.stringify(input),
      env: { RETRIEVAL_HOOK_STORE: join(elsewhere, 'store') },
    });
    expect(answered.code).toBe(0);
    expect(answered.stderr).toContain('context added to the prompt');
    const prompt = (
      JSON.parse(answered.stdout) as {
        hookSpecificOutput: { updatedInput: { prompt: string } };
      }
    ).hookSpecificOutput.updatedInput.prompt;
    expect(prompt).toContain('src/billing/invoice-total.ts');
    expect(prompt).toContain('export function invoiceTotal');
    expect(prompt).not.toContain(token);
  });

  it('starts the MCP server and answers initialize', async () => {
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'plugin-test', version: '0' },
      },
    };
    const served = await run([join(plugin, ENTRY), 'mcp', '--root', EXAMPLE], {
      cwd: elsewhere,
      stdin: `${JSON.stringify(initialize)}\n`,
    });
    expect(served.code).toBe(0);
    const reply = JSON.parse(served.stdout.split('\n')[0] ?? '') as {
      id: number;
      result: { serverInfo: { name: string } };
    };
    expect(reply).toMatchObject({ id: 1, result: { serverInfo: { name: 'iterative-retrieval' } } });
  });

  it('reads its prompts from the bundle and calls the API through the bundled SDK', async () => {
    const sent = await refusedClaudeRun(join(plugin, ENTRY));
    const initialQuery = await readFile(join(REPOSITORY, 'prompts/initial-query.md'), 'utf8');
    const firstLine = initialQuery.split('\n').find((line) => line.trim().length > 20) ?? '';
    expect(sent.join('\n')).toContain(JSON.stringify(firstLine.trim()).slice(1, -1));
  });
});

/**
 * The package's `bin` (`dist/bin/`, scripts/bundle-cli.ts), bundled into a copy of the package
 * outside the repository: it reads the version and the prompts of the package it is in, the
 * prompts as they are now, so that a prompt tuned in `prompts/` takes effect without a build.
 */
describe('the CLI bundle the package runs', { timeout: 60_000 }, () => {
  let entry: string;
  const MARKER = 'A line added to the prompt after the bundle was built.';

  beforeAll(async () => {
    const copy = join(await createTempTree({}), 'package');
    const built = await run(
      ['--import', 'tsx', 'scripts/bundle-cli.ts', '--out', join(copy, 'dist/bin')],
      { cwd: REPOSITORY },
    );
    expect(built.code, built.stderr).toBe(0);
    await cp(join(REPOSITORY, 'package.json'), join(copy, 'package.json'));
    await cp(join(REPOSITORY, 'prompts'), join(copy, 'prompts'), { recursive: true });
    const initialQuery = join(copy, 'prompts/initial-query.md');
    await writeFile(initialQuery, `${MARKER}\n${await readFile(initialQuery, 'utf8')}`);
    entry = join(copy, 'dist/bin/main.js');
  }, 120_000);

  it('answers --version with the package version', async () => {
    const { version } = JSON.parse(await readFile(join(REPOSITORY, 'package.json'), 'utf8')) as {
      version: string;
    };
    expect(await run([entry, '--version'], { cwd: elsewhere })).toMatchObject({
      code: 0,
      stdout: `${version}\n`,
    });
  });

  it('runs a retrieval with the offline judge', async () => {
    const found = await run(
      [entry, TASK, '--root', EXAMPLE, '--judge', 'heuristic', '--format', 'paths'],
      { cwd: elsewhere },
    );
    expect(found.code, found.stderr).toBe(0);
    expect(found.stdout.split('\n')).toContain('src/auth/tokens.ts');
  });

  it("sends the package's prompts as they are now", async () => {
    expect((await refusedClaudeRun(entry)).join('\n')).toContain(MARKER);
  });
});
