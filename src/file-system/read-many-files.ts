import { runWorkerTask } from './worker-task.js';
import { OPEN_FLAGS, type FileBytes, type ListedFile } from './tree.js';

/**
 * Many files of the searched tree, read by a worker thread: a file of its own because it runs in
 * a worker. It makes the checks of `readFileWithin` (./tree.ts):
 * opened without following a link or blocking on a FIFO, only a regular file, only the file the
 * listing saw, at most `maxBytes`. Each asynchronous read is four round trips through libuv's
 * thread pool (open, stat, read, close), and over thousands of small files those round trips,
 * not the disk, were the cost: the worker reads synchronously, ten times faster, while the main
 * thread stays free for its timers, so a deadline still holds when a read hangs (a stale network
 * mount).
 */

// Plain JavaScript with nothing of ours imported: it runs the same from the sources, `dist/` and
// the plugin's bundle.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { openSync, fstatSync, readSync, closeSync } = require('node:fs');
const { root, flags, maxBytes } = workerData;
// Listed paths are relative and plain (no \`.\` or \`..\` part: git refuses them, a walk makes
// none): joined as text, without path.join's normalising, which took a fifth of a listing's lstats.
const prefix = root.endsWith('/') ? root : root + '/';
const CHUNK_BYTES = 64 * 1024;

function joined(chunks, total) {
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  return bytes;
}

function readOne(entry, transfer) {
  let fd;
  try {
    fd = openSync(prefix + entry.path, flags);
  } catch {
    return { skipped: 'unreadable' };
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) return { skipped: 'unreadable' };
    if (entry.identity && (stats.dev !== entry.identity.device || stats.ino !== entry.identity.inode))
      return { skipped: 'unreadable' };
    const chunks = [];
    let total = 0;
    for (;;) {
      // The size is a hint, never trusted: files of /proc say 0 and never end.
      // Past the claim, whole chunks: one byte a call would make a file that grew a crawl.
      const claimed = stats.size + 1 - total;
      const wanted = Math.min(claimed > 0 ? claimed : CHUNK_BYTES, CHUNK_BYTES, maxBytes + 1 - total);
      const chunk = new Uint8Array(wanted);
      const read = readSync(fd, chunk, 0, wanted, null);
      if (read === 0) break;
      chunks.push(read === wanted ? chunk : chunk.subarray(0, read));
      total += read;
      if (total > maxBytes) return { skipped: 'too-large' };
    }
    // A file read whole in one chunk, as most are, is sent as it is, not copied.
    const bytes = chunks.length === 1 ? chunks[0] : joined(chunks, total);
    transfer.push(bytes.buffer);
    return { bytes };
  } catch {
    return { skipped: 'unreadable' };
  } finally {
    try {
      closeSync(fd);
    } catch {}
  }
}

parentPort.on('message', (batch) => {
  const transfer = [];
  const results = batch.map((entry) => readOne(entry, transfer));
  parentPort.postMessage(results, transfer);
});
`;

/** Files per message, and messages in flight: the worker runs ahead, but not by the whole tree. */
const BATCH_FILES = 64;
const BATCHES_AHEAD = 4;

type WorkerAnswer = { bytes: Uint8Array } | { skipped: 'too-large' | 'unreadable' };

/**
 * Reads `entries` in order, handing each to `onFile` as it arrives (the caller analyses one
 * batch while the worker reads the next). Rejects with `signal`'s reason when it aborts, and
 * with the worker's error if the worker fails.
 */
export function readManyFiles(
  root: string,
  entries: readonly ListedFile[],
  maxBytes: number,
  onFile: (entry: ListedFile, read: FileBytes) => void,
  signal?: AbortSignal,
): Promise<void> {
  if (entries.length === 0) return Promise.resolve();
  return runWorkerTask<void>(
    WORKER_SOURCE,
    { root, flags: OPEN_FLAGS, maxBytes },
    'file reader',
    signal,
    (worker, end) => {
      let sent = 0;
      let received = 0;
      const send = () => {
        if (sent >= entries.length) return;
        const batch = entries.slice(sent, sent + BATCH_FILES);
        sent += batch.length;
        worker.postMessage(batch.map(({ path, identity }) => ({ path, identity })));
      };
      worker.on('message', (answers: WorkerAnswer[]) => {
        try {
          for (const answer of answers) {
            const entry = entries[received++];
            if (!entry) continue;
            const { bytes } = answer as { bytes?: Uint8Array };
            onFile(
              entry,
              bytes
                ? { bytes: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) }
                : (answer as FileBytes),
            );
          }
        } catch (error) {
          return end.reject(error);
        }
        if (received >= entries.length) end.resolve();
        else send();
      });
      for (let batch = 0; batch < BATCHES_AHEAD; batch++) send();
    },
  );
}
