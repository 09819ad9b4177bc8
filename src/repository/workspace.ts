import pLimit from 'p-limit';
import { AbortError } from '../errors.js';
import {
  DEFAULT_EXCLUDED_DIRECTORIES,
  DEFAULT_EXCLUDED_FILES,
  hasBinaryExtension,
  looksBinary,
  looksMinified,
} from './default-excludes.js';
import { assertSearchableRoot } from '../file-system/roots.js';
import {
  readFileWithin,
  readFileWithinSync,
  type FileBytes,
  type ListedFile,
} from '../file-system/tree.js';
import { readManyFiles } from '../file-system/read-many-files.js';
import { listTree } from './list-tree.js';
import { createImportResolver, type ImportResolver } from '../structure/imports.js';
import type { Outline } from '../structure/outline.js';
import { parseSymbols } from '../structure/syntax/parse-symbols.js';
import { keepMostLikely } from './read-order.js';
import { createSecretFileFilter } from './secret-files.js';
import { analyzeSource, type SourceFile } from './source-file.js';
import type { StoredFile, StoredIndex } from './word-index.js';
import { keepIndex } from './index-keeper.js';
import {
  listsTheSameTree,
  servesAgain,
  settingsOf,
  unchangedSince,
  type Provenance,
} from './workspace-reuse.js';

export interface WorkspaceOptions {
  /** Extra globs never to consider. */
  excludes?: readonly string[];
  /** Globs of secret files (`.env.example`, `test/fixtures/*.pem`) that may be read after all. */
  allowSecretFiles?: readonly string[];
  /** Files larger than this many bytes are skipped. */
  maxFileBytes: number;
  /** At most this many files are read; the least likely of the rest are skipped (and counted). */
  maxFiles: number;
  /** The task: over `maxFiles`, paths that share a word with it are the last left out. */
  task?: string | undefined;
  /** Parse candidates with tree-sitter for their definitions' kinds and extents. Default true. */
  syntax?: boolean | undefined;
  /**
   * Keep a stored index (./word-index.ts): unchanged files are taken from `stored` (when there
   * is one) instead of being read, every file read is indexed, and the workspace's `index` is
   * this listing's. A promise, so that the index loads while the tree is listed: undefined once
   * settled means no index is kept.
   */
  index?: Promise<{ stored: StoredIndex | undefined } | undefined> | undefined;
  /**
   * The workspace this root was opened as before, in this process. When the tree is listed with
   * the same files, each unchanged since, and the settings are the same, it is taken again
   * (`reused`) with every search already made in it, and no file is read.
   */
  previous?: Workspace | undefined;
  /**
   * Keep what a later open needs to take this workspace again as `previous`: the listing, each
   * file's identity with it. Default true; a run that keeps no workspace leaves it off, since a
   * 200,000-file listing holds about 75 MB for the whole run.
   */
  reusable?: boolean | undefined;
  signal?: AbortSignal | undefined;
}

/** Why files of the tree were left out, by count. */
export interface SkippedFiles {
  ignored: number;
  /** Secret files (./secret-files.ts): never read, so no part of them reaches a judge. */
  secret: number;
  binary: number;
  tooLarge: number;
  minified: number;
  overLimit: number;
}

/** A repository read once per run: every cycle's dispatch reuses its files and indexes. */
export interface Workspace {
  root: string;
  files: readonly SourceFile[];
  get(path: string): SourceFile | undefined;
  averageLineCount: number;
  imports: ImportResolver;
  /**
   * A file's outline with the definitions its syntax tree shows, whole (kind, first and last
   * line), where it can be parsed; else the regex outline. Parsed on first request, once per run:
   * only candidates are, never the whole repository.
   */
  parsedOutline(file: SourceFile): Promise<Outline>;
  skipped: SkippedFiles;
  readMs: number;
  /**
   * With `index`: the index of this listing, whether it differs from the stored one, and
   * how many files were read for it (the others came from the stored one).
   */
  index?: { updated: StoredIndex; changed: boolean; read: number } | undefined;
  /** True when this is `previous` taken again: the tree had not changed. */
  reused?: boolean;
}

const provenances = new WeakMap<Workspace, Provenance>();

const READ_CONCURRENCY = 32;
const EMPTY = Buffer.alloc(0);
/** Below this many files, starting the reader's worker costs more than it saves. */
const MIN_FILES_FOR_THE_READER = 256;

/**
 * Whether `previous` may be taken again by an opening of `root` with `options`, if the tree is
 * unchanged: false when its settings differ, or it left files out over the cap for another task.
 * One that may not is better let go before the tree is read again than held beside its successor.
 */
export function mayTakeAgain(
  previous: Workspace,
  root: string,
  options: WorkspaceOptions,
): boolean {
  const before = provenances.get(previous);
  return before !== undefined && servesAgain(before, settingsOf(root, options), options.task);
}

