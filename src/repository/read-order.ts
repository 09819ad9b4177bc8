import { wordsOf } from '../text/identifiers.js';
import { stem } from '../text/stem.js';
import { STOP_WORDS } from '../text/stop-words.js';
import { kindOf } from './source-file.js';
import { type FileKind } from '../contracts/file-kind.js';

/**
 * Which files a repository too large to read whole keeps: the ones a task most likely needs.
 * Paths that share a word with the task first; then, in each of those two groups, source, type
 * declarations, configuration, tests, examples and docs, with generated, third-party and fixture
 * files last; within each, the shallower path first (a package's own modules before what is
 * nested deep inside it), then the path itself, so the choice is stable.
 */

const KIND_ORDER: Record<FileKind, number> = {
  source: 0,
  declaration: 1,
  config: 2,
  test: 3,
  example: 4,
  docs: 5,
};
const LEAST_LIKELY = Object.keys(KIND_ORDER).length;

/** Code written by a tool or copied from elsewhere, and data kept for tests: read last. */
const GENERATED_OR_COPIED =
  /(^|\/)(third[_-]?party|external|extern|deps|generated|__generated__|gen|autogen|fixtures?|testdata|snapshots?|__snapshots__)\/|[._-](generated|gen|pb2(_grpc)?)\.[^/]+$|\.pb\.(go|cc|h)$/i;

function rankOf(path: string): number {
  return GENERATED_OR_COPIED.test(path) ? LEAST_LIKELY : KIND_ORDER[kindOf(path)];
}

const depthOf = (path: string) => path.split('/').length;

/** The stems of the task's words that can name a file: three letters or more, no stop word. */
function taskStemsOf(task: string): Set<string> {
  const stems = new Set<string>();
  for (const word of wordsOf(task))
    if (word.length >= 3 && !STOP_WORDS.has(word)) stems.add(stem(word));
  return stems;
}

/**
 * True when a directory or the file name (not its extension) is one of the task's words. Words
 * never cross a `/`, so a directory's answer is found once for all its files.
 */
function taskWordTest(taskStems: ReadonlySet<string>): (path: string) => boolean {
  const holdsTaskWord = (text: string) => wordsOf(text).some((word) => taskStems.has(stem(word)));
  const directories = new Map<string, boolean>();
  return (path) => {
    const slash = path.lastIndexOf('/');
    const directory = path.slice(0, Math.max(0, slash));
    let shares = directories.get(directory);
    if (shares === undefined) directories.set(directory, (shares = holdsTaskWord(directory)));
    const name = path.slice(slash + 1);
    const extension = name.lastIndexOf('.');
    return shares || holdsTaskWord(extension > 0 ? name.slice(0, extension) : name);
  };
}

/**
 * The `limit` entries most worth reading for `task`, in their original order; the rest are
 * dropped. Deterministic: the same entries and task always keep the same files.
 */
export function keepMostLikely<Entry extends { path: string }>(
  entries: readonly Entry[],
  limit: number,
  task = '',
): Entry[] {
  if (entries.length <= limit) return [...entries];
  const sharesTaskWord = taskWordTest(taskStemsOf(task));
  const ranked = entries
    .map((entry) => ({
      entry,
      named: sharesTaskWord(entry.path) ? 0 : 1,
      rank: rankOf(entry.path),
      depth: depthOf(entry.path),
    }))
    .sort(
      (left, right) =>
        left.named - right.named ||
        left.rank - right.rank ||
        left.depth - right.depth ||
        (left.entry.path < right.entry.path ? -1 : left.entry.path > right.entry.path ? 1 : 0),
    );
  const kept = new Set(ranked.slice(0, limit).map(({ entry }) => entry));
  return entries.filter((entry) => kept.has(entry));
}
