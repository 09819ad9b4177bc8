import { access, mkdir } from 'node:fs/promises';
import { createServer } from 'node:net';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { residentRunFor } from '../../src/cli/resident-run.js';
import { settleCliArguments } from '../../src/cli/flag-values.js';
import { readCommandLine } from '../../src/cli/args.js';
import type { CliIo } from '../../src/cli/cli-io.js';
import { runCli } from '../../src/cli/run-cli.js';
import { residentSocketOf } from '../../src/file-system/index-store.js';
import { preToolUse } from '../hooks/hook-runner.js';
import { exampleCopy } from '../support/example-copy.js';
import { offlineEnvironment, runNode } from '../support/run-process.js';
import { answeringSocket, untilServed } from '../support/socket.js';
import { removeTempTrees } from '../support/temp-tree.js';
import { runInProcess } from './run-in-process.js';

/** `--resident`: runs handed to a process that keeps the repository in memory (src/resident/). */

const TASK = 'Fix the authentication token expiry bug';
/** Resident processes (and sockets) run in this process: each is stopped, and waited for, after its test. */
const residents: { stop: AbortController; ended: Promise<unknown> }[] = [];

afterEach(async () => {
  const stopping = residents.splice(0);
  for (const { stop } of stopping) stop.abort();
  // A process still writing its index would race the removal of its cache directory.
  await Promise.all(stopping.map(({ ended }) => ended));
  await removeTempTrees();
});

/** A run of the task on `root` with `--resident`, and `more` flags. */
const withResident = (root: string, cacheDirectory: string, ...more: string[]) => [
  TASK,
  '--root',
  root,
  '--cache-dir',
  cacheDirectory,
  '--resident',
  ...more,
];

interface Started {
  argv: readonly string[];
  input: string | undefined;
  lowPriority?: boolean | undefined;
}

/** Runs `resident` in this process, as the background process would, until the test ends. */
function serveInProcess(started: Started) {
  const stop = new AbortController();
  const ended = runInProcess([...started.argv], { stdin: started.input, signal: stop.signal });
  residents.push({ stop, ended });
  return ended;
}

describe('a run with --resident', { timeout: 60_000 }, () => {
  it('starts a resident process after searching itself, and the next run is answered by it with the same files', async () => {
    const { root, cacheDirectory } = await exampleCopy();
    const started: Started[] = [];
    const argv = [TASK, '--root', root, '--cache-dir', cacheDirectory, '--format', 'paths'];
    const run = () =>
      runInProcess([...argv, '--resident'], {
        startInBackground: (argv, options) =>
          void started.push({ argv, input: options?.input, lowPriority: options?.lowPriority }),
      });
    const first = await run();
    expect(first.code).toBe(0);
    expect(first.stderr).toContain('no resident process answered: searching here');
    expect(started.map(({ argv }) => argv)).toEqual([
      ['resident', '--root', root, '--cache-dir', cacheDirectory],
    ]);
    // It answers runs a user waits for: at their priority, unlike an index build.
    expect(started[0]?.lowPriority).toBeUndefined();
    const serving = serveInProcess(started[0] as Started);
    await untilServed(residentSocketOf(cacheDirectory, root) ?? '');

    const second = await run();
    expect(second.stderr).toContain('answered by the resident process');
    expect(second.stdout).toBe(first.stdout);
    expect(second.stdout).toBe((await runInProcess([...argv, '--no-cache'])).stdout);
    // Answered: nothing more is started, not even the stored index's build.
    expect(started).toHaveLength(1);

    residents[0]?.stop.abort();
    const ended = await serving;
    expect(ended.code).toBe(0);
    expect(JSON.parse(ended.stdout)).toEqual({ root, stopped: 'signal' });
  });

  it('searches itself when the process there cannot answer, and says why', async () => {
    const { root, cacheDirectory } = await exampleAnswered('not a pack\n');
    const argv = [TASK, '--root', root, '--cache-dir', cacheDirectory, '--format', 'paths'];
    const run = await runInProcess([...argv, '--resident']);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('"reason":"an answer that is not JSON"');
    expect(run.stdout).toBe((await runInProcess([...argv, '--no-cache'])).stdout);
  });

  it('waits half its --timeout for a process that never answers, and searches in the other half', async () => {
    const { root, cacheDirectory } = await exampleAnswered(undefined);
    const run = await runInProcess(withResident(root, cacheDirectory, '--timeout', '6'));
    expect(run.stderr).toContain('no answer within 3000 ms');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('src/auth/tokens.ts');
  });

  it('asks the process to end its run a little before the --timeout, so that its answer arrives in time', async () => {
    const { root, cacheDirectory } = await exampleCopy();
    await mkdir(cacheDirectory, { recursive: true, mode: 0o700 });
    const requests: { options: { timeoutSeconds?: number } }[] = [];
    const server = createServer((socket) =>
      socket.once('data', (chunk: Buffer) => {
        requests.push(JSON.parse(chunk.toString('utf8')) as (typeof requests)[number]);
        socket.end('{"refused":"recorded"}\n');
      }),
    );
    await new Promise<void>((resolve) =>
      server.listen(residentSocketOf(cacheDirectory, root) ?? '', resolve),
    );
    try {
      await runInProcess(withResident(root, cacheDirectory, '--timeout', '10'));
    } finally {
      server.close();
    }
    // It waits half the --timeout: the process's run ends half a second before that.
    expect(requests.map((request) => request.options.timeoutSeconds)).toEqual([4.5]);
  });

  it.each([
    ['with --no-cache', ['--no-cache'], {}],
    ['with the Claude judge', [], { ANTHROPIC_API_KEY: 'sk-ant-test' }],
  ])('has no resident process %s', async (_, flags, env) => {
    const { root, cacheDirectory } = await exampleCopy();
    const args = settleCliArguments(readCommandLine(withResident(root, cacheDirectory, ...flags)));
    const io = { env, version: '1' } as unknown as CliIo;
    expect(await residentRunFor(io, args, root, pino({ level: 'silent' }))).toBeUndefined();
  });

  it('has the hook wait half its search time for a process that never answers, and search in the rest', async () => {
    const { root, cacheDirectory } = await exampleAnswered(undefined);
    const { stdout, stderr } = await hookWithResident(root, cacheDirectory, ['--timeout', '6']);
    expect(stderr).toMatch(/no answer within 2\d{3}(\.\d+)? ms/);
    expect(JSON.parse(stdout)).toHaveProperty('hookSpecificOutput');
  });

  it('hands the hook’s search over too', async () => {
    const { root, cacheDirectory } = await exampleCopy();
    const started: Started[] = [];
    const hook = () => hookWithResident(root, cacheDirectory, [], started);
    const first = await hook();
    expect(started).toHaveLength(1);
    void serveInProcess(started[0] as Started);
    await untilServed(residentSocketOf(cacheDirectory, root) ?? '');
    const second = await hook();
    expect(second.stderr).toContain('answered by the resident process');
    expect(second.stdout).toBe(first.stdout);
    expect(JSON.parse(second.stdout)).toHaveProperty('hookSpecificOutput');
  });
});

