/**
 * Which of some files hold each stem id, as compressed rows: the files of id `i` are
 * `items[starts[i]] … items[starts[i + 1]]`, ascending. A stored index keeps them for its files'
 * words and names (src/repository/word-index.ts), so that a warm run looks a stem's files up
 * instead of making these rows again from every file's stems.
 */
export interface StemRows {
  starts: Uint32Array;
  items: Uint32Array;
}

/**
 * The rows of `count` files, file `index` holding the ids of each of `idsOf(index)` (a file
 * listed twice for an id, in its name and a directory, is in its row twice). Indexed loops: this
 * goes over every stem of every file of a repository.
 */
export function stemRows(
  stemCount: number,
  count: number,
  idsOf: (index: number) => readonly Uint32Array[],
): StemRows {
  const lists = Array.from({ length: count }, (_, index) => idsOf(index));
  const starts = new Uint32Array(stemCount + 1);
  for (const list of lists)
    for (const ids of list)
      for (let at = 0; at < ids.length; at++) {
        const id = ids[at] ?? 0;
        starts[id + 1] = (starts[id + 1] ?? 0) + 1;
      }
  for (let id = 0; id < stemCount; id++) starts[id + 1] = (starts[id + 1] ?? 0) + (starts[id] ?? 0);
  const items = new Uint32Array(starts[stemCount] ?? 0);
  const next = starts.slice(0, stemCount);
  lists.forEach((list, index) => {
    for (const ids of list)
      for (let at = 0; at < ids.length; at++) {
        const id = ids[at] ?? 0;
        const place = next[id] ?? 0;
        items[place] = index;
        next[id] = place + 1;
      }
  });
  return { starts, items };
}

/** What a file is put in rows by: the stems of its words, and of its file name and directories. */
export interface RowIds {
  postings: { stems: Uint32Array };
  nameStemIds: Uint32Array;
  directoryStemIds: Uint32Array;
}

/**
 * The rows of `count` files by the stems of their words, and by those of their names; none for a
 * file `idsOf` gives nothing for. One definition for the rows a stored index keeps and those a run
 * makes of the files it read, so that both are looked up alike.
 */
export function wordAndNameRows(
  stemCount: number,
  count: number,
  idsOf: (index: number) => RowIds | undefined,
): { words: StemRows; names: StemRows } {
  return {
    words: stemRows(stemCount, count, (index) => {
      const ids = idsOf(index);
      return ids ? [ids.postings.stems] : [];
    }),
    names: stemRows(stemCount, count, (index) => {
      const ids = idsOf(index);
      return ids ? [ids.nameStemIds, ids.directoryStemIds] : [];
    }),
  };
}

/** Each file of row `id` (none past the rows' last id). */
export function forEachInRow(rows: StemRows, id: number, each: (item: number) => void): void {
  const { starts, items } = rows;
  if (id + 1 >= starts.length) return;
  for (let at = starts[id] ?? 0; at < (starts[id + 1] ?? 0); at++) each(items[at] ?? 0);
}

/**
 * Whether `rows` are rows of `stemCount` ids, each within its items: a row's files are not
 * checked here (there are millions), but where they are used.
 */
export function areStemRows(rows: StemRows, stemCount: number): boolean {
  const { starts, items } = rows;
  if (starts.length !== stemCount + 1 || starts[0] !== 0) return false;
  for (let id = 0; id < stemCount; id++)
    if ((starts[id + 1] ?? 0) < (starts[id] ?? 0)) return false;
  return starts[stemCount] === items.length;
}
