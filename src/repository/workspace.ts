import { AbortError } from '../errors.js';
import {
  DEFAULT_EXCLUDED_DIRECTORIES,
  DEFAULT_EXCLUDED_FILES,
  hasBinaryExtension,
} from './default-excludes.js';
import { assertSearchableRoot } from '../file-system/roots.js';
import { readTextAgain, type FileBytes, type ListedFile } from '../file-system/tree.js';
import {
  MIN_FILES_FOR_A_PARTNER,
  readFiles,
  workspacePartner,
  type StartPartner,
  type WorkspacePartner,
} from './read-files.js';
import { listTree, type ListTreeOptions } from './list-tree.js';
import { createImportResolver, type ImportResolver } from '../structure/imports.js';
import type { Outline } from '../structure/outline.js';
import { parseSymbols } from '../structure/syntax/parse-symbols.js';
import { keepMostLikely } from './read-order.js';
import { createSecretFileFilter } from './secret-files.js';
import { describedSource, type SourceFile } from './source-file.js';
import { analyseRead, type SkippedRead } from './read-verdict.js';
import type { StoredFile, StoredIndex } from './word-index.js';
import { keepIndex } from './index-keeper.js';
import { afterPendingEvents } from '../file-system/watch-directories.js';
import { watchTree, type TreeWatch } from './tree-watch.js';
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
  /**
   * Watch the tree while the workspace is held (./tree-watch.ts), where the system can: opened
   * again with it as `previous`, it is taken without listing the tree while the watch has seen
   * no change since it was listed. Only with `reusable`; whoever lets the workspace go closes
   * its `watch`. Default false.
   */
  watch?: boolean | undefined;
  signal?: AbortSignal | undefined;
  /**
   * A thread to read and search half the files (./read-files.ts), in a run that keeps neither
   * index nor workspace, from `from` files to read (default `MIN_FILES_FOR_A_PARTNER`).
   */
  partner?: { start: StartPartner; from?: number } | undefined;
  /**
   * Most bytes of text a workspace without an index holds (default `MAX_HELD_TEXT_BYTES`): the
   * smallest files' texts are held, and each search reads the rest again.
   */
  maxHeldTextBytes?: number | undefined;
}

/**
 * Bytes of text held at most, the smallest files first: a file read again costs an open however
 * small it is, and its bytes. A 200,000-file tree held about 1 GB of texts, twice the run's other
 * memory.
 */
export const MAX_HELD_TEXT_BYTES = 16 * 1024 * 1024;

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
  /** True when it was taken again without listing the tree: its watch had seen no change. */
  watched?: boolean;
  /** The watch of the tree kept with it (`watch`); taken again, a workspace keeps the same one. */
  watch?: TreeWatch | undefined;
  /**
   * The thread that holds and searches part of a large tree's files read in one run
   * (src/dispatch/partner.ts); `close` lets it go when the run ends.
   */
  partner?: WorkspacePartner | undefined;
}

const provenances = new WeakMap<Workspace, Provenance>();

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

/** `previous` taken again, as listed at `listed`: no file is read. */
function takenAgain(
  previous: Workspace,
  listed: Provenance,
  started: number,
  extra: Pick<Workspace, 'watch' | 'watched'>,
): Workspace {
  const { index } = previous;
  const reused: Workspace = {
    ...previous,
    skipped: { ...previous.skipped },
    readMs: performance.now() - started,
    ...(index && { index: { updated: index.updated, changed: false, read: 0 } }),
    reused: true,
    ...extra,
  };
  provenances.set(reused, listed);
  return reused;
}

/**
 * Once the workspace's watch is armed, the tree is listed again in the background: found as it
 * was listed, with no change heard meanwhile, the workspace counts as listed then, and the next
 * opening need not list it.
 */
function listAgainOnceArmed(workspace: Workspace, root: string, options: ListTreeOptions): void {
  const { watch } = workspace;
  // Held weakly: a workspace let go while its watch waits to be armed is not kept for it.
  const held = new WeakRef(workspace);
  void watch?.armed
    .then(async (armed) => {
      const kept = held.deref();
      const before = kept && provenances.get(kept);
      if (!armed || !kept || !before || watch.unchangedSince(before.listingBegan)) return;
      const listingBegan = performance.now();
      const listedAtMs = Date.now();
      const listing = await listTree(root, options);
      if (
        watch.unchangedSince(listingBegan) &&
        listsTheSameTree(before, before.settings, before.task, listing)
      )
        provenances.set(kept, { ...before, listedAtMs, listingBegan });
    })
    .catch(() => undefined);
}

/** The size up to which files' texts fit in `budget` bytes, the smallest first. */
function largestHeld(entries: readonly ListedFile[], budget: number): number {
  const sizes = Float64Array.from(entries, (entry) => entry.size).sort();
  let total = 0;
  for (const size of sizes) {
    if (total + size > budget) return size - 1;
    total += size;
  }
  return Infinity;
}

