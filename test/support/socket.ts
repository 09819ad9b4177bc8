import { createConnection, createServer } from 'node:net';

/** Waits until something accepts connections on the Unix socket at `path` (at most 10 s). */
export async function untilServed(path: string): Promise<void> {
  for (let attempt = 0; attempt < 400; attempt++) {
    const up = await new Promise<boolean>((resolve) => {
      const probe = createConnection(path);
      probe.once('connect', () => (probe.destroy(), resolve(true)));
      probe.once('error', () => resolve(false));
    });
    if (up) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`nothing serves ${path}`);
}

/**
 * A stand-in for a resident process: a server on the Unix socket at `path` that answers each
 * connection's first data with `answer` (nothing, when undefined), until `signal` aborts.
 */
export async function answeringSocket(
  path: string,
  answer: string | undefined,
  signal: AbortSignal,
): Promise<void> {
  const server = createServer((socket) =>
    socket.once('data', () => (answer === undefined ? undefined : socket.end(answer))),
  );
  await new Promise<void>((resolve) => server.listen(path, resolve));
  signal.addEventListener('abort', () => server.close());
}
