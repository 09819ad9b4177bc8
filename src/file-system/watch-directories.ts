import { lstat, statfs } from 'node:fs/promises';
import { watch, type FSWatcher } from 'node:fs';
import { platform } from 'node:os';
import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * Watching directories of the searched tree for changes (inotify, through `fs.watch`), so that a
 * process holding the tree in memory knows when it must list it again.
 */

/**
 * The filesystems (statfs `f_type`) whose changes the kernel reports to a watcher here: ext2-4,
 * XFS, Btrfs, tmpfs, OverlayFS, ZFS, F2FS and bcachefs. A network or FUSE filesystem reports only
 * what this machine changes, so trees there are not watched.
 */
const REPORTING_FILESYSTEMS = new Set([
  0xef53, 0x58465342, 0x9123683e, 0x01021994, 0x794c7630, 0x2fc12fc1, 0xf2f52010, 0xca451a4e,
]);

/** Whether changes under `root` can be watched: on Linux, on a filesystem that reports them all. */
export async function reportsChanges(root: string): Promise<boolean> {
  if (platform() !== 'linux') return false;
  try {
    return REPORTING_FILESYSTEMS.has((await statfs(root)).type);
  } catch {
    return false;
  }
}

/** What a watched directory reported: its entry `name` changed, or was made, removed or moved. */
export interface DirectoryEvent {
  directory: string;
  name: string | undefined;
  /** The entry was made, removed or renamed, not only written to. */
  moved: boolean;
}

export interface DirectoryWatch {
  /**
   * Watches `directory` (relative to the root, '' for the root) for changes to its entries; false
   * when it cannot (gone, or the system's limit of watches reached, say).
   */
  add(directory: string): boolean;
  close(): void;
}

/** Watches directories under `root`, each event told to `onEvent`; it never keeps the process alive. */
export function watchDirectories(
  root: string,
  onEvent: (event: DirectoryEvent) => void,
): DirectoryWatch {
  const watchers: FSWatcher[] = [];
  return {
    add(directory) {
      let watcher: FSWatcher;
      try {
        watcher = watch(
          directory ? `${root}/${directory}` : root,
          { persistent: false },
          (type, name) =>
            onEvent({
              directory,
              name: typeof name === 'string' ? name : undefined,
              moved: type !== 'change',
            }),
        );
      } catch {
        return false;
      }
      // An error (the directory gone) tells of a change as an event without a name does.
      watcher.on('error', () => onEvent({ directory, name: undefined, moved: true }));
      watchers.push(watcher);
      return true;
    },
    close: () => watchers.splice(0).forEach((watcher) => watcher.close()),
  };
}

/** Whether `path` under `root` is a directory now (false when it is gone or cannot be seen). */
export async function isDirectory(root: string, path: string): Promise<boolean> {
  try {
    return (await lstat(`${root}/${path}`)).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Resolves after the events the kernel holds for this process's watches have been delivered: a
 * change made before this is called has reached its watcher when it resolves. Two turns, so that
 * a poll of the event loop begun after the call has run.
 */
export async function afterPendingEvents(): Promise<void> {
  await nextTurn();
  await nextTurn();
}
