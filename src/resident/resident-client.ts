import { createConnection } from 'node:net';
import { contextPackSchema, type ContextPack } from '../output/context-pack.js';
import {
  MAX_ANSWER_BYTES,
  RESIDENT_PROTOCOL,
  readFirstLine,
  type ResidentRequest,
} from './resident-protocol.js';

/** What asking a resident process came to: its pack, or why there is none (for the logs). */
export type ResidentReply = { pack: ContextPack } | { failed: string };

/**
 * Sends one run to the resident process at `socketPath` (./resident-server.ts) and waits for its
 * pack, at most `waitMs`. Anything else (no process there, a refusal, an answer that is not a
 * pack, the wait running out, `signal`) is a `failed` reply: the caller runs the search itself.
 */
export function askResident(
  socketPath: string,
  request: Omit<ResidentRequest, 'protocol'>,
  { waitMs, signal }: { waitMs: number; signal?: AbortSignal | undefined },
): Promise<ResidentReply> {
  return new Promise((resolve) => {
    const socket = createConnection(socketPath);
    let settled = false;
    const settle = (reply: ResidentReply) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      socket.destroy();
      resolve(reply);
    };
    const timer = setTimeout(() => settle({ failed: `no answer within ${waitMs} ms` }), waitMs);
    const onAbort = () => settle({ failed: 'interrupted' });
    signal?.addEventListener('abort', onAbort, { once: true });
    if (signal?.aborted) return onAbort();
    socket.on('error', (error) => settle({ failed: error.message }));
    socket.on('connect', () => {
      socket.write(`${JSON.stringify({ protocol: RESIDENT_PROTOCOL, ...request })}\n`);
      readFirstLine(socket, MAX_ANSWER_BYTES).then(
        (line) => settle(replyOf(line)),
        (error: unknown) =>
          settle({ failed: error instanceof Error ? error.message : 'no answer' }),
      );
    });
  });
}

function replyOf(line: string): ResidentReply {
  let answer: unknown;
  try {
    answer = JSON.parse(line);
  } catch {
    return { failed: 'an answer that is not JSON' };
  }
  if (typeof answer === 'object' && answer !== null && 'refused' in answer)
    return { failed: `refused: ${String(answer.refused)}` };
  const pack = contextPackSchema.safeParse(
    typeof answer === 'object' && answer !== null && 'pack' in answer ? answer.pack : undefined,
  );
  return pack.success ? { pack: pack.data } : { failed: 'an answer that is not a context pack' };
}
