import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';

/** A command the benchmarks time as a whole process, from its start to its exit. */

export interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
  /** Peak resident memory in KiB, when asked for and /usr/bin/time measured it. */
  peakKib?: number | undefined;
}

export interface TimedOptions {
  /** What the command reads on standard input (default: nothing). */
  stdin?: string;
  env?: Record<string, string>;
  cwd?: string;
  /** Run it through /usr/bin/time, when there is one, for its peak memory. */
  peak?: boolean;
}

const TIME = '/usr/bin/time';
const hasTime = existsSync(TIME);

export function runTimed(
  command: string,
  args: readonly string[],
  options: TimedOptions = {},
): Promise<Finished> {
  const throughTime = options.peak === true && hasTime;
  const [file, fullArgs] = throughTime
    ? [TIME, ['-f', 'peak-kib=%M', command, ...args]]
    : [command, [...args]];
  return new Promise((done, fail) => {
    const started = process.hrtime.bigint();
    const child = spawn(file, fullArgs, {
      cwd: options.cwd,
      env: options.env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    child.on('error', fail);
    child.on('close', (code) => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const errors = Buffer.concat(stderr).toString();
      const peak = throughTime ? /peak-kib=(\d+)\s*$/.exec(errors) : null;
      done({
        code,
        stdout: Buffer.concat(stdout).toString(),
        stderr: errors,
        ms,
        peakKib: peak ? Number(peak[1]) : undefined,
      });
    });
    // A command that exits without reading all of its input closes the pipe: its exit code
    // says how it went, and the failed write (EPIPE) is no reason to crash the benchmark.
    child.stdin.on('error', () => {});
    child.stdin.end(options.stdin ?? '');
  });
}
