import { Worker } from 'node:worker_threads';
import type { FileIdentity } from '../file-system/tree.js';
import type { PartnerFound, StartPartner } from '../repository/read-files.js';
import type { SkippedRead } from '../repository/read-verdict.js';
import type { FileDescription } from '../repository/source-file.js';

/**
 * A partner thread for a large tree read in one run (./partner-worker.ts): it reads part of the
 * tree and holds those files' texts, and searches them for each cycle's keywords while the main
 * thread searches the rest, so that both cores read, analyse and search.
 */

export interface PartnerSetup {
  root: string;
  maxBytes: number;
  /** It holds the texts of files of at most this many bytes, and reads larger ones again. */
  heldUpTo: number;
  entries: { path: string; identity: FileIdentity | undefined }[];
}

export interface PartnerQuestion {
  id: number;
  /** The keywords as written: the partner compiles them as this thread did. */
  keywords: readonly string[];
  /** How many words' verdicts it may keep (./match.ts). */
  forgetBeyond: number;
}

type Described = (FileDescription | { skipped: SkippedRead })[];

export type PartnerAnswer =
  { type: 'read'; files: Described } | { type: 'scanned'; id: number; found: PartnerFound[] };

interface Waiting<Result> {
  resolve(result: Result): void;
  reject(error: Error): void;
}

/** The worker, from the built files; from the sources (the tests), through tsx as they run. */
function startWorker(setup: PartnerSetup): Worker {
  const fromSources = import.meta.url.endsWith('.ts');
  const source = new URL(`./partner-worker.${fromSources ? 'ts' : 'js'}`, import.meta.url);
  if (!fromSources) return new Worker(source, { workerData: setup });
  const start = `import('tsx/esm/api').then(({ register }) => (register(), import(${JSON.stringify(source.href)})));`;
  return new Worker(start, { eval: true, workerData: setup });
}

export const startPartner: StartPartner = (root, entries, { maxBytes, heldUpTo }, signal) => {
  const worker = startWorker({
    root,
    maxBytes,
    heldUpTo,
    entries: entries.map(({ path, identity }) => ({ path, identity })),
  });
  let reading: Waiting<Described> | undefined;
  const read = new Promise<Described>((resolve, reject) => (reading = { resolve, reject }));
  // Heard here too, so that a failure nobody awaits yet is not an unhandled rejection.
  read.catch(() => undefined);
  const scans = new Map<number, Waiting<PartnerFound[]>>();
  let asked = 0;
  let failure: Error | undefined;
  const onAbort = () => fail(signal?.reason ?? new Error('aborted'));
  function fail(error: unknown) {
    if (failure) return;
    failure = error instanceof Error ? error : new Error(String(error));
    reading?.reject(failure);
    reading = undefined;
    for (const waiting of scans.values()) waiting.reject(failure);
    scans.clear();
    signal?.removeEventListener('abort', onAbort);
    worker.removeAllListeners('message');
    void worker.terminate();
  }
  worker.on('message', (answer: PartnerAnswer) => {
    if (answer.type === 'read') {
      reading?.resolve(answer.files);
      reading = undefined;
    } else {
      scans.get(answer.id)?.resolve(answer.found);
      scans.delete(answer.id);
    }
    // Held only while an answer is awaited: an idle partner never keeps the process alive.
    if (reading === undefined && scans.size === 0) worker.unref();
  });
  worker.on('error', fail);
  worker.on('exit', (code) => fail(new Error(`the partner thread stopped (exit ${code})`)));
  if (signal?.aborted) onAbort();
  else signal?.addEventListener('abort', onAbort, { once: true });
  return {
    read,
    scan(keywords, forgetBeyond) {
      if (failure) return Promise.reject(failure);
      const question: PartnerQuestion = { id: ++asked, keywords, forgetBeyond };
      worker.ref();
      worker.postMessage(question);
      return new Promise((resolve, reject) => scans.set(question.id, { resolve, reject }));
    },
    close: () => fail(new Error('the partner thread was let go')),
  };
};
