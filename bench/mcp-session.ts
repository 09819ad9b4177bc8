import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';

/**
 * The resident case: an MCP server (`iterative-retrieval mcp`) asked twice for the same task, as
 * a client's session asks again and again. The first call reads the tree (or its stored index);
 * the second, on the unchanged tree, is what is timed.
 */

export interface ResidentCall {
  /** The second call, from its request to its answer. */
  ms: number;
  /** The files the second call handed over, best first. */
  files: string[];
  /** The server's peak resident memory over the session, in KiB (Linux), else undefined. */
  peakKib: number | undefined;
}

interface Answer {
  id?: number;
  error?: { message: string };
  result?: { isError?: boolean; structuredContent?: { files: { path: string }[] } };
}

/** VmHWM, the process's peak resident set, from /proc. */
export async function peakKibOf(pid: number | undefined): Promise<number | undefined> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const kib = /^VmHWM:\s+(\d+) kB$/m.exec(status)?.[1];
  return kib === undefined ? undefined : Number(kib);
}

export async function residentCall(
  command: readonly string[],
  root: string,
  cacheDirectory: string,
  task: string,
): Promise<ResidentCall> {
  const [file = '', ...args] = command;
  const server = spawn(file, [...args, 'mcp', '--root', root, '--cache-dir', cacheDirectory], {
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  const exited = new Promise<never>((_, reject) =>
    server.once('exit', (code) =>
      reject(new Error(`the MCP server on ${root} exited (${code}) before answering`)),
    ),
  );
  exited.catch(() => undefined);
  server.stdin.on('error', () => {}); // a server that exits closes its input; `exited` reports it
  const pending = new Map<number, (answer: Answer) => void>();
  createInterface({ input: server.stdout }).on('line', (line) => {
    const answer = JSON.parse(line) as Answer;
    if (answer.id !== undefined) pending.get(answer.id)?.(answer);
  });
  let id = 0;
  const request = (method: string, params: object) =>
    Promise.race([
      exited,
      new Promise<Answer>((resolve) => {
        pending.set(++id, resolve);
        server.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
      }),
    ]);
  const call = async () => {
    const answer = await request('tools/call', {
      name: 'retrieve_context',
      arguments: { task, format: 'json' },
    });
    if (!answer.result || answer.result.isError)
      throw new Error(`retrieve_context failed on ${root}: ${JSON.stringify(answer)}`);
    return answer.result.structuredContent?.files.map((entry) => entry.path) ?? [];
  };
  try {
    await request('initialize', {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'bench', version: '1' },
    });
    server.stdin.write(
      `${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`,
    );
    await call();
    const started = performance.now();
    const files = await call();
    const ms = performance.now() - started;
    return { ms, files, peakKib: await peakKibOf(server.pid) };
  } finally {
    server.stdin.end();
    await exited.catch(() => undefined);
  }
}
