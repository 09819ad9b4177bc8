import { wordsOf } from '../text/identifiers.js';
import { stem } from '../text/stem.js';
import { STOP_WORDS } from '../text/stop-words.js';
import type { PastCommit } from '../contracts/overview.js';

/**
 * How strongly a repository's past points at each file for a task. A commit whose message reads
 * like the task ("child order lost with memo") changed files that the task will likely change
 * again; its files share the commit's similarity, and a file sums the commits that changed it.
 * Similarity is TF-IDF over the stemmed words of commit messages, so the words every commit
 * uses ("fix", "update") count for little.
 */

/** A commit touching more files than this is a refactor or a release; it says nothing specific. */
export const MAX_FILES_PER_COMMIT = 20;
/** Term frequency saturates: a word repeated in a long message or task counts a little more. */
const MESSAGE_REPEATS = 2;
const TASK_REPEATS = 3;

export interface HistoryEvidence {
  /** The file's evidence as a share of the best file's, 0–1. */
  share: number;
  /** How many similar commits changed it. */
  commits: number;
  /** The first line of the most similar commit that changed it. */
  example: string;
}

function termCounts(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const word of wordsOf(text)) {
    if (word.length < 3 || STOP_WORDS.has(word) || /^\d+$/.test(word)) continue;
    const key = stem(word);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

export function scoreFilesByHistory(
  commits: readonly PastCommit[],
  task: string,
): Map<string, HistoryEvidence> {
  const useful = commits.filter(
    (commit) => commit.files.length > 0 && commit.files.length <= MAX_FILES_PER_COMMIT,
  );
  const messages = useful.map((commit) => termCounts(commit.message));
  const documentFrequency = new Map<string, number>();
  for (const counts of messages)
    for (const term of counts.keys())
      documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1);
  const query = termCounts(task);

  const totals = new Map<
    string,
    { score: number; commits: number; best: number; example: string }
  >();
  useful.forEach((commit, index) => {
    let similarity = 0;
    for (const [term, count] of messages[index] ?? []) {
      const asked = query.get(term);
      if (asked === undefined) continue;
      const idf = Math.log(1 + useful.length / (documentFrequency.get(term) ?? 1));
      similarity +=
        idf * Math.min(count, MESSAGE_REPEATS) * Math.sqrt(Math.min(asked, TASK_REPEATS));
    }
    if (similarity <= 0) return;
    // A commit's evidence is shared among its files, less than evenly: a focused fix says more.
    const perFile = similarity / Math.sqrt(commit.files.length);
    for (const file of commit.files) {
      const total = totals.get(file) ?? { score: 0, commits: 0, best: 0, example: '' };
      total.score += perFile;
      total.commits += 1;
      if (perFile > total.best) {
        total.best = perFile;
        total.example = commit.message.split('\n', 1)[0] ?? '';
      }
      totals.set(file, total);
    }
  });
  // A loop, not `Math.max(...scores)`: a long history changes more files than a call takes arguments.
  let best = 0;
  for (const total of totals.values()) best = Math.max(best, total.score);
  return new Map(
    [...totals].map(([file, total]) => [
      file,
      { share: best > 0 ? total.score / best : 0, commits: total.commits, example: total.example },
    ]),
  );
}
