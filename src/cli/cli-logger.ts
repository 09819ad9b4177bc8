import { pino, type Logger } from 'pino';
import type { Command } from './args.js';
import { logLevelFrom } from './environment.js';
import type { CliIo } from './cli-io.js';

/**
 * The JSON logs on stderr, so stdout stays clean for output. Run-cli loads this module only for a
 * command that runs: `--help`, `--version` and the hook's quick answers never load pino.
 */
export function createCliLogger(io: CliIo, command: Command, interactive: boolean): Logger {
  // On a terminal a person reads progress lines; elsewhere the JSON logs carry progress.
  return pino(
    {
      // Claude Code shows a hook's or MCP server's stderr as errors: only warnings by default.
      level: logLevelFrom(io.env) ?? (interactive || command !== 'retrieve' ? 'warn' : 'info'),
      base: { name: 'iterative-retrieval' },
    },
    io.stderr,
  );
}