/** The hook with `--resident` on a subagent launch in `root`; what it would start, in `started`. */
async function hookWithResident(
  root: string,
  cacheDirectory: string,
  flags: string[],
  started: Started[] = [],
) {
  let stdout = '';
  let stderr = '';
  await runCli({
    argv: ['hook', '--resident', '--cache-dir', cacheDirectory, ...flags],
    env: { RETRIEVAL_HOOK_STORE: `${cacheDirectory}-hooks`, LOG_LEVEL: 'info' },
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    readStdin: async () =>
      JSON.stringify(
        preToolUse(
          { description: 'Fix expiry', prompt: TASK, subagent_type: 'general-purpose' },
          { cwd: root },
        ),
      ),
    // The build of `serveInProcess`'s resident process (./run-in-process.ts).
    version: '9.9.9',
    startInBackground: (argv, options) => void started.push({ argv, input: options?.input }),
  });
  return { stdout, stderr };
}

describe('the resident command', () => {
  it.each([
    ['no cache directory', ['--no-cache'], {}, undefined, /`resident` needs a cache directory/],
    [
      'an idle time that is not a number',
      [],
      { RETRIEVAL_RESIDENT_IDLE_SECONDS: 'soon' },
      undefined,
      /RETRIEVAL_RESIDENT_IDLE_SECONDS must be a number of seconds/,
    ],
    ['options that are not JSON', [], {}, '{oops', /reads a JSON object of options/],
  ])('refuses %s with one line and exit 2', async (_, flags, env, stdin, message) => {
    const { root, cacheDirectory } = await exampleCopy();
    const run = await runInProcess(
      ['resident', '--root', root, '--cache-dir', cacheDirectory, ...flags],
      { env, stdin },
    );
    expect(run.code).toBe(2);
    expect(run.lines[0]).toMatch(message);
  });

  it(
    'runs in a process that outlives the run, answers the next one, and stops once idle',
    { timeout: 120_000 },
    async () => {
      const { root, cacheDirectory } = await exampleCopy();
      const env = {
        ...offlineEnvironment(),
        RETRIEVAL_CACHE_DIR: cacheDirectory,
        RETRIEVAL_RESIDENT_IDLE_SECONDS: '4',
        LOG_LEVEL: 'info',
      };
      const cli = ['--import', 'tsx', 'src/cli/main.ts', TASK, '--root', root];
      const run = () =>
        runNode([...cli, '--format', 'paths', '--resident'], {
          cwd: process.cwd(),
          env,
          killAfterMs: 60_000,
        });
      const first = await run();
      expect(first.code).toBe(0);
      const socket = residentSocketOf(cacheDirectory, root) ?? '';
      await untilServed(socket);
      const second = await run();
      expect(second.stderr).toContain('answered by the resident process');
      expect(second.stdout).toBe(first.stdout);
      // Idle for 4 s, it stops and takes its socket with it.
      let gone = false;
      for (let waited = 0; waited < 120 && !gone; waited++) {
        await new Promise((resolve) => setTimeout(resolve, 250));
        gone = await access(socket).then(
          () => false,
          () => true,
        );
      }
      expect(gone).toBe(true);
    },
  );
});

/** A copy of the example whose resident process's socket answers each run with `answer`. */
async function exampleAnswered(answer: string | undefined) {
  const copy = await exampleCopy();
  await mkdir(copy.cacheDirectory, { recursive: true, mode: 0o700 });
  const stop = new AbortController();
  residents.push({ stop, ended: Promise.resolve() });
  await answeringSocket(
    residentSocketOf(copy.cacheDirectory, copy.root) ?? '',
    answer,
    stop.signal,
  );
  return copy;
}
