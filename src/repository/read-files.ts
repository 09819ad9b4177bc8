import pLimit from 'p-limit';
import { readFileWithin, type FileBytes, type ListedFile } from '../file-system/tree.js';
import { readManyFiles } from '../file-system/read-many-files.js';
import type { KeywordMatch } from '../contracts/candidate.js';
import type { SkippedRead } from './read-verdict.js';
import type { FileDescription, SourceFile } from './source-file.js';

const READ_CONCURRENCY = 32;
/** Below this many files, starting the reader's worker costs more than it saves. */
const MIN_FILES_FOR_THE_READER = 256;
/**
 * From this many files to read, a partner thread reads and searches half of them. At 9,000 files
 * it saved nothing and held 36 MiB more; at 48,000, a tenth of the run.
 */
export const MIN_FILES_FOR_A_PARTNER = 16_384;

/** A keyword that matched one of the partner's files, or that the file counts for. */
export interface PartnerFound {
  /** The file's place: in the partner's share, or, from a workspace's partner, in the workspace. */
  file: number;
  /** The keyword's place in the question. */
  keyword: number;
  counted: boolean;
  match: KeywordMatch | undefined;
}

/**
 * A thread that reads part of a large tree, holds those files' texts and searches them for each
 * cycle's keywords while this one searches the rest (src/dispatch/partner.ts, started by whoever
 * opens the workspace: searching is the dispatch's).
 */
export interface FilePartner {
  /** What it made of each file of its share, in order. Rejects when it fails or is stopped. */
  read: Promise<(FileDescription | { skipped: SkippedRead })[]>;
  /** Its share searched for these keywords. Rejects when it fails or is stopped. */
  scan(keywords: readonly string[], forgetBeyond: number): Promise<PartnerFound[]>;
  /** Stops it: a workspace that ends lets its partner go. */
  close(): void;
}

export type StartPartner = (
  root: string,
  entries: readonly ListedFile[],
  read: { maxBytes: number; heldUpTo: number },
  signal?: AbortSignal,
) => FilePartner;

/** The partner of a workspace, its files known by their places in the workspace's `files`. */
export interface WorkspacePartner extends Omit<FilePartner, 'read'> {
  /** Whether file `index` of the workspace is the partner's to search. */
  owns(index: number): boolean;
}

export interface FilesRead {
  /** Each file to read, in order: analysed, or undefined where skipped. */
  files: (SourceFile | undefined)[];
  /** With a partner: whether each file to read is the partner's, and its place in its share. */
  partnerShare?: { places: Int32Array; partner: FilePartner };
}

export interface ReadFilesOptions {
  root: string;
  maxBytes: number;
  /**
   * Files of at most this many bytes are held as text (by the partner too); larger ones are read
   * again for each search.
   */
  heldUpTo: number;
  signal: AbortSignal | undefined;
  /** Half the files go to a partner thread when there are `from` or more; never without one. */
  partner: { start: StartPartner; from: number } | undefined;
  analyse(entry: ListedFile, read: FileBytes): SourceFile | undefined;
  /** A file the partner read, as this thread knows it; undefined where it was skipped. */
  describe(
    entry: ListedFile,
    read: FileDescription | { skipped: SkippedRead },
  ): SourceFile | undefined;
  /** The error to throw when `signal` aborts the reading. */
  interrupted(): Error;
}

/** The files of the tree to read, read and analysed: by a worker when many, here when few. */
async function readHere(entries: readonly ListedFile[], options: ReadFilesOptions) {
  const { root, maxBytes, signal, analyse, interrupted } = options;
  const read: (SourceFile | undefined)[] = [];
  if (entries.length >= MIN_FILES_FOR_THE_READER) {
    // The listed size is not trusted: a file may have grown, or claim 0 and never end.
    await readManyFiles(
      root,
      entries,
      maxBytes,
      (entry, bytes) => read.push(analyse(entry, bytes)),
      signal,
    ).catch(() => {
      if (signal?.aborted) throw interrupted();
      // No worker on this platform, or it failed: the rest is read on the main thread.
    });
  }
  const limit = pLimit(READ_CONCURRENCY);
  read.push(
    ...(await Promise.all(
      entries.slice(read.length).map((entry) =>
        limit(async () => {
          if (signal?.aborted) throw interrupted();
          return analyse(entry, await readFileWithin(root, entry.path, maxBytes, entry.identity));
        }),
      ),
    )),
  );
  return read;
}

/**
 * The files to read, in order. With a partner and enough of them, every other one is the
 * partner's: it reads them while this thread reads the rest. A partner that fails leaves its
 * share to be read here.
 */
export async function readFiles(
  entries: readonly ListedFile[],
  options: ReadFilesOptions,
): Promise<FilesRead> {
  if (!options.partner || entries.length < options.partner.from)
    return { files: await readHere(entries, options) };
  const own = entries.filter((_, index) => index % 2 === 0);
  const shared = entries.filter((_, index) => index % 2 === 1);
  let partner: FilePartner | undefined;
  try {
    const { maxBytes, heldUpTo } = options;
    partner = options.partner.start(options.root, shared, { maxBytes, heldUpTo }, options.signal);
  } catch {
    return { files: await readHere(entries, options) };
  }
  const ownFiles = await readHere(own, options).catch((error: unknown) => {
    partner?.close();
    throw error;
  });
  const described = await partner.read.catch(() => undefined);
  if (options.signal?.aborted) {
    partner.close();
    throw options.interrupted();
  }
  const sharedFiles = described
    ? shared.map((entry, index) =>
        options.describe(entry, described[index] ?? { skipped: 'unreadable' }),
      )
    : await readHere(shared, options);
  const places = new Int32Array(entries.length).fill(-1);
  const files = entries.map((_, index) => {
    if (index % 2 === 0) return ownFiles[index >> 1];
    if (described) places[index] = index >> 1;
    return sharedFiles[index >> 1];
  });
  if (!described) return { files };
  return { files, partnerShare: { places, partner } };
}

/** The partner with the workspace's places for its files (`places`: its place for each file). */
export function workspacePartner(
  partner: FilePartner,
  places: readonly number[],
): WorkspacePartner {
  const fileAt: number[] = [];
  places.forEach((place, index) => {
    if (place >= 0) fileAt[place] = index;
  });
  return {
    owns: (index) => (places[index] ?? -1) >= 0,
    scan: async (keywords, forgetBeyond) =>
      (await partner.scan(keywords, forgetBeyond)).map((found) => ({
        ...found,
        file: fileAt[found.file] ?? -1,
      })),
    close: () => partner.close(),
  };
}
