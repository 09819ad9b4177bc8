import { z } from 'zod';
import { MAX_TASK_BYTES } from '../task-size.js';
import { LineSplitter } from '../mcp/line-splitter.js';

/**
 * What a CLI run and a resident process (./resident-server.ts) say over the process's socket: one
 * request per connection, a line of JSON, answered by one line of JSON. Both sides bound what they
 * read, and a line that is not what they expect ends the exchange, never the process.
 */

/** Changed whenever a request or an answer changes shape. */
export const RESIDENT_PROTOCOL = 1;

export const residentRequestSchema = z.object({
  protocol: z.literal(RESIDENT_PROTOCOL),
  /** The asking CLI's build: a process of another build refuses, and stops (./resident-server.ts). */
  build: z.string(),
  task: z.string(),
  /** The run's library options, as the CLI would pass them to `iterativeRetrieve`. */
  options: z.record(z.string(), z.unknown()),
});
export type ResidentRequest = z.infer<typeof residentRequestSchema>;

/** The run's context pack, or why the process did not run it. */
export type ResidentAnswer = { pack: unknown } | { refused: string };

/** A request holds the task and a few options. */
export const MAX_REQUEST_BYTES = 4 * MAX_TASK_BYTES;
/** A pack holds excerpts of at most a few dozen files. */
export const MAX_ANSWER_BYTES = 64 * 1024 * 1024;

/**
 * The first line `stream` sends, within `maxBytes`; rejects when it ends, closes, fails or runs
 * over first.
 */
export function readFirstLine(stream: NodeJS.ReadableStream, maxBytes: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const lines = new LineSplitter(maxBytes);
    const stop = (settle: () => void) => {
      stream.off('data', onData).off('end', onEnd).off('close', onEnd).off('error', onError);
      settle();
    };
    const onData = (chunk: Buffer) => {
      const [first] = lines.push(chunk);
      if (first?.kind === 'line') stop(() => resolve(first.text));
      else if (first) stop(() => reject(new Error(`a line over ${maxBytes} bytes`)));
    };
    const onEnd = () => stop(() => reject(new Error('the connection ended before a whole line')));
    const onError = (error: Error) => stop(() => reject(error));
    stream.on('data', onData).on('end', onEnd).on('close', onEnd).on('error', onError);
  });
}
