import { describe, expect, it } from 'vitest';
import { runTimed } from '../../bench/timed-process.js';

/** The benchmarks' process runner: a command that ends early is a result, never a crash. */

describe('runTimed', () => {
  it('reports the exit of a command that ends without reading its input', async () => {
    // Megabytes more than a pipe holds: the write fails with EPIPE once `true` has exited.
    const finished = await runTimed('true', [], { stdin: 'x'.repeat(4_000_000) });
    expect(finished.code).toBe(0);
  });

  it('gives a command an empty input unless asked, so one that reads it ends at once', async () => {
    const finished = await runTimed('cat', []);
    expect(finished).toMatchObject({ code: 0, stdout: '' });
  });

  it('passes the input it is given', async () => {
    const finished = await runTimed('cat', [], { stdin: 'hello\n' });
    expect(finished.stdout).toBe('hello\n');
  });

  it('rejects a command that does not exist', async () => {
    await expect(runTimed('no-such-command-for-this-test', [])).rejects.toMatchObject({
      code: 'ENOENT',
    });
  });
});
