import type { KeywordPattern } from './keyword.js';
import type { Workspace } from '../repository/workspace.js';
import type { StemTable } from '../text/word-postings.js';
import { forEachInRow, wordAndNameRows } from '../text/stem-rows.js';

/**
 * For a workspace whose every file comes with its words indexed: which files hold each stem, in
 * their text or in their path. A keyword is then scanned only in the files that hold each of its
 * words somewhere; every other file is settled without being looked at (it neither matches nor
 * counts).
 */
export interface FilesByStem {
  /**
   * Indexes (ascending, into `workspace.files`) of the files holding every word of the keyword,
   * each in their text or their path.
   */
  candidatesOf(keyword: KeywordPattern): number[];
}

/** By the workspace's files: a workspace taken again for an unchanged tree shares them. */
const built = new WeakMap<Workspace['files'], FilesByStem | null>();

export function filesByStemOf(workspace: Workspace): FilesByStem | undefined {
  let known = built.get(workspace.files);
  if (known === undefined) built.set(workspace.files, (known = build(workspace) ?? null));
  return known ?? undefined;
}

function build(workspace: Workspace): FilesByStem | undefined {
  const { files } = workspace;
  const table: StemTable | undefined = files[0]?.words?.table;
  if (!table || files.some((file) => file.words?.table !== table)) return undefined;
  // Files restored from a stored index are looked up in its rows, by their places there; the
  // others (read in this run) in rows made of their own ids.
  const storedRows = files.find((file) => file.words?.stored)?.words?.stored?.rows;
  const byPlace = new Int32Array(storedRows?.files ?? 0).fill(-1);
  const others: number[] = [];
  files.forEach((file, index) => {
    const stored = file.words?.stored;
    if (stored && stored.rows === storedRows) byPlace[stored.place] = index;
    else others.push(index);
  });
  const otherRows = wordAndNameRows(
    table.stems.length,
    others.length,
    (at) => files[others[at] ?? -1]?.words,
  );
  /** Each file holding stem `id` in its words or (`names`) its file name or directories. */
  const filesHolding = (id: number, part: 'words' | 'names', each: (index: number) => void) => {
    if (storedRows)
      forEachInRow(storedRows[part], id, (place) => {
        const index = byPlace[place] ?? -1;
        if (index >= 0) each(index);
      });
    forEachInRow(otherRows[part], id, (at) => each(others[at] ?? 0));
  };
  return {
    candidatesOf(keyword) {
      // A file matches or counts for a keyword only if it holds each of its words, in its text
      // or its name: files holding some of them are settled without being looked at.
      const words = keyword.words.length;
      const held = new Uint16Array(files.length);
      const last = new Int32Array(files.length).fill(-1);
      const mark = (index: number, word: number) => {
        if (last[index] === word) return;
        last[index] = word;
        held[index] = (held[index] ?? 0) + 1;
      };
      keyword.words.forEach((alternatives, word) => {
        for (const stem of alternatives) {
          const id = table.idOf(stem);
          if (id === undefined) continue;
          filesHolding(id, 'words', (index) => mark(index, word));
          filesHolding(id, 'names', (index) => mark(index, word));
        }
      });
      const candidates: number[] = [];
      held.forEach((count, index) => {
        if (count === words) candidates.push(index);
      });
      return candidates;
    },
  };
}