export async function openWorkspace(root: string, options: WorkspaceOptions): Promise<Workspace> {
  const started = performance.now();
  const listingStarted = Date.now();
  // Awaited with the listing below; heard here too, in case the root is refused first.
  options.index?.catch(() => undefined);
  await assertSearchableRoot(root);
  const settings = settingsOf(root, options);
  const before = options.previous && provenances.get(options.previous);
  const watched = options.previous?.watch;
  if (options.previous && before && watched && servesAgain(before, settings, options.task)) {
    // A change made before this opening is heard first.
    await afterPendingEvents();
    if (watched.unchangedSince(before.listingBegan))
      return takenAgain(options.previous, before, started, { watch: watched, watched: true });
  }
  const interrupted = () =>
    new AbortError('interrupted while reading the repository, before any file was judged');
  const listOptions = {
    excludes: [
      ...DEFAULT_EXCLUDED_DIRECTORIES,
      ...DEFAULT_EXCLUDED_FILES,
      ...(options.excludes ?? []),
    ],
    maxIgnoreFileBytes: options.maxFileBytes,
  };
  // Together, so that neither is left to reject unheard when the other fails.
  const [listing, index] = await Promise.all([
    listTree(root, { ...listOptions, signal: options.signal }).catch((error: unknown) => {
      throw options.signal?.aborted ? interrupted() : error;
    }),
    options.index,
  ]);
  /**
   * The watch kept with the workspace: the one before while it still watches, made to watch the
   * directories of this listing too, else a new one. None over the cap: another task reads the
   * tree again anyway.
   */
  const watchOf = (files: readonly ListedFile[], overCap: boolean) => {
    if (!options.watch || options.reusable === false || overCap) return undefined;
    if (!watched?.live || before?.settings !== settings) return watchTree(root, files, listOptions);
    watched.cover(files);
    return watched;
  };
  if (options.previous && before && listsTheSameTree(before, settings, options.task, listing)) {
    const listed = { ...before, listedAtMs: listingStarted, listingBegan: started };
    const reused = takenAgain(options.previous, listed, started, {
      watch: watchOf(listing.files, before.task !== undefined),
      watched: false,
    });
    listAgainOnceArmed(reused, root, listOptions);
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
  /** Counts a file read and skipped; a binary or minified one is recorded as such. */
  const skip = (entry: ListedFile, why: SkippedRead): undefined => {
    if (why === 'too-large') skipped.tooLarge++;
    if (why === 'binary' || why === 'minified') {
      keeper?.recordVerdict(entry, why);
      skipped[why]++;
    }
    return undefined;
  };
  /** A file's text read again, only from the file listed: one gone or grown reads as empty. */
  const readAgain = (entry: ListedFile) => () =>
    readTextAgain(root, entry.path, options.maxFileBytes, entry.identity);
  const tree = { root, maxBytes: options.maxFileBytes };
  let heldUpTo = Infinity;
  const analyse = (entry: ListedFile, read: FileBytes): SourceFile | undefined => {
    const file = analyseRead(entry.path, read);
    if ('skipped' in file) return skip(entry, file.skipped);
    if (keeper) return keeper.recordRead(entry, file, readAgain(entry));
    // Too large to hold among many: read again for each search.
    if ('bytes' in read && read.bytes.length > heldUpTo)
      return describedSource(entry.path, file, entry.identity, tree, true);
    return file;
  };
  /** A file the stored index holds unchanged: its text is read only if it is needed. */
  const restore = (entry: ListedFile, stored: StoredFile): SourceFile | undefined => {
    if (stored.verdict !== 'read') {
      keeper?.recordVerdict(entry, stored.verdict);
      return (skipped[stored.verdict]++, undefined);
    }
    return keeper?.restore(entry, stored, readAgain(entry));
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
  // An index searches its files' words, and holds no text.
  if (!keeper) heldUpTo = largestHeld(toRead, options.maxHeldTextBytes ?? MAX_HELD_TEXT_BYTES);
  const { files: read, partnerShare } = await readFiles(toRead, {
    root,
    maxBytes: options.maxFileBytes,
    heldUpTo,
    signal: options.signal,
    // Only for a run that keeps neither an index nor the workspace: a partner's files have no
    // words indexed here, and it lives only as long as its run.
    partner:
      options.partner && !keeper && options.reusable === false
        ? { start: options.partner.start, from: options.partner.from ?? MIN_FILES_FOR_A_PARTNER }
        : undefined,
    analyse,
    describe: (entry, described) =>
      'skipped' in described
        ? skip(entry, described.skipped)
        : describedSource(entry.path, described, entry.identity, tree, entry.size > heldUpTo),
    interrupted,
  });
  // In the listing's order, whether read or restored, so that runs rank ties alike.
  const files: SourceFile[] = [];
  /** For each file, its place in the partner's share; -1 for this thread's. */
  const partnerPlaces: number[] = [];
  let next = 0;
  kept.forEach((entry, index) => {
    const stored = unchanged[index];
    const place = stored || carried[index] ? -1 : (partnerShare?.places[next] ?? -1);
    const file = stored ? restore(entry, stored) : (carried[index] ?? read[next++]);
    if (!file) return;
    files.push(file);
    partnerPlaces.push(place);
  });
  const partner = partnerShare && workspacePartner(partnerShare.partner, partnerPlaces);
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
    ...(partner && { partner }),
    watch: watchOf(listing.files, skipped.overLimit > 0),
  };
  if (options.reusable !== false)
    provenances.set(workspace, {
      settings,
      task: skipped.overLimit > 0 ? options.task : undefined,
      listedAtMs: listingStarted,
      listingBegan: started,
      ignored: listing.ignored,
      files: listing.files,
    });
  listAgainOnceArmed(workspace, root, listOptions);
  return workspace;
}
