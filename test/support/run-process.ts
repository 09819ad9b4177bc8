import { spawn } from 'node:child_process';

/** A finished child process: its exit code and everything it wrote. */
export interface ProcessRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Wall time from the spawn to the end, in milliseconds. */
  ms: number;
  /** Killed at `killAfterMs`: it would have run longer. */
  killed: boolean;
}

export interface ProcessOptions {
  cwd: string;
  /** The whole environment of the child: nothing is inherited unless passed here. */
  env: Record<string, string | undefined>;
  /** Written to the child's standard input, which is then closed. */
  stdin?: string;
  /** Killed after this long, so that a child that never ends fails its test instead of hanging it. */
  killAfterMs?: number;
  /** Run as this user and group (when the tests run as root). */
  uid?: number;
  gid?: number;
}

/** Runs `node` with `args` to its end, as Claude Code runs a hook: input piped, output read. */
export function runNode(args: string[], options: ProcessOptions): Promise<ProcessRun> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, args, {
      cwd: options.cwd,
      env: options.env,
      stdio: ['pipe', 'pipe', 'pipe'],
      ...(options.uid !== undefined && { uid: options.uid }),
      ...(options.gid !== undefined && { gid: options.gid }),
    });
    const started = performance.now();
    let stdout = '';
    let stderr = '';
    let killed = false;
    const timer =
      options.killAfterMs === undefined
        ? undefined
        : setTimeout(() => ((killed = true), child.kill('SIGKILL')), options.killAfterMs);
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', fail);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr, ms: performance.now() - started, killed });
    });
    // A child that exits before reading its input closes the pipe; its exit code is the result.
    child.stdin.on('error', () => {});
    child.stdin.end(options.stdin ?? '');
  });
}

/** This process's environment without an Anthropic key: a test never reaches the real API. */
export function offlineEnvironment(): Record<string, string | undefined> {
  const env = { ...process.env };
  delete env.ANTHROPIC_API_KEY;
  return env;
}