export async function openWorkspace(root: string, options: WorkspaceOptions): Promise<Workspace> {
  const started = performance.now();
  const listingStarted = Date.now();
  // Awaited with the listing below; heard here too, in case the root is refused first.
  options.index?.catch(() => undefined);
  await assertSearchableRoot(root);
  const interrupted = () =>
    new AbortError('interrupted while reading the repository, before any file was judged');
  // Together, so that neither is left to reject unheard when the other fails.
  const [listing, index] = await Promise.all([
    listTree(root, {
      excludes: [
        ...DEFAULT_EXCLUDED_DIRECTORIES,
        ...DEFAULT_EXCLUDED_FILES,
        ...(options.excludes ?? []),
      ],
      maxIgnoreFileBytes: options.maxFileBytes,
      signal: options.signal,
    }).catch((error: unknown) => {
      throw options.signal?.aborted ? interrupted() : error;
    }),
    options.index,
  ]);
  const settings = settingsOf(root, options);
  const before = options.previous && provenances.get(options.previous);
  if (options.previous && before && listsTheSameTree(before, settings, options.task, listing)) {
    const { index: previousIndex } = options.previous;
    const reused: Workspace = {
      ...options.previous,
      skipped: { ...options.previous.skipped },
      readMs: performance.now() - started,
      ...(previousIndex && { index: { updated: previousIndex.updated, changed: false, read: 0 } }),
      reused: true,
    };
    provenances.set(reused, { ...before, listedAtMs: listingStarted });
    return reused;
  }
  const skipped: SkippedFiles = {
    ignored: listing.ignored,
    secret: 0,
    binary: 0,
    tooLarge: 0,
    minified: 0,
    overLimit: 0,
  };

  const isSecret = createSecretFileFilter(options.allowSecretFiles ?? []);

  const wanted = listing.files.filter((entry) => {
    // Before the binary test, so that a key store is counted as the secret it is.
    if (isSecret(entry.path)) return (skipped.secret++, false);
    if (hasBinaryExtension(entry.path)) return (skipped.binary++, false);
    if (entry.size > options.maxFileBytes) return (skipped.tooLarge++, false);
    return true;
  });
  if (wanted.length > options.maxFiles) skipped.overLimit = wanted.length - options.maxFiles;
  const kept = keepMostLikely(wanted, options.maxFiles, options.task);

  const keeper = index ? keepIndex(index.stored, listingStarted) : undefined;
  const analyse = (entry: ListedFile, read: FileBytes): SourceFile | undefined => {
    if ('skipped' in read) {
      if (read.skipped === 'too-large') skipped.tooLarge++;
      return undefined;
    }
    const bytes = read.bytes;
    if (looksBinary(bytes)) {
      keeper?.recordVerdict(entry, 'binary');
      return (skipped.binary++, undefined);
    }
    const text = bytes.toString('utf8');
    if (looksMinified(text)) {
      keeper?.recordVerdict(entry, 'minified');
      return (skipped.minified++, undefined);
    }
    const file = analyzeSource(entry.path, text);
    keeper?.recordRead(entry, file);
    return file;
  };
  /** A file the stored index holds unchanged: its text is read only if it is needed. */
  const restore = (entry: ListedFile, stored: StoredFile): SourceFile | undefined => {
    if (stored.verdict !== 'read') {
      keeper?.recordVerdict(entry, stored.verdict);
      return (skipped[stored.verdict]++, undefined);
    }
    return keeper?.restore(entry, stored, () =>
      (
        readFileWithinSync(root, entry.path, options.maxFileBytes, entry.identity) ?? EMPTY
      ).toString('utf8'),
    );
  };
  const unchanged = kept.map((entry) => keeper?.unchanged(entry));
  // Without an index to restore from, the files the previous workspace read are taken as they
  // are where unchanged (with one, every file is in it, and taken from there).
  const carry =
    !keeper && options.previous && before
      ? unchangedSince(before, options.previous.get)
      : undefined;
  const carried = kept.map((entry) => carry?.(entry));
  const toRead = kept.filter(
    (_, index) => unchanged[index] === undefined && carried[index] === undefined,
  );
  const read: (SourceFile | undefined)[] = [];
  if (toRead.length >= MIN_FILES_FOR_THE_READER) {
    // The listed size is not trusted: a file may have grown, or claim 0 and never end.
    await readManyFiles(
      root,
      toRead,
      options.maxFileBytes,
      (entry, bytes) => read.push(analyse(entry, bytes)),
      options.signal,
    ).catch(() => {
      if (options.signal?.aborted) throw interrupted();
      // No worker on this platform, or it failed: the rest is read on the main thread.
    });
  }
  const limit = pLimit(READ_CONCURRENCY);
  read.push(
    ...(await Promise.all(
      toRead.slice(read.length).map((entry) =>
        limit(async () => {
          if (options.signal?.aborted) throw interrupted();
          return analyse(
            entry,
            await readFileWithin(root, entry.path, options.maxFileBytes, entry.identity),
          );
        }),
      ),
    )),
  );
  // In the listing's order, whether read or restored, so that runs rank ties alike.
  let next = 0;
  const all = kept.map((entry, index) => {
    const stored = unchanged[index];
    return stored ? restore(entry, stored) : (carried[index] ?? read[next++]);
  });
  const files = all.filter((file): file is SourceFile => file !== undefined);
  const byPath = new Map(files.map((file) => [file.path, file]));
  const totalLines = files.reduce((sum, file) => sum + file.lineCount, 0);
  const outlines = new Map<string, Promise<Outline>>();

  const workspace: Workspace = {
    root,
    files,
    get: (path) => byPath.get(path),
    averageLineCount: files.length ? totalLines / files.length : 1,
    imports: createImportResolver(
      files.map((file) => file.path),
      (path) => byPath.get(path)?.lines,
    ),
    parsedOutline(file) {
      if (options.syntax === false) return Promise.resolve(file.outline);
      let outline = outlines.get(file.path);
      if (!outline) {
        outline = parseSymbols(file.path, file.text).then((symbols) =>
          symbols ? { imports: file.outline.imports, symbols } : file.outline,
        );
        outlines.set(file.path, outline);
      }
      return outline;
    },
    skipped,
    readMs: performance.now() - started,
    ...(keeper && { index: keeper.result(toRead.length) }),
  };
  if (options.reusable !== false)
    provenances.set(workspace, {
      settings,
      task: skipped.overLimit > 0 ? options.task : undefined,
      listedAtMs: listingStarted,
      ignored: listing.ignored,
      files: listing.files,
    });
  return workspace;
}
