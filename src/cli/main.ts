#!/usr/bin/env node
import { spawn } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { setPriority } from 'node:os';
import { setFlagsFromString } from 'node:v8';
import { EXIT_CODES } from './exit-codes.js';
import { readStreamText } from '../file-system/inputs.js';
import { MAX_TASK_BYTES } from '../task-size.js';
import { runCli } from './run-cli.js';

// V8 marks the heap for a full collection on helper threads, which fall behind on a machine whose
// cores the run keeps busy (its reader and partner threads) while the heap grows: in 11 of 64 cold
// runs at 50k files the main heap reached 590 MB, mostly garbage, and the peak RSS 950 MiB
// instead of 570. Marked in steps by the thread that allocates, no run did (0 of 32), at the same
// median time. For the CLI's process and its threads, not the library's.
setFlagsFromString('--no-concurrent-marking');

// The only module that touches `process`: arguments, environment, streams, signals, exit code.
const controller = new AbortController();
let interrupts = 0;
process.on('SIGINT', () => {
  // The first Ctrl-C asks for the best context so far; a second one leaves at once.
  if (++interrupts > 1) process.exit(130);
  controller.abort();
});

// A reader that stops early (`| head -1`, `| true`, an MCP client gone) has taken all it wanted:
// like grep, end quietly with the run's own exit code. Any other failure to write the output
// (a full disk) is one line and exit 3, never a stack trace.
let outputLost = false;
for (const stream of [process.stdout, process.stderr])
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') return;
    outputLost = true;
    process.exitCode = EXIT_CODES.filesystem;
    if (stream === process.stdout)
      process.stderr.write(
        `iterative-retrieval: error: cannot write the output: ${error.message}\n`,
      );
  });

const manifest = JSON.parse(
  readFileSync(new URL('../../package.json', import.meta.url), 'utf8'),
) as { version: string };

const code = await runCli({
  argv: process.argv.slice(2),
  env: process.env,
  stdout: process.stdout,
  stderr: process.stderr,
  readStdin: async () =>
    process.stdin.isTTY
      ? undefined
      : await readStreamText(process.stdin, MAX_TASK_BYTES, 'standard input'),
  version: manifest.version,
  // A rebuilt CLI is another build: a resident process started by the old one does not serve it.
  build: `${manifest.version}+${statSync(new URL(import.meta.url)).mtimeMs}`,
  signal: controller.signal,
  startedAt: performance.timeOrigin,
  streams: { input: process.stdin, output: process.stdout },
  // Detached, with nothing of ours open: it goes on after this process exits, and a hook's
  // caller, waiting for our output to close, never waits for it.
  startInBackground: (argv, { input, lowPriority = false } = {}) => {
    const script = process.argv[1];
    if (script === undefined) return;
    // Node's own flags (a loader, say) but not a debugger's port, which the child cannot share.
    const flags = process.execArgv.filter((flag) => !flag.startsWith('--inspect'));
    const child = spawn(process.execPath, [...flags, script, ...argv], {
      detached: true,
      stdio: [input === undefined ? 'ignore' : 'pipe', 'ignore', 'ignore'],
      env: { ...process.env, LOG_LEVEL: 'silent' },
    }).on('error', () => undefined);
    // A few kilobytes: the pipe holds them after this process exits, until the child reads them.
    child.stdin?.on('error', () => undefined).end(input);
    // Niceness 10 (below normal on Windows).
    if (lowPriority && child.pid !== undefined)
      try {
        setPriority(child.pid, 10);
      } catch {
        // Refused here: it runs at the usual priority.
      }
    child.unref();
  },
});
process.exitCode = outputLost ? EXIT_CODES.filesystem : code;
// The answer is out: nothing left running (a model call given up on, a socket kept alive) may
// hold the process, so a hook ends within its time limit. Written output is flushed first.
await Promise.all(
  [process.stdout, process.stderr].map(
    // A stream already torn down (EPIPE) has nothing left to flush.
    (stream) =>
      new Promise((resolve) => (stream.destroyed ? resolve(undefined) : stream.write('', resolve))),
  ),
);
process.exit();
