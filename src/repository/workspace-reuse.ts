import type { ListedFile } from '../file-system/tree.js';
import type { TreeListing } from './list-tree.js';
import { fileKeyOf, isUnchangedSince } from './word-index.js';

/**
 * What a workspace was made from: the settings that chose and read its files, and the listing
 * they were chosen from. A later opening of the same root with the same settings that lists the
 * same files, unchanged since, would make the same workspace: it takes this one instead, with
 * every search already made in it (./workspace.ts).
 */
export interface Provenance {
  /** The settings that decide which files are read and how, as one comparable string. */
  settings: string;
  /** The task that chose the files over the cap, when some were left out; else undefined. */
  task: string | undefined;
  /** When the listing started (`Date.now()`). */
  listedAtMs: number;
  /** When the listing started, on the monotonic clock (`performance.now()`): for a tree watch. */
  listingBegan: number;
  ignored: number;
  files: readonly ListedFile[];
}

/** The settings part of a provenance. */
export function settingsOf(
  root: string,
  options: {
    excludes?: readonly string[] | undefined;
    allowSecretFiles?: readonly string[] | undefined;
    maxFileBytes: number;
    maxFiles: number;
    syntax?: boolean | undefined;
  },
): string {
  return JSON.stringify([
    root,
    options.excludes ?? [],
    options.allowSecretFiles ?? [],
    options.maxFileBytes,
    options.maxFiles,
    options.syntax ?? true,
  ]);
}

/**
 * Whether a workspace made as `before` says could serve an opening with `settings` for `task`,
 * if the tree is unchanged. The same files make the same choice over the cap, so the task
 * matters only where `before` left files out: a workspace that did so for one task is never
 * taken for another.
 */
export const servesAgain = (before: Provenance, settings: string, task: string | undefined) =>
  before.settings === settings && (before.task === undefined || before.task === task);

/** Whether `listing`, made with `settings` for `task`, finds the tree as `before` saw it. */
export function listsTheSameTree(
  before: Provenance,
  settings: string,
  task: string | undefined,
  listing: TreeListing,
): boolean {
  if (!servesAgain(before, settings, task) || before.ignored !== listing.ignored) return false;
  const { files } = listing;
  if (files.length !== before.files.length) return false;
  for (let index = 0; index < files.length; index++) {
    const now = files[index];
    const then = before.files[index];
    if (
      !now ||
      !then ||
      now.path !== then.path ||
      !isUnchangedSince(fileKeyOf(then), fileKeyOf(now), before.listedAtMs)
    )
      return false;
  }
  return true;
}

/**
 * For a tree that changed since `before`: the file `get` found then for a listed path, when that
 * path is unchanged since, so that only new and changed files are read again.
 */
export function unchangedSince<File>(
  before: Provenance,
  get: (path: string) => File | undefined,
): (entry: ListedFile) => File | undefined {
  const then = new Map(before.files.map((entry) => [entry.path, entry]));
  return (entry) => {
    const seen = then.get(entry.path);
    return seen && isUnchangedSince(fileKeyOf(seen), fileKeyOf(entry), before.listedAtMs)
      ? get(entry.path)
      : undefined;
  };
}
