import { spawn } from 'node:child_process';

/** The library's only way of running git. */

export interface GitOutput {
  /** What git printed, at most `maxBytes` of it. */
  stdout: Buffer;
  /** The start of what git said on stderr. */
  stderr: string;
  /** The exit code; null when git was stopped (output cut, or the run aborted). */
  code: number | null;
  /** True when the output passed `maxBytes` and git was stopped there. */
  cut: boolean;
  /** True when git could not be started (not installed) or the run stopped it. */
  missing: boolean;
}

export interface RunGitOptions {
  maxBytes: number;
  signal?: AbortSignal | undefined;
}

const STDERR_CHARACTERS = 2000;

/**
 * Runs `git` with `args` and collects at most `maxBytes` of its output: past that, git is stopped
 * and `cut` is set. Never rejects; a missing git, or an aborted run, gives `missing`.
 */
export function runGit(args: readonly string[], options: RunGitOptions): Promise<GitOutput> {
  return new Promise((resolve) => {
    const stdout: Buffer[] = [];
    let stderr = '';
    let size = 0;
    let cut = false;
    const child = spawn('git', args, {
      signal: options.signal,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.on('data', (chunk: Buffer) => {
      if (cut) return;
      size += chunk.length;
      if (size > options.maxBytes) {
        cut = true;
        stdout.push(chunk.subarray(0, chunk.length - (size - options.maxBytes)));
        child.kill();
      } else stdout.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < STDERR_CHARACTERS) stderr += chunk.toString('utf8');
    });
    let settled = false;
    const finish = (output: Omit<GitOutput, 'stdout' | 'stderr' | 'cut'>) => {
      if (!settled) resolve({ ...output, stdout: Buffer.concat(stdout), stderr, cut });
      settled = true;
    };
    child.on('error', () => finish({ code: null, missing: true }));
    child.on('close', (code) => finish({ code, missing: false }));
  });
}
