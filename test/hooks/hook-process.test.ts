import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createTempTree, removeTempTrees } from '../support/temp-tree.js';
import { preToolUse, subagentStart, TASK } from './hook-runner.js';

afterEach(removeTempTrees);

const REPOSITORY = join(import.meta.dirname, '../..');

interface ProcessRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `iterative-retrieval hook` as Claude Code does: a process, its input piped to stdin. */
function runHookProcess(stdin: string, env: Record<string, string>): Promise<ProcessRun> {
  // No key from the developer's shell: the offline judge keeps the test off the network.
  const inherited = { ...process.env };
  delete inherited.ANTHROPIC_API_KEY;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'hook'], {
      cwd: REPOSITORY,
      env: { ...inherited, ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.on('error', () => {}); // a hook that exits early closes its input: its code says so
    child.stdin.end(stdin);
  });
}

// Each process compiles the TypeScript sources on start: seconds on a busy machine.
describe('the hook as a process', { timeout: 60_000 }, () => {
  it('exits 0 with exactly one JSON answer on stdout, for both events', async () => {
    const env = {
      RETRIEVAL_HOOK_STORE: join(await createTempTree({}), 'store'),
      RETRIEVAL_HOOK_DELIVERY: 'both',
    };
    const toolInput = { description: 'Fix expiry', prompt: TASK, subagent_type: 'general-purpose' };
    const launched = await runHookProcess(JSON.stringify(preToolUse(toolInput)), env);
    expect(launched.code).toBe(0);
    expect(launched.stdout.endsWith('\n')).toBe(true);
    expect(launched.stdout.trim().split('\n')).toHaveLength(1);
    const answer = JSON.parse(launched.stdout) as {
      hookSpecificOutput: { updatedInput: { prompt: string } };
    };
    expect(answer.hookSpecificOutput.updatedInput.prompt).toContain('src/auth/tokens.ts');
    expect(launched.stderr).toContain('iterative-retrieval: hook: context added to the prompt');

    const started = await runHookProcess(JSON.stringify(subagentStart()), env);
    expect(started.code).toBe(0);
    expect(JSON.parse(started.stdout)).toMatchObject({
      hookSpecificOutput: { hookEventName: 'SubagentStart' },
    });
  });

  it('exits 0 with nothing on stdout for input it cannot read', async () => {
    const env = { RETRIEVAL_HOOK_STORE: join(await createTempTree({}), 'store') };
    const run = await runHookProcess('{"hook_event_name":', env);
    expect(run).toMatchObject({ code: 0, stdout: '' });
    expect(run.stderr).toContain(
      'iterative-retrieval: hook: no change: standard input is not JSON',
    );
  });
});
