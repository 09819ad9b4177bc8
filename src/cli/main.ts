#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { text } from 'node:stream/consumers';
import { runCli } from './run-cli.js';

// The only module that touches `process`: arguments, environment, streams, signals, exit code.
const controller = new AbortController();
let interrupts = 0;
process.on('SIGINT', () => {
  // The first Ctrl-C asks for the best context so far; a second one leaves at once.
  if (++interrupts > 1) process.exit(130);
  controller.abort();
});

const manifest = JSON.parse(
  readFileSync(new URL('../../package.json', import.meta.url), 'utf8'),
) as { version: string };

process.exitCode = await runCli({
  argv: process.argv.slice(2),
  env: process.env,
  stdout: process.stdout,
  stderr: process.stderr,
  readStdin: async () => (process.stdin.isTTY ? undefined : await text(process.stdin)),
  version: manifest.version,
  signal: controller.signal,
  streams: { input: process.stdin, output: process.stdout },
});
