import { Worker } from 'node:worker_threads';

/** How a worker's task ends: with its result, or with an error; the worker is stopped either way. */
export interface TaskEnd<Result> {
  resolve(result: Result): void;
  reject(error: unknown): void;
}

/**
 * A task for a worker thread running `source` (plain JavaScript, evaluated), ended once: by
 * `start`'s own messages, by the worker's error or exit, or by `signal`, whose reason it rejects
 * with. The worker is terminated when the task ends, so an abort never waits on a hung call.
 */
export function runWorkerTask<Result>(
  source: string,
  workerData: unknown,
  name: string,
  signal: AbortSignal | undefined,
  start: (worker: Worker, end: TaskEnd<Result>) => void,
): Promise<Result> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(source, { eval: true, workerData });
    let ended = false;
    const finish = (settle: () => void) => {
      if (ended) return;
      ended = true;
      signal?.removeEventListener('abort', abort);
      // Messages already on their way are not handled: the task is over.
      worker.removeAllListeners('message');
      void worker.terminate();
      settle();
    };
    const end: TaskEnd<Result> = {
      resolve: (result) => finish(() => resolve(result)),
      reject: (error) =>
        finish(() => reject(error instanceof Error ? error : new Error(String(error)))),
    };
    const abort = () => end.reject(signal?.reason ?? new Error('aborted'));
    worker.on('error', end.reject);
    worker.on('exit', (code) => end.reject(new Error(`the ${name} stopped (exit ${code})`)));
    if (signal?.aborted) return abort();
    signal?.addEventListener('abort', abort, { once: true });
    start(worker, end);
  });
}
