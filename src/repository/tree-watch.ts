import { posix } from 'node:path';
import type { ListedFile } from '../file-system/tree.js';
import {
  isDirectory,
  reportsChanges,
  watchDirectories,
  type DirectoryEvent,
} from '../file-system/watch-directories.js';
import { walkDirectories, type ListTreeOptions } from './list-tree.js';

/**
 * A watch of a searched tree kept beside a workspace held in memory (src/workspace-cache.ts):
 * while it has seen no change since the tree was listed, the tree is as listed, and a run takes
 * the workspace again without listing it.
 *
 * It watches every directory a listing could find a file in: each one the ignore-aware walk
 * enters, watched before it is read, so that an entry made after the read is reported (a file
 * made in an empty directory, or in one of ignored files only, is seen); those of the files
 * listed (git lists tracked files in ignored directories too); and git's index and
 * `.git/info/exclude`, which decide what git lists. Any event counts as a change. A directory
 * made after its parent was read is not watched, so one made ends the watch: the next workspace
 * kept starts another.
 */
export interface TreeWatch {
  /**
   * Whether the tree is known unchanged from `sinceMs` (a `performance.now()` when a listing
   * began) until now: it was watched whole from before then, and has reported nothing since.
   */
  unchangedSince(sinceMs: number): boolean;
  /** False once it has stopped: closed, not watchable, or a change it cannot follow. */
  readonly live: boolean;
  /**
   * Starts watching (a walk of the tree's directories, in the background) after `delayMs`
   * (default `ARM_DELAY_MS`), unless armed again before then.
   */
  arm(delayMs?: number): void;
  /** Settles when every directory is watched (true), or the watch stopped before (false). */
  readonly armed: Promise<boolean>;
  /**
   * Watches the directory of each of `files` too (a later listing's). A directory it did not
   * watch yet is watched from now: the tree is known unchanged only from a listing begun after.
   */
  cover(files: readonly ListedFile[]): void;
  close(): void;
}

/**
 * How long after a run the watch is armed: a process asked again at once (an MCP client's next
 * call) would share its processors with the walk, and list the tree anyway.
 */
export const ARM_DELAY_MS = 1_500;

/** Over this many directories, a tree is not watched: each watch holds about 2 KB. */
export const MAX_WATCHED_DIRECTORIES = 100_000;

/** In `.git`, what decides the files git lists: its index; and `info/exclude`. */
const GIT_DIRECTORY = '.git';
const GIT_INFO = '.git/info';

/** The directory of a path relative to the root, '' for the root. */
function directoryOf(path: string): string {
  const directory = posix.dirname(path);
  return directory === '.' ? '' : directory;
}

export function watchTree(
  root: string,
  listed: readonly ListedFile[],
  options: ListTreeOptions,
): TreeWatch {
  let armedAt: number | undefined;
  let lastEventAt = -Infinity;
  /** Entries made or moved whose kind is being checked: until then, nothing is known unchanged. */
  let checking = 0;
  let stopped = false;
  const ending = new AbortController();
  let startArming: () => void = () => undefined;
  let armTimer: NodeJS.Timeout | undefined;
  const stop = () => {
    stopped = true;
    ending.abort();
    clearTimeout(armTimer);
    // Not armed now: `armed` settles false.
    startArming();
    watch.close();
  };
  /** The files of the last listing, whose directories it must watch too once armed. */
  let latest = listed;
  const watch = watchDirectories(root, ({ directory, name, moved }: DirectoryEvent) => {
    if (stopped || (directory === GIT_DIRECTORY && name !== 'index')) return;
    lastEventAt = performance.now();
    if (name === undefined) return stop();
    if (!moved) return;
    // A directory made or moved in is not watched: the watch ends, and the next one covers it.
    checking++;
    void isDirectory(root, directory ? `${directory}/${name}` : name).then((made) => {
      checking--;
      if (made) stop();
    });
  });
  /** Every directory watched, or being armed ('' for the root). */
  const directories = new Set<string>();
  const add = (directory: string) => {
    // Recorded first, even once stopped: `coverAll` climbs until it meets a recorded directory.
    directories.add(directory);
    if (stopped) return;
    if (directories.size > MAX_WATCHED_DIRECTORIES || !watch.add(directory)) stop();
  };
  /** Watches the directories of `files` and those above them; true when one was new. */
  const coverAll = (files: readonly ListedFile[]) => {
    let added = false;
    for (const file of files) {
      for (let directory = directoryOf(file.path); !directories.has(directory);) {
        add(directory);
        added = true;
        directory = directoryOf(directory);
      }
    }
    return added;
  };
  const armed = new Promise<void>((resolve) => (startArming = resolve))
    .then(async () => {
      if (stopped || !(await reportsChanges(root))) return false;
      await walkDirectories(root, { ...options, signal: ending.signal }, add);
      coverAll(latest);
      // Not held past this: a workspace's listing is large.
      latest = [];
      // Absent outside a git work tree, or where `.git` is a file (a linked work tree): not needed.
      for (const directory of [GIT_DIRECTORY, GIT_INFO]) if (!stopped) watch.add(directory);
      if (!stopped) armedAt = performance.now();
      return !stopped;
    })
    .then(
      (watching) => (watching || stop(), watching),
      () => (stop(), false),
    );

  return {
    unchangedSince: (sinceMs) =>
      !stopped &&
      armedAt !== undefined &&
      armedAt <= sinceMs &&
      lastEventAt < sinceMs &&
      checking === 0,
    get live() {
      return !stopped;
    },
    arm(delayMs = ARM_DELAY_MS) {
      clearTimeout(armTimer);
      if (delayMs <= 0) startArming();
      // Never what keeps the process alive.
      else armTimer = setTimeout(startArming, delayMs).unref();
    },
    armed,
    cover(files) {
      if (stopped) return;
      // Before it is armed, only the latest listing matters: the workspace held is its.
      if (armedAt === undefined) latest = files;
      else if (coverAll(files)) armedAt = performance.now();
    },
    close: stop,
  };
}
