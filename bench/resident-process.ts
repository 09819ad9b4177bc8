import { readdir, readFile } from 'node:fs/promises';
import { peakKibOf } from './mcp-session.js';
import { runTimed, type Finished } from './timed-process.js';

/**
 * The CLI with `--resident`, as a hook or an orchestrator runs it before each subagent: a new
 * task each time, answered by the process the first run started (src/resident/), which keeps
 * the tree in memory.
 */

/** Tasks unlike the cold run's, so that a timed run's keywords are searched anew. */
export const NEW_TASKS = [
  'Parsing a date with a timezone offset gives the wrong hour',
  'The progress bar flickers when the terminal is resized',
  'Add a retry with backoff when the HTTP request times out',
];

export interface ResidentRun {
  finished: Finished;
  stdout: string;
  /** Whether the resident process answered, rather than the run searching itself. */
  answered: boolean;
}

/** `command` run with `--resident` on `tree`, its index and socket in `cacheDirectory`. */
export async function residentRun(
  command: readonly string[],
  tree: string,
  cacheDirectory: string,
  task: string,
): Promise<ResidentRun> {
  const [file = '', ...prefix] = command;
  const args = [task, '--root', tree, '--judge', 'heuristic', '--format', 'json'];
  const finished = await runTimed(
    file,
    [...prefix, ...args, '--cache-dir', cacheDirectory, '--resident'],
    { peak: true, env: { ...(process.env as Record<string, string>), LOG_LEVEL: 'info' } },
  );
  // Exit 1 is an answer too: nothing relevant found (a tiny tree, a task it does not touch).
  if (finished.code !== 0 && finished.code !== 1)
    throw new Error(`the CLI failed (exit ${finished.code}) on ${tree}: ${finished.stderr}`);
  return {
    finished,
    stdout: finished.stdout,
    answered: finished.stderr.includes('answered by the resident process'),
  };
}

/** Runs until the resident process on `tree` answers (the first run starts it): at most `tries`. */
export async function untilResident(
  command: readonly string[],
  tree: string,
  cacheDirectory: string,
  tries = 300,
): Promise<void> {
  for (let attempt = 0; attempt < tries; attempt++) {
    const [task = ''] = NEW_TASKS;
    if ((await residentRun(command, tree, cacheDirectory, task)).answered) return;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  throw new Error(`no resident process answered on ${tree}`);
}

/** The peak resident memory (KiB, Linux) of the resident process serving `tree`, if running. */
export async function residentPeakKib(tree: string): Promise<number | undefined> {
  const pids = (await readdir('/proc').catch(() => [])).filter((name) => /^\d+$/.test(name));
  for (const pid of pids) {
    const argv = (await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '')).split('\0');
    const at = argv.indexOf('resident');
    if (at !== -1 && argv[at + 1] === '--root' && argv[at + 2] === tree)
      return await peakKibOf(Number(pid));
  }
  return undefined;
}
