import type { CliIo } from '../../src/cli/cli-io.js';
import { runCli } from '../../src/cli/run-cli.js';

export interface InProcessRun {
  code: number;
  stdout: string;
  stderr: string;
  /** stderr's lines, without the empty one after the last newline. */
  lines: string[];
}

/**
 * Runs the CLI in-process on strings: `stdin` is what a pipe would hold (undefined: a terminal),
 * `terminal` makes both stdout and stderr terminals. Anything else of `CliIo` can be overridden.
 */
export async function runInProcess(
  argv: string[],
  overrides: Partial<CliIo> & { stdin?: string | undefined; terminal?: boolean } = {},
): Promise<InProcessRun> {
  let stdout = '';
  let stderr = '';
  const { stdin, terminal = false, ...rest } = overrides;
  const code = await runCli({
    argv,
    env: {},
    stdout: { write: (text: string) => (stdout += text), isTTY: terminal },
    stderr: { write: (text: string) => (stderr += text), isTTY: terminal },
    readStdin: async () => stdin,
    version: '9.9.9',
    ...rest,
  });
  return { code, stdout, stderr, lines: stderr.split('\n').filter(Boolean) };
}
