import type { KeywordPattern } from './keyword.js';
import type { Workspace } from '../repository/workspace.js';
import type { StemTable } from '../text/word-postings.js';
import type { IndexedWords, SourceFile } from '../repository/source-file.js';

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
  const byText = filesByStemId(table, files, [(words) => words.postings.stems]);
  const byName = filesByStemId(table, files, [
    (words) => words.nameStemIds,
    (words) => words.directoryStemIds,
  ]);
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
          byText(id, (index) => mark(index, word));
          byName(id, (index) => mark(index, word));
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

/**
 * The files whose ids (`idsOf`, each a list of them) hold each stem id, as compressed rows: per
 * id, its files are `indexes[starts[id]] … indexes[starts[id + 1]]`, ascending. A file listed
 * twice for an id (in its name and a directory) is marked twice, which `candidatesOf` counts once.
 * Indexed loops: this goes over every stem of every file of a warm run.
 */
function filesByStemId(
  table: StemTable,
  files: readonly SourceFile[],
  idsOf: readonly ((words: IndexedWords) => Uint32Array)[],
): (id: number, each: (index: number) => void) => void {
  const lists = files.map(({ words }) => (words ? idsOf.map((ids) => ids(words)) : []));
  const stemCount = table.stems.length;
  const starts = new Uint32Array(stemCount + 1);
  for (const list of lists)
    for (const ids of list)
      for (let at = 0; at < ids.length; at++) {
        const id = ids[at] ?? 0;
        starts[id + 1] = (starts[id + 1] ?? 0) + 1;
      }
  for (let id = 0; id < stemCount; id++) starts[id + 1] = (starts[id + 1] ?? 0) + (starts[id] ?? 0);
  const indexes = new Uint32Array(starts[stemCount] ?? 0);
  const next = starts.slice(0, stemCount);
  lists.forEach((list, index) => {
    for (const ids of list)
      for (let at = 0; at < ids.length; at++) {
        const id = ids[at] ?? 0;
        const place = next[id] ?? 0;
        indexes[place] = index;
        next[id] = place + 1;
      }
  });
  return (id, each) => {
    for (let at = starts[id] ?? 0; at < (starts[id + 1] ?? 0); at++) each(indexes[at] ?? 0);
  };
}
