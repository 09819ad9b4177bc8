import type { KeywordPattern } from './keyword.js';
import type { Workspace } from '../repository/workspace.js';
import type { StemTable } from '../text/word-postings.js';

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
  // Compressed rows: per stem id, its files are `byText[starts[id]] … byText[starts[id + 1]]`.
  const starts = new Uint32Array(table.stems.length + 1);
  for (const file of files)
    for (const id of file.words?.postings.stems ?? []) starts[id + 1] = (starts[id + 1] ?? 0) + 1;
  for (let id = 0; id < table.stems.length; id++)
    starts[id + 1] = (starts[id + 1] ?? 0) + (starts[id] ?? 0);
  const byText = new Uint32Array(starts[table.stems.length] ?? 0);
  const next = starts.slice(0, table.stems.length);
  files.forEach((file, index) => {
    for (const id of file.words?.postings.stems ?? []) {
      const at = next[id] ?? 0;
      byText[at] = index;
      next[id] = at + 1;
    }
  });
  const byName = new Map<string, number[]>();
  files.forEach((file, index) => {
    for (const stems of [file.fileNameStems, file.directoryStems])
      for (const stem of stems) {
        const named = byName.get(stem);
        if (named) {
          if (named.at(-1) !== index) named.push(index);
        } else byName.set(stem, [index]);
      }
  });
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
          if (id !== undefined)
            for (let at = starts[id] ?? 0; at < (starts[id + 1] ?? 0); at++)
              mark(byText[at] ?? 0, word);
          for (const index of byName.get(stem) ?? []) mark(index, word);
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
