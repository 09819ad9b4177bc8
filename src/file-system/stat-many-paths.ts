import { availableParallelism } from 'node:os';
import { runWorkerTask } from './worker-task.js';

/**
 * `lstat` of many paths by worker threads, for the listing's sizes and kinds: a file of its own
 * because it runs in workers. Asynchronous `lstat` is a round trip through libuv's thread pool
 * per path, about three times the cost of the call itself over a 50k-file listing; the workers
 * make the calls synchronously while the main thread stays free for its timers, so a deadline
 * still holds when a call hangs (a stale network mount).
 */

// Plain JavaScript with nothing of ours imported: it runs the same from the sources, `dist/` and
// the plugin's bundle.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { lstatSync } = require('node:fs');
const { root, joined, count } = workerData;
// Listed paths are relative and plain (no \`.\` or \`..\` part: git refuses them, a walk makes
// none): joined as text, without path.join's normalising, which took a fifth of the lstats' time.
const prefix = root.endsWith('/') ? root : root + '/';
const kinds = new Uint8Array(count);
const numbers = new Float64Array(count * 5);
// The paths come as one string, each cut out as it is stated: nothing made here outlives its
// call, so the young generation's collections copy next to nothing (an array of the paths was
// copied by each of them).
let start = 0;
for (let index = 0; index < count; index++) {
  const end = joined.indexOf('\\0', start);
  const path = joined.slice(start, end === -1 ? undefined : end);
  start = end + 1;
  let stats;
  try {
    stats = lstatSync(prefix + path, { throwIfNoEntry: false });
  } catch {}
  if (!stats) continue;
  kinds[index] = stats.isFile() ? 1 : stats.isDirectory() ? 2 : 0;
  numbers[index * 5] = stats.size;
  numbers[index * 5 + 1] = stats.dev;
  numbers[index * 5 + 2] = stats.ino;
  numbers[index * 5 + 3] = stats.mtimeMs;
  numbers[index * 5 + 4] = stats.ctimeMs;
}
parentPort.postMessage({ kinds, numbers }, [kinds.buffer, numbers.buffer]);
`;

/** Per path: 0 neither (missing, a link, a device), 1 a regular file, 2 a directory. */
export const NEITHER = 0;
export const REGULAR_FILE = 1;
export const DIRECTORY = 2;
export const NUMBERS_PER_PATH = 5;

export interface PathStats {
  kinds: Uint8Array;
  /** Size, device, inode, modification and change times (ms) of each path, five numbers a path. */
  numbers: Float64Array;
}

/** Paths a worker is worth starting for, and most workers started. */
export const MIN_PATHS_PER_WORKER = 4096;
const MAX_WORKERS = 4;

/**
 * The kind, size, device and inode of each of `paths` under `root`, never following a link, by a
 * worker per core (the calls wait on the kernel, not on each other). Rejects with `signal`'s
 * reason when it aborts, and with a worker's error if one fails.
 */
export async function statManyPaths(
  root: string,
  paths: readonly string[],
  signal?: AbortSignal,
): Promise<PathStats> {
  const workers = Math.max(
    1,
    Math.min(availableParallelism(), MAX_WORKERS, Math.floor(paths.length / MIN_PATHS_PER_WORKER)),
  );
  const share = Math.ceil(paths.length / workers);
  const parts = await Promise.all(
    Array.from({ length: workers }, (_, index) =>
      statInWorker(root, paths.slice(index * share, (index + 1) * share), signal),
    ),
  );
  if (parts.length === 1 && parts[0]) return parts[0];
  const kinds = new Uint8Array(paths.length);
  const numbers = new Float64Array(paths.length * NUMBERS_PER_PATH);
  parts.forEach((part, index) => {
    kinds.set(part.kinds, index * share);
    numbers.set(part.numbers, index * share * NUMBERS_PER_PATH);
  });
  return { kinds, numbers };
}

function statInWorker(
  root: string,
  paths: readonly string[],
  signal: AbortSignal | undefined,
): Promise<PathStats> {
  return runWorkerTask<PathStats>(
    WORKER_SOURCE,
    // A path holds no NUL (the system refuses one).
    { root, joined: paths.join('\0'), count: paths.length },
    'path stater',
    signal,
    (worker, end) => worker.on('message', end.resolve),
  );
}
